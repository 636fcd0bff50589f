/**
 * Positions are layout, not history: the copy-on-write store keeps x and y on node
 * records and moves them in place (recordWrites.ts placeNodes), so an older record of
 * a node may still hold the position it had when a later version replaced it. A read
 * pinned to an earlier version (the `version` query parameter) therefore shows each
 * node it returns at the position the node has at the head of the same line; a node
 * gone since keeps the position of the record read. A read at the head is unchanged.
 */
import type { NamedQuery, Params, Row } from '../../shared/neo4j/namedQuery';
import { currentPositionsOf } from './store/graphReadQueries';
import type { View } from './view';
import { resolveView, VersionedBranch } from './viewResolver';

/** Runs one read query: a transaction's `run` or the executor's auto-commit `read`. */
export type ReadQuery = (query: NamedQuery, params: Params) => Promise<Row[]>;

/** Sets `x`/`y` of `nodes`, read in `view` of `branch`, to their positions at the head. */
export async function showCurrentPositions(
  read: ReadQuery,
  branch: VersionedBranch,
  view: View,
  nodes: { id: string; x: number; y: number }[],
): Promise<void> {
  if (view.ver === branch.version || nodes.length === 0) return;
  const rows = (await read(currentPositionsOf, {
    view: resolveView(branch),
    ids: nodes.map((n) => n.id),
  })) as { id: string; x: number | null; y: number | null }[];
  const now = new Map(rows.map((r) => [r.id, r]));
  for (const node of nodes) {
    const at = now.get(node.id);
    if (!at) continue;
    // a position never set reads as absent (presented as 0) at the head too
    node.x = at.x as number;
    node.y = at.y as number;
  }
}
