/**
 * Write benchmark: fork, delta batches (10 and 100 deltas), validate of a 10-delta
 * batch and the full-graph read at several graph sizes, through HTTP, beside the same
 * writes and reads as bare Cypher through neo4j-driver, so overhead shows as a ratio.
 * A batch is also applied through the graph service's applyDeltas handler in this process
 * (parse, command, presenter; no HTTP, no gateway): the API against it is what a request
 * costs around the batch's own work (checks, writes, kept findings), and it against bare
 * Cypher is that work.
 */
import { randomUUID } from 'node:crypto';
import type { Config } from '../shared/config/config';
import { createLogger } from '../shared/logging/logger';
import type { Executor } from '../shared/neo4j/executor';
import type { RedisClient } from '../shared/redis/redisClient';
import {
  addedNodeRows,
  addedState,
  branchView,
  findingRow,
  FULL_READ_PAGE,
  graphRoutes,
  IdempotencyStore,
  orphanNodeFinding,
  parseDeltaBatch,
  touchesOf,
} from '../services/graph';
import type { AddNode, Delta } from '../services/graph';
import { BenchClient } from './benchClient';
import { bareBatch, branchRow } from './fixtureQueries';
import { Fixture, loadFixture, pick } from './graphFixture';
import { bareFullRead } from './readQueries';
import { readEdgesPage, readNodesWithPorts } from '../services/graph/store/graphReadQueries';
import type { Row } from '../shared/neo4j/namedQuery';
import { ownStatements } from './ownStatements';
import { measureInterleaved, Sample } from './stats';

/**
 * The node and port records the API stores for add_node delta `delta` (parsed as the API
 * parses it, built by the functions its batch writes them with), for the bare batch: a
 * field the API adds to its records (and the indexes it feeds) reaches the bare side too.
 */
export function storedRecords(delta: unknown): ReturnType<typeof addedNodeRows> {
  const [parsed] = parseDeltaBatch(
    { deltas: [delta], expected_version: 0 },
    { maxDeltas: 1, requireVersion: true },
  ).deltas as AddNode[];
  return addedNodeRows(parsed, addedState(parsed));
}

/**
 * `count` deltas adding `count / 2` nodes, each with an input wired from a fixture node's
 * output, and the same writes as rows of bareBatch (`bare`). The new nodes trace to no
 * source decision, so the API keeps an orphan_node finding record for each of them: the
 * bare batch writes those records too, built by the function the API uses (findingRow),
 * so that both sides make the same writes.
 */
export function batchDeltas(fixture: Fixture, count: number, branchId = '') {
  const deltas: unknown[] = [];
  const bare = { nodes: [] as unknown[], edges: [] as unknown[], findings: [] as unknown[] };
  for (let i = 0; i < count / 2; i++) {
    const id = randomUUID();
    const input = randomUUID();
    const parent = pick(fixture.boundaries);
    const name = `x${id.slice(0, 12)}`;
    const addNode = {
      type: 'add_node',
      node: {
        id,
        parent_id: parent,
        data: { name, inputs: [{ id: input, name: 'in', type: 'int' }] },
      },
    };
    deltas.push(addNode);
    const stored = storedRecords(addNode);
    const edge = { id: randomUUID(), source: pick(fixture.nodes).output, target: input };
    deltas.push({
      type: 'add_edge',
      edge: { id: edge.id, source_handle: edge.source, target_handle: edge.target },
    });
    bare.nodes.push({
      parent,
      props: { ...stored.node.props, branch_id: branchId, id },
      ports: [{ ...stored.ports[0].props, branch_id: branchId, id: input }],
    });
    bare.edges.push({
      branch_id: branchId,
      id: edge.id,
      source_handle: edge.source,
      target_handle: edge.target,
    });
    const { id: findingId, props } = findingRow(orphanNodeFinding({ id, name }));
    bare.findings.push({ id: findingId, props });
  }
  return { deltas, bare };
}

/** The parameters of bareBatch for `bare` (the deltas' text as the change trail keeps it,
 * and the touches it indexes, built by the function the API uses). */
export function bareParams(
  branchId: string,
  batch: ReturnType<typeof batchDeltas> & { bare: { closed?: string[] } },
) {
  return {
    branchId,
    closed: [],
    ...batch.bare,
    now: new Date().toISOString(),
    actorId: 'bench',
    deltas: JSON.stringify(batch.deltas),
    touches: touchesOf(batch.deltas as Delta[]),
  };
}

/** Batches before timing starts at each size. */
const BATCH_WARMUP = 10;

/** Timed validates of a 10-delta batch at each size (a few tens of milliseconds each). */
const VALIDATE_RUNS = 30;

/**
 * The JVM under Neo4j compiles its hot paths only after a few hundred executions of
 * a query (measured: a 10-delta batch took ~40 ms after 30 batches and ~12 ms after
 * 800, the cost sitting in the first queries of each transaction). So before any
 * size is timed, both sides run this many batches on a scratch branch of their own,
 * leaving the measured branches at their nominal sizes.
 */
const JIT_WARMUP_BATCHES = 200;

async function warmUp(client: BenchClient, executor: Executor): Promise<void> {
  process.stderr.write(`warming up the JVM and Node: ${JIT_WARMUP_BATCHES} batches a side ...\n`);
  const project = await client.createProject();
  const fixture = await loadFixture(executor, project.mainId, 200);
  const branchId = await client.fork(project.projectId);
  let version = 0;
  for (let i = 0; i < JIT_WARMUP_BATCHES; i++) {
    const count = i % 10 === 0 ? 100 : 10;
    await client.applyDeltas(branchId, batchDeltas(fixture, count).deltas, version);
    // the bare batch bumps the version again: its answer is the version for the next batch
    const [row] = await executor.write<{ version: number }>(
      bareBatch,
      bareParams(branchId, batchDeltas(fixture, count, branchId)),
    );
    version = row.version;
    if (i % 20 === 0) await client.validate(branchId);
  }
}

/**
 * The rows of the branch's head view a full read answers with: the very statements the
 * API runs, page by page as it runs them (wires with their endpoint nodes, then nodes
 * with their ports, FULL_READ_PAGE rows a transaction), or, as a smaller reference
 * (`minimal`), every node, port and wire record as it is stored, in one transaction.
 */
async function bareFullReadOf(
  executor: Executor,
  branchId: string,
  minimal = false,
): Promise<number> {
  const [row] = await executor.read<{
    id: string;
    version: number;
    base_main_version: number;
    main_id: string;
  }>(branchRow, { branchId });
  const view = branchView(row, row.main_id, row.version);
  if (minimal)
    return executor.readTx(async (tx) => {
      let records = 0;
      for (const query of bareFullRead) records += (await tx.run(query, { view })).length;
      return records;
    });
  let records = 0;
  for (const [query, idOf] of [
    [readEdgesPage, (r: Row) => r.id as string],
    [readNodesWithPorts, (r: Row) => (r.node as { id: string }).id],
  ] as const) {
    for (let after = '', page = FULL_READ_PAGE; page === FULL_READ_PAGE;) {
      const rows = await executor.read(query, { view, after, limit: FULL_READ_PAGE });
      for (const r of rows) if (idOf(r) > after) after = idOf(r);
      page = rows.length;
      records += rows.length;
    }
  }
  return records;
}

export interface WriteBenchOptions {
  client: BenchClient;
  executor: Executor;
  sizes: number[];
  /** The service's configuration, Redis and the client's user, for the handler without HTTP. */
  config: Config;
  redis: RedisClient;
  userId: string;
}

/**
 * applyDeltas as the gateway hands it to the graph service's handler, less HTTP and the
 * gateway's steps: resolves with the branch's new version.
 */
export function inProcessApplier({
  executor,
  config,
  redis,
  userId,
}: Pick<WriteBenchOptions, 'executor' | 'config' | 'redis' | 'userId'>) {
  const log = createLogger({ level: 'warn' });
  const handlers = graphRoutes(
    { executor, config, logger: log },
    { idempotency: new IdempotencyStore({ redis, ttlSeconds: config.idempotencyTtlSeconds }) },
  );
  const principal = {
    userId,
    keyId: 'bench',
    scopes: new Set(['graph:write']),
    projectAllowlist: null,
  };
  return async (branchId: string, deltas: unknown[], expectedVersion: number) => {
    const result = await handlers.applyDeltas({
      operationId: 'applyDeltas',
      params: { branch_id: branchId },
      query: {},
      body: { deltas, expected_version: expectedVersion },
      headers: {},
      principal,
      requestId: randomUUID(),
      log,
    });
    return (result.body as { branch: { version: number } }).branch.version;
  };
}

/**
 * The three ways of applying a `count`-delta batch (batchDeltas) to branch `branchId` at
 * `version`, each resolving with the version it published: through the API, through the
 * graph service's handler in this process (inProcessApplier), and as the bare Cypher of
 * the same writes (`findings` false leaves the bare batch's finding records out).
 */
export function batchWays(o: {
  client: BenchClient;
  executor: Executor;
  applyInProcess: ReturnType<typeof inProcessApplier>;
  fixture: Fixture;
  branchId: string;
}) {
  return {
    api: (count: number, version: number) =>
      o.client.applyDeltas(o.branchId, batchDeltas(o.fixture, count).deltas, version),
    handler: (count: number, version: number) =>
      o.applyInProcess(o.branchId, batchDeltas(o.fixture, count).deltas, version),
    bare: async (count: number, findings = true) => {
      const params = bareParams(o.branchId, batchDeltas(o.fixture, count, o.branchId));
      const [row] = await o.executor.write<{ version: number }>(
        bareBatch,
        findings ? params : { ...params, findings: [] },
      );
      return row.version;
    },
  };
}

export async function runWriteBench(options: WriteBenchOptions): Promise<Sample[]> {
  const { client, executor, sizes } = options;
  const samples: Sample[] = [];
  const applyInProcess = inProcessApplier(options);
  const validated: SizedBranch[] = [];
  await warmUp(client, executor);
  for (const size of sizes) {
    process.stderr.write(`writes @ ${size} nodes: loading fixture on main ...\n`);
    const project = await client.createProject();
    const fixture = await loadFixture(executor, project.mainId, size);
    // forks are timed once every size is loaded (forksAcrossSizes); the batches go on this one
    const branchId = await client.fork(project.projectId);
    let version = 0;
    const ways = batchWays({ client, executor, applyInProcess, fixture, branchId });
    const own = ownStatements(executor, (recording) =>
      inProcessApplier({ ...options, executor: recording }),
    );
    for (const count of [10, 100]) {
      // the four ways of applying the batch take turns run by run, so that their ratios
      // compare the same moments of a machine whose speed drifts
      let recorded: Awaited<ReturnType<typeof own.record>> = [];
      samples.push(
        ...(await measureInterleaved(
          [
            {
              label: `${count}-delta batch (API)`,
              step: async () => {
                version = await ways.api(count, version);
              },
            },
            {
              label: `${count}-delta batch (handler, no HTTP)`,
              step: async () => {
                version = await ways.handler(count, version);
              },
            },
            {
              label: `${count}-delta batch (bare Cypher)`,
              step: async () => {
                version = await ways.bare(count);
              },
            },
            {
              label: `${count}-delta batch (its own statements)`,
              prepare: async () => {
                const { deltas } = batchDeltas(fixture, count);
                recorded = await own.record(branchId, deltas, version);
              },
              step: async () => {
                await own.send(recorded);
                version += 1;
              },
            },
          ],
          size,
          60,
          BATCH_WARMUP,
        )),
      );
    }
    validated.push({ size, fixture, branchId, projectId: project.projectId });
    // the full read's three ways take turns run by run, as the batches' ways do: its
    // target (the API within 1.5x of the statements it runs) is a ratio of two of them
    const fullRead = (read: () => Promise<unknown>) => async () => {
      await read();
    };
    samples.push(
      ...(await measureInterleaved(
        [
          { label: 'full-graph read (API)', step: fullRead(() => client.readGraph(branchId)) },
          {
            label: 'full-graph read (bare Cypher)',
            step: fullRead(() => bareFullReadOf(executor, branchId)),
          },
          {
            label: 'full-graph read (minimal Cypher)',
            step: fullRead(() => bareFullReadOf(executor, branchId, true)),
          },
        ],
        size,
        size >= 100_000 ? 5 : 10,
        1,
      )),
    );
  }
  samples.push(...(await forksAcrossSizes(client, validated)));
  samples.push(...(await validateAcrossSizes(client, validated)));
  return samples;
}

/** A size's branch, after its batches, and the fixture its main was loaded with. */
interface SizedBranch {
  size: number;
  fixture: Fixture;
  branchId: string;
  projectId: string;
}

/** Timed forks of each size's main. */
const FORK_RUNS = 15;

/**
 * Forks of each size's main, once every size's fixture is loaded, the sizes taking
 * turns run by run, for the reason validateAcrossSizes gives: the store's target compares
 * these medians across sizes.
 */
async function forksAcrossSizes(client: BenchClient, mains: SizedBranch[]): Promise<Sample[]> {
  process.stderr.write(`fork, the sizes in turn ...\n`);
  return measureInterleaved(
    mains.map(({ size, projectId }) => ({
      label: 'fork',
      size,
      step: () => client.fork(projectId).then(() => undefined),
    })),
    mains[0]?.size ?? 0,
    FORK_RUNS,
    2,
  );
}

/**
 * Validate of a 10-delta batch on each size's branch, once every size's fixture is loaded,
 * the sizes taking turns run by run: the store's target compares these medians across
 * sizes, and timed size by size, minutes apart, they compared the machine's moments
 * instead (a checkpoint after a fixture's load once put the largest at 1.62x the smallest,
 * another whole run at 0.77x).
 */
async function validateAcrossSizes(
  client: BenchClient,
  branches: SizedBranch[],
): Promise<Sample[]> {
  process.stderr.write(`validate of a 10-delta batch, the sizes in turn ...\n`);
  return measureInterleaved(
    branches.map(({ size, fixture, branchId }) => ({
      label: 'validate 10-delta batch (API)',
      size,
      step: () => client.validate(branchId, batchDeltas(fixture, 10).deltas).then(() => undefined),
    })),
    branches[0]?.size ?? 0,
    VALIDATE_RUNS,
    3,
  );
}
