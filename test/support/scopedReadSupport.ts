/**
 * Helpers of the scoped-read tests: nodes with one input and one output
 * port built through the real delta API, wires between them, forks, the shared
 * expectations (404 body, last_opened_at untouched), and one marked test fixture.
 */
import { expect } from 'chai';
import { addEdge, addNode, port, PortSpec, uuid, Workspace } from './graphBuilders';
import { cypher } from '../../shared/neo4j/namedQuery';
import { currentHarness, TestUser } from './harness';

export interface Built {
  id: string;
  in: PortSpec;
  out: PortSpec;
}

/** A node with one input and one output port (behavior unless told). */
function spec(
  name: string,
  parent: Built | null = null,
  kind = 'behavior',
): { node: Built; delta: unknown } {
  const node = { id: uuid(), in: port('in'), out: port('out') };
  const delta = addNode({
    id: node.id,
    kind,
    parent_id: parent?.id ?? null,
    data: { name, inputs: [node.in], outputs: [node.out] },
  });
  return { node, delta };
}

/** Adds nodes in order (parents first) in one batch; returns them by key. */
export async function build<K extends string>(
  w: Pick<Workspace, 'apply'>,
  plan: [K, string, K | null, string?][],
): Promise<Record<K, Built>> {
  const out = {} as Record<K, Built>;
  const deltas: unknown[] = [];
  for (const [key, name, parent, kind] of plan) {
    const s = spec(name, parent === null ? null : out[parent], kind ?? 'behavior');
    out[key] = s.node;
    deltas.push(s.delta);
  }
  await w.apply(deltas);
  return out;
}

export const wire = (from: Built, to: Built, id = uuid()) => addEdge(from.out.id, to.in.id, id);
export const ids = (list: { id: string }[]) => list.map((x) => x.id).sort();
/** 404 not_found with an object detail (code and message). */
export function expectNotFound(res: { status: number; body: any }): void {
  expect(res.status, JSON.stringify(res.body)).to.equal(404);
  expect(Object.keys(res.body.detail).sort()).to.deep.equal(['code', 'message']);
  expect(res.body.detail.code).to.equal('not_found');
}
export const NODE_NOT_FOUND = { detail: { code: 'not_found', message: 'node not found' } };

export async function lastOpened(user: TestUser, projectId: string): Promise<string | null> {
  const list = (await user.api.get('/v1/projects')).body.projects as {
    id: string;
    last_opened_at: string | null;
  }[];
  return list.find((p) => p.id === projectId)?.last_opened_at ?? null;
}

/** A new working branch of an existing project, forked from main's current state. */
export async function forkOf(
  user: TestUser,
  projectId: string,
  name = 'fork',
): Promise<Pick<Workspace, 'branchId' | 'version' | 'apply'>> {
  const res = await user.api.post(`/v1/projects/${projectId}/branches`, { name });
  expect(res.status, JSON.stringify(res.body)).to.equal(201);
  const fork = {
    branchId: res.body.branch.id as string,
    version: res.body.branch.version as number,
    async apply(deltas: unknown[]) {
      const applied = await user.api.post(`/v1/branches/${fork.branchId}/deltas`, {
        deltas,
        expected_version: fork.version,
      });
      expect(applied.status, JSON.stringify(applied.body)).to.equal(200);
      fork.version = applied.body.branch.version;
      return applied.body;
    },
  };
  return fork;
}

// ---------------------------------------------------------------------------------
// TEST FIXTURE ONLY: writes to Neo4j directly through the harness executor, bypassing
// the public API, to reach a state the API cannot produce. Sibling names are unique
// so two returned nodes can render the same path (ambiguous) only in
// data stored before or outside that rule; this builds such data. Never use it for
// anything the API can do.
// ---------------------------------------------------------------------------------
const testForceNodeName = cypher(
  'testForceNodeName',
  `MATCH (n:GNode {branch_id: $branchId, id: $id})
   SET n.name = $name
   RETURN n.id AS id`,
);

/** Sets a node's name as stored, with no invariant checks (fixture). */
export async function forceNodeName(branchId: string, id: string, name: string): Promise<void> {
  const rows = await currentHarness().service.executor.write(testForceNodeName, {
    branchId,
    id,
    name,
  });
  if (rows.length !== 1) throw new Error(`fixture: node ${id} not found on branch ${branchId}`);
}
