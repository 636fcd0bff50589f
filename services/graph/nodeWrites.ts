/**
 * Writes on a branch's nodes that other services make inside their own transactions:
 * merge places the nodes it added, and fast-forward removes what main no longer has
 * and links the nodes it copied to their parents;
 * graph-file import places the imported nodes. The delta engine uses the same.
 */
import type { QueryRunner } from '../../shared/neo4j/namedQuery';
import {
  deleteNodesAndPorts as deleteNodesAndPortsQuery,
  relinkParents as relinkParentsQuery,
  writePositions as writePositionsQuery,
} from './store/deltaQueries';

export interface NodePosition {
  id: string;
  x: number;
  y: number;
}

/** Sets the positions of nodes of the branch; returns how many of them exist. */
export async function writePositions(
  tx: QueryRunner,
  branchId: string,
  positions: readonly NodePosition[],
): Promise<number> {
  if (positions.length === 0) return 0;
  const row = await tx.one<{ written: number }>(writePositionsQuery, { branchId, positions });
  return row?.written ?? 0;
}

/**
 * Deletes nodes and ports of the branch with every wire touching those ports;
 * returns how many nodes and wires went (a wire between two deleted ports counts once).
 */
export async function deleteNodesAndPorts(
  tx: QueryRunner,
  branchId: string,
  nodeIds: readonly string[],
  portIds: readonly string[],
): Promise<{ nodes: number; edges: number }> {
  const row = await tx.one<{ edgesDeleted: number; nodesDeleted: number }>(
    deleteNodesAndPortsQuery,
    { branchId, nodeIds, portIds },
  );
  return { nodes: row?.nodesDeleted ?? 0, edges: row?.edgesDeleted ?? 0 };
}

/**
 * Links nodes of the branch written with a parent_id (copied property for property)
 * to that parent, replacing the containment they had: run once every node is written.
 */
export async function relinkParents(
  tx: QueryRunner,
  branchId: string,
  nodeIds: readonly string[],
): Promise<void> {
  await tx.run(relinkParentsQuery, { branchId, nodeIds });
}
