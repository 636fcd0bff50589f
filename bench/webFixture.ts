/**
 * A nested synthetic graph for the web viewer bench: `top` boundaries at the top
 * level (wired in a chain), each holding `middle` boundaries, each holding leaf
 * behaviors wired in a chain, every node with one input and one output port. The
 * top level is the same size whatever the total, so opening a graph at its top
 * level should cost the same at 1k and 100k nodes. Bulk-loaded with UNWIND in the
 * service's storage model (services/graph/store/graphSchema.ts).
 */
import { randomUUID } from 'node:crypto';
import type { Executor } from '../shared/neo4j/executor';
import { cypher } from '../shared/neo4j/namedQuery';

const NODE_FIELDS = `description: '', aliases: [], constraints: [], verifications: '[]',
  is_test_node: false, status: 'idle', path_prefix: null, language: null, is_external: false,
  external_kind: null, protocol: null, documentation_url: null, source_decisions: [], x: 0.0, y: 0.0`;

const PORTS = `CREATE (n)-[:HAS_PORT]->(:Port {branch_id: $branchId, id: row.input, node_id: row.id, channel: 'inputs',
                  ord: 0, name: 'in', type: 'int', description: '', external: false, contract_name: null})
   CREATE (n)-[:HAS_PORT]->(:Port {branch_id: $branchId, id: row.output, node_id: row.id, channel: 'outputs',
                  ord: 0, name: 'out', type: 'int', description: '', external: false, contract_name: null})`;

const createTop = cypher(
  'bench.web.createTop',
  `UNWIND $rows AS row
   CREATE (n:GNode {branch_id: $branchId, id: row.id, kind: 'boundary', parent_id: null, scope: '',
                    name: row.name, user_kind: 'module', ${NODE_FIELDS}})
   ${PORTS}`,
);

const createInside = cypher(
  'bench.web.createInside',
  `UNWIND $rows AS row
   MATCH (p:GNode {branch_id: $branchId, id: row.parent})
   CREATE (p)-[:CONTAINS]->(n:GNode {branch_id: $branchId, id: row.id, kind: row.kind, parent_id: row.parent,
                    scope: row.parent, name: row.name, user_kind: row.userKind, ${NODE_FIELDS}})
   ${PORTS}`,
);

const createWires = cypher(
  'bench.web.createWires',
  `UNWIND $rows AS row
   CREATE (:Edge {branch_id: $branchId, id: row.id, source_handle: row.source, target_handle: row.target})`,
);

interface Row {
  id: string;
  input: string;
  output: string;
  name: string;
  parent?: string;
  kind?: string;
  userKind?: string | null;
}

const CHUNK = 5000;

function row(name: string, extra: Partial<Row> = {}): Row {
  return { id: randomUUID(), input: randomUUID(), output: randomUUID(), name, ...extra };
}

function chain(rows: Row[]) {
  return rows
    .slice(1)
    .map((r, i) => ({ id: randomUUID(), source: rows[i].output, target: r.input }));
}

async function inChunks<T>(items: T[], write: (chunk: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < items.length; i += CHUNK) await write(items.slice(i, i + CHUNK));
}

/** Loads `size` nodes onto the branch: `top` top-level boundaries, about a tenth boundaries below them. */
export async function loadNestedFixture(
  executor: Executor,
  branchId: string,
  size: number,
  top = 10,
): Promise<{ top: number; total: number }> {
  const middleCount = Math.max(top, Math.round((size - top) / 11));
  const leafCount = size - top - middleCount;
  const tops = Array.from({ length: top }, (_, i) => row(`area${i}`));
  const middles = Array.from({ length: middleCount }, (_, i) =>
    row(`module${i}`, { parent: tops[i % top].id, kind: 'boundary', userKind: 'module' }),
  );
  // leaf i sits in middle i % middleCount: leaves i - middleCount and i share a parent
  const leaves = Array.from({ length: leafCount }, (_, i) =>
    row(`step${i}`, { parent: middles[i % middleCount].id, kind: 'behavior', userKind: null }),
  );
  const leafWires = leaves.slice(middleCount).map((r, i) => ({
    id: randomUUID(),
    source: leaves[i].output,
    target: r.input,
  }));
  const run = (query: typeof createTop) => (rows: unknown[]) =>
    executor.write(query, { branchId, rows });
  await inChunks(tops, run(createTop));
  await inChunks(middles, run(createInside));
  await inChunks(leaves, run(createInside));
  await inChunks([...chain(tops), ...leafWires], run(createWires));
  return { top, total: tops.length + middles.length + leaves.length };
}
