/**
 * The wires a rewired_on_both conflict can keep: every wire into the input port on
 * main and on the branch (the conflict names the port; its side values name source
 * ports, not wires). Read with getNeighborhood of the port's node on each side.
 */
import { api, ApiError, Schemas, unwrap } from '../api';

export interface WireCandidate {
  id: string;
  /** Where the wire comes from, and on which side(s) it is. */
  label: string;
}

type Neighborhood = Schemas['NeighborhoodResponse'];

async function around(branchId: string, nodeId: string): Promise<Neighborhood | null> {
  try {
    return await unwrap(
      api.GET('/v1/branches/{branch_id}/node/{node_id}', {
        params: { path: { branch_id: branchId, node_id: nodeId } },
      }),
    );
  } catch (e) {
    // the node is not on that side: no wire of that side
    if (e instanceof ApiError && e.status === 404) return null;
    throw e;
  }
}

function sourceName(nb: Neighborhood, edge: Schemas['WireEdge']): string {
  const nodes = [nb.node, ...nb.neighbors];
  const node = nodes.find((n) => n.id === edge.source);
  if (!node) return 'an unknown port';
  const port = [...node.data.outputs, ...node.data.inputs, ...node.data.config].find(
    (p) => p.id === edge.source_handle,
  );
  return `${node.data.name}.${port?.name ?? '?'}`;
}

export async function wireCandidates(
  portId: string,
  nodeId: string,
  sides: { main: string; branch: string },
): Promise<WireCandidate[]> {
  const [main, branch] = await Promise.all([
    around(sides.main, nodeId),
    around(sides.branch, nodeId),
  ]);
  const found = new Map<string, { from: string; on: string[] }>();
  for (const [side, nb] of [
    ['main', main],
    ['branch', branch],
  ] as const) {
    for (const edge of nb?.edges ?? []) {
      if (edge.target_handle !== portId) continue;
      const entry = found.get(edge.id) ?? { from: sourceName(nb as Neighborhood, edge), on: [] };
      entry.on.push(side);
      found.set(edge.id, entry);
    }
  }
  return [...found].map(([id, { from, on }]) => ({
    id,
    label: `from ${from} (${on.length === 2 ? 'both sides' : `${on[0]}'s`})`,
  }));
}
