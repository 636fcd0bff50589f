/**
 * Prints the statements a delta batch runs (applyDeltas), each by name with its full text
 * and the plan Neo4j ran it with (PROFILE: operators, rows, db hits), on a small seeded
 * store: a fixture graph on main and a branch forked from it. Three batches show the three
 * ways through the write path: one run of additions (its first statement locks, reads the
 * run's facts, writes it and records the batch), additions then an update and a delete
 * (the general path, findings recomputed after the write), and positions alone.
 *
 *   make statements      (scripts/with-stack.sh on a throw-away stack)
 *   npx tsx bench/batchStatements.ts [--nodes 200] [--text-only]
 *
 * Each batch runs in a transaction of its own, committed, with every statement sent as
 * PROFILE (after its CYPHER options) so the plan printed is the one that ran, on the rows
 * that statement saw.
 */
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import neo4j, { ManagedTransaction, ProfiledPlan } from 'neo4j-driver';
import { createLogger } from '../shared/logging/logger';
import type { Executor } from '../shared/neo4j/executor';
import type { NamedQuery, Params, QueryRunner, Row } from '../shared/neo4j/namedQuery';
import { readableCypher } from '../shared/neo4j/readableCypher';
import { startService } from '../services/gateway';
import { graphRoutes, IdempotencyStore } from '../services/graph';
import { benchConfig, benchUser } from './benchService';
import { loadFixture, pick } from './graphFixture';
import { batchDeltas } from './writeBench';

/** A statement as one batch ran it. */
interface Ran {
  query: NamedQuery;
  plan: ProfiledPlan | false;
}

/** The text that runs `query` and profiles it: PROFILE after the statement's CYPHER options. */
function profiled(text: string): string {
  const options = /^(CYPHER(?: [a-z]+=[a-z_]+)+) /.exec(text);
  return options ? `${options[1]} PROFILE ${text.slice(options[0].length)}` : `PROFILE ${text}`;
}

function printPlan(plan: ProfiledPlan, depth = 0): string[] {
  const details = plan.arguments?.Details ? ` ${String(plan.arguments.Details)}` : '';
  const line = `${'  '.repeat(depth + 2)}${plan.operatorType}${details}  (rows ${plan.rows}, db hits ${plan.dbHits})`;
  return [line, ...plan.children.flatMap((c) => printPlan(c, depth + 1))];
}

/** A QueryRunner over a driver transaction that records each statement and its profile. */
function recordingRunner(tx: ManagedTransaction, ran: Ran[], profile: boolean): QueryRunner {
  const run = async <R extends Row>(query: NamedQuery, params: Params = {}): Promise<R[]> => {
    const result = await tx.run(profile ? profiled(query.text) : query.text, params);
    ran.push({ query, plan: profile && result.summary.profile });
    return result.records.map((r) => r.toObject() as R);
  };
  return {
    run,
    one: async <R extends Row>(query: NamedQuery, params: Params = {}): Promise<R | undefined> => {
      const rows = await run<R>(query, params);
      return rows[0];
    },
    each: async <R extends Row>(
      query: NamedQuery,
      params: Params,
      onRow: (row: R) => Promise<void> | void,
    ) => {
      const rows = await run<R>(query, params);
      for (const row of rows) await onRow(row);
      return rows.length;
    },
  };
}

async function main() {
  const { values } = parseArgs({
    options: {
      nodes: { type: 'string', default: '200' },
      'text-only': { type: 'boolean', default: false },
    },
  });
  const config = benchConfig();
  const logger = createLogger({ level: 'warn' });
  const service = await startService(config, logger);
  const driver = neo4j.driver(
    config.neo4j.uri,
    neo4j.auth.basic(config.neo4j.user, config.neo4j.password),
    // numbers as the executor reads them (shared/neo4j/executor.ts)
    { disableLosslessIntegers: true },
  );
  try {
    const { client, userId } = await benchUser(service, 'statements');
    const project = await client.createProject();
    const fixture = await loadFixture(service.executor, project.mainId, Number(values.nodes));
    const branchId = await client.fork(project.projectId);
    const principal = {
      userId,
      keyId: 'statements',
      scopes: new Set(['graph:write']),
      projectAllowlist: null,
    };
    let ran: Ran[] = [];
    const session = driver.session();
    // the graph service's handlers take only writeTx and readTx of the executor: each
    // batch's statements are recorded, its access check's read included
    const recorded =
      (mode: 'executeWrite' | 'executeRead') =>
      <T>(work: (tx: QueryRunner) => Promise<T>) =>
        session[mode]((tx) => work(recordingRunner(tx, ran, !values['text-only'])));
    const executor = {
      writeTx: recorded('executeWrite'),
      readTx: recorded('executeRead'),
    } as unknown as Executor;
    const idempotency = new IdempotencyStore({
      redis: service.redis,
      ttlSeconds: config.idempotencyTtlSeconds,
    });
    const handlers = graphRoutes({ executor, config, logger }, { idempotency });
    if (!handlers.applyDeltas) throw new Error('the graph routes have no applyDeltas');
    const additions = batchDeltas(fixture, 10).deltas as { node?: { id: string } }[];
    const added = additions.flatMap((d) => (d.node ? [d.node.id] : []));
    const batches: [string, (version: number) => unknown][] = [
      ['one run of additions', (v) => ({ expected_version: v, deltas: additions })],
      [
        'additions, then an update and a delete',
        (v) => ({
          expected_version: v,
          deltas: [
            ...batchDeltas(fixture, 4).deltas,
            { type: 'update_node_data', node_id: added[0], after: { description: 'changed' } },
            { type: 'delete_node', node_id: added[1] },
          ],
        }),
      ],
      [
        'positions alone',
        () => ({ deltas: [], positions: { [pick(added.slice(2))]: { x: 1, y: 2 } } }),
      ],
    ];
    let version = 0;
    for (const [title, body] of batches) {
      ran = [];
      const answer = await handlers.applyDeltas({
        operationId: 'applyDeltas',
        params: { branch_id: branchId },
        query: {},
        body: body(version),
        headers: {},
        principal,
        requestId: randomUUID(),
        log: logger,
      });
      if (answer.status !== 200) throw new Error(`applyDeltas answered ${JSON.stringify(answer)}`);
      version = (answer.body as { branch: { version: number } }).branch.version;
      process.stdout.write(`\n=== batch: ${title} (${ran.length} statements) ===\n`);
      for (const [i, { query, plan }] of ran.entries()) {
        process.stdout.write(`\n--- ${i + 1}. ${query.name}\n${readableCypher(query.text)}`);
        if (plan) process.stdout.write(`  plan (PROFILE):\n${printPlan(plan).join('\n')}\n`);
      }
    }
    await session.close();
  } finally {
    await driver.close();
    await service.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : error}\n`);
  process.exit(1);
});
