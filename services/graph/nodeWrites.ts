/**
 * Writes on a view's nodes that other services make inside their own transactions,
 * through a write view (view.ts writeViewOf): merge places the nodes it added and
 * fast-forward removes what main no longer has; graph-file import places the
 * imported nodes. The delta engine uses the same. Both go through the copy-on-write
 * primitives (recordWrites.ts), so history and branch overlays stay consistent.
 */
import type { QueryRunner } from '../../shared/neo4j/namedQuery';
import { placeNodes, removeStates } from './recordWrites';
import { findRemovals } from './store/deltaQueries';
import type { View } from './view';

export interface NodePosition {
  id: string;
  x: number;
  y: number;
}

/** Sets the positions of nodes visible in the view; returns how many of them exist. */
export async function writePositions(
  tx: QueryRunner,
  view: View,
  positions: readonly NodePosition[],
): Promise<number> {
  return placeNodes(tx, view, positions);
}

/**
 * Removes nodes and ports visible in the (write) view with every wire touching those
 * ports (found by handle in the view); returns how many nodes and wires went (a wire
 * between two removed ports counts once). Ids the view does not see are ignored.
 */
export async function deleteNodesAndPorts(
  tx: QueryRunner,
  view: View,
  nodeIds: readonly string[],
  portIds: readonly string[],
): Promise<{ nodes: number; edges: number }> {
  if (nodeIds.length === 0 && portIds.length === 0) return { nodes: 0, edges: 0 };
  const row = await tx.one<{ nodeIds: string[]; portIds: string[]; edgeIds: string[] }>(
    findRemovals,
    { view, nodeIds, portIds },
  );
  const found = row ?? { nodeIds: [], portIds: [], edgeIds: [] };
  // sent together: the transaction runs them in order, in one round trip
  await Promise.all([
    removeStates(tx, view, 'Edge', found.edgeIds),
    removeStates(tx, view, 'Port', found.portIds),
    removeStates(tx, view, 'GNode', found.nodeIds),
  ]);
  return { nodes: found.nodeIds.length, edges: found.edgeIds.length };
}
