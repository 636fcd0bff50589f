/**
 * Seeds data for `make fuzz` and writes a schemathesis config that binds
 * the path ids to it half of the time, so generated requests reach the handlers'
 * logic instead of stopping at 404:
 *   npx tsx tools/fuzz/seedFuzzData.ts --url URL --token TOKEN --out schemathesis.toml
 * Creates PROJECTS projects, each with a working branch holding a small tree of
 * nodes (parent and children) so subtree, neighborhood and boundary reads find them;
 * half of those branches are merged, so main holds the tree too (boundary views) and
 * the other half stay active (merge, preview, diff). Settled decisions are imported
 * into the first project (Neo4j from NEO4J_URI, as graphctl does) for the decision routes.
 */
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { loadConfig } from '../../shared/config/config';
import { createLogger } from '../../shared/logging/logger';
import { Executor } from '../../shared/neo4j/executor';
import { importDecisions } from '../../services/decisions';

const PROJECTS = 4;
const DECISIONS = 6;
const SETTLED = ['accepted', 'rejected', 'superseded', 'retired'];

/** Settled decisions of one project, as JSON Lines for importDecisions. */
async function seedDecisions(projectId: string): Promise<string[]> {
  const ids = Array.from({ length: DECISIONS }, () => randomUUID());
  const lines = ids.map((id, i) =>
    JSON.stringify({
      id,
      project_id: projectId,
      state: SETTLED[i % SETTLED.length],
      anchor_ref: { type: 'project', id: null },
      parent_decision_id: null,
      superseded_by: null,
      resulting_node_ids: null,
      retirement_reason: null,
      applied: null,
      annotations: null,
      capture_text: `seeded decision ${i}`,
      check: null,
      captured_at: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(),
    }),
  );
  const config = loadConfig();
  const logger = createLogger({ level: 'warn', name: 'fuzz-seed', toStderr: true });
  const executor = new Executor({ ...config.neo4j, logger });
  try {
    await importDecisions(executor, projectId, lines.join('\n'));
  } finally {
    await executor.close();
  }
  return ids;
}

interface Answer {
  project: { id: string };
  main_branch: { id: string };
  branch: { id: string };
}

async function call(base: string, token: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as Answer;
  if (res.status >= 300)
    throw new Error(`${method} ${path} -> ${res.status}: ${JSON.stringify(json)}`);
  return json;
}

function toml(name: string, values: string[]): string {
  return `[dictionaries.${name}]\nvalues = [${values.map((v) => JSON.stringify(v)).join(', ')}]\n`;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      url: { type: 'string' },
      token: { type: 'string' },
      out: { type: 'string' },
    },
  });
  const base = values.url ?? '';
  const token = values.token ?? '';
  const projects: string[] = [];
  const branches: string[] = [];
  const nodes: string[] = [];
  for (let p = 0; p < PROJECTS; p++) {
    const created = await call(base, token, 'POST', '/v1/projects', {
      name: `fuzz-seed-${p}-${randomUUID().slice(0, 8)}`,
    });
    projects.push(created.project.id);
    branches.push(created.main_branch.id);
    const fork = await call(base, token, 'POST', `/v1/projects/${created.project.id}/branches`, {
      name: 'seed',
    });
    branches.push(fork.branch.id);
    const parent = randomUUID();
    const children = [randomUUID(), randomUUID()];
    await call(base, token, 'POST', `/v1/branches/${fork.branch.id}/deltas`, {
      expected_version: 0,
      deltas: [
        { type: 'add_node', node: { id: parent, kind: 'boundary', data: { name: 'root' } } },
        ...children.map((id, i) => ({
          type: 'add_node',
          node: { id, kind: 'behavior', parent_id: parent, data: { name: `child${i}` } },
        })),
      ],
    });
    nodes.push(parent, ...children);
    if (p % 2 === 0) {
      await call(base, token, 'POST', `/v1/branches/${fork.branch.id}/merge`, {
        expected_version: 1,
      });
    }
  }
  const decisions = await seedDecisions(projects[0]);
  const parameters = [
    ['path.project_id', 'project_ids'],
    ['path.branch_id', 'branch_ids'],
    ['path.node_id', 'node_ids'],
    ['path.decision_id', 'decision_ids'],
    ['query.project_id', 'project_ids'],
  ]
    .map(([key, dictionary]) => `"${key}" = { dictionary = "${dictionary}", probability = 0.5 }`)
    .join('\n');
  const text = [
    '# Written by tools/fuzz/seedFuzzData.ts for one `make fuzz` run.',
    toml('project_ids', projects),
    toml('branch_ids', branches),
    toml('node_ids', nodes),
    toml('decision_ids', decisions),
    `[parameters]\n${parameters}\n`,
  ].join('\n');
  writeFileSync(values.out ?? 'schemathesis.toml', text);
  process.stdout.write(
    `seeded ${projects.length} projects, ${branches.length} branches, ${nodes.length} nodes, ${decisions.length} decisions\n`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
