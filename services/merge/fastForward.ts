/**
 * Fast-forward: main has not moved since the
 * fork, so main becomes the branch's graph. Rather than deleting main's content
 * and copying the branch's, only the difference is written: removed edges, ports
 * and nodes are deleted (wires of deleted ports go with them), added or changed
 * nodes (positions included), ports and edges are copied from the branch, and
 * containment is re-linked for the nodes written. The result equals a full copy.
 */
import type { QueryRunner } from '../../shared/neo4j/namedQuery';
import { deleteNodesAndPorts, relinkParents } from '../graph';
import type { Snapshot } from './graphSnapshot';
import { diffSnapshots } from './snapshotDiff';
import { deleteEdgesById, syncEdges, syncNodes, syncPorts } from './store/syncQueries';

const CHUNK = 5000;

async function inChunks(
  ids: string[],
  write: (chunk: string[]) => Promise<unknown>,
): Promise<void> {
  for (let i = 0; i < ids.length; i += CHUNK) await write(ids.slice(i, i + CHUNK));
}

export async function fastForward(
  tx: QueryRunner,
  mainId: string,
  branchId: string,
  main: Snapshot,
  branch: Snapshot,
): Promise<void> {
  const diff = diffSnapshots(main, branch);
  const changedIds = (d: { changed: { id: string }[] }) => d.changed.map((c) => c.id);
  await inChunks(diff.edge.removed, (ids) => tx.run(deleteEdgesById, { branchId: mainId, ids }));
  if (diff.port.removed.length > 0 || diff.node.removed.length > 0) {
    await deleteNodesAndPorts(tx, mainId, diff.node.removed, diff.port.removed);
  }
  const moved = [...branch.positions]
    .filter(([id, p]) => {
      const old = main.positions.get(id);
      return old !== undefined && (old.x !== p.x || old.y !== p.y);
    })
    .map(([id]) => id);
  const nodes = [...new Set([...diff.node.added, ...changedIds(diff.node), ...moved])];
  await inChunks(nodes, (ids) => tx.run(syncNodes, { from: branchId, to: mainId, ids }));
  await inChunks(nodes, (ids) => relinkParents(tx, mainId, ids));
  const ports = [...diff.port.added, ...changedIds(diff.port)];
  await inChunks(ports, (ids) => tx.run(syncPorts, { from: branchId, to: mainId, ids }));
  // an unchanged wire of the branch at a removed port went with the port: write it back
  const removedPorts = new Set(diff.port.removed);
  const rewired = [...branch.edge.values()]
    .filter(
      (e) => removedPorts.has(e.source_handle ?? '') || removedPorts.has(e.target_handle ?? ''),
    )
    .map((e) => e.id);
  const edges = [...new Set([...diff.edge.added, ...changedIds(diff.edge), ...rewired])];
  await inChunks(edges, (ids) => tx.run(syncEdges, { from: branchId, to: mainId, ids }));
}
