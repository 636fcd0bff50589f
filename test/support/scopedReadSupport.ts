/**
 * Helpers of the scoped-read tests (§4.11-4.13): nodes with one input and one output
 * port built through the real delta API, wires between them, and the shared
 * expectations (404 body, last_opened_at untouched).
 */
import { expect } from 'chai';
import { addEdge, addNode, port, PortSpec, uuid, Workspace } from './graphBuilders';
import type { TestUser } from './harness';

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
  w: Workspace,
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
/** 404 not_found with the §7 object detail (code and message). */
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
