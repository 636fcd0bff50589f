/**
 * Loaders shared by the scoped reads (§4.11-4.13): nodes with their ports and
 * containment chains, and the wires on a set of nodes' ports, within the caller's
 * transaction. Row shapes of store/scopedReadQueries.ts map to graphRecords here.
 */
import { NotFoundError } from '../../shared/errors/domainErrors';
import type { QueryRunner } from '../../shared/neo4j/namedQuery';
import { EdgeRecord, groupPorts, NodeRecord, NodeWithPorts, PortRecord } from './graphRecords';
import type { NodeChain } from './paths';
import { readChildren, readEdgesAtNodes, readNodesWithChains } from './store/scopedReadQueries';

/** A returned node with the names of its containment chain (top level first, §2.12). */
export interface ChainedNode {
  entry: NodeWithPorts;
  names: string[];
}

/** A wire with the number of its endpoints inside the node set it was read for (1 or 2). */
export interface ScopedEdge extends EdgeRecord {
  inside: number;
}

export function withPorts(node: NodeRecord, ports: PortRecord[]): NodeWithPorts {
  const [entry] = groupPorts([node], ports);
  if (!entry) throw new Error(`node ${node.id} lost while grouping its ports`);
  return entry;
}

export function chainOf({ entry, names }: ChainedNode): NodeChain {
  return { id: entry.node.id, names };
}

type ChainedRow = { node: NodeRecord; ports: PortRecord[]; names: string[] };

/** Nodes by id, ordered by id; ids not on the branch are left out. */
export async function loadChainedNodes(
  tx: QueryRunner,
  branchId: string,
  ids: string[],
): Promise<ChainedNode[]> {
  if (ids.length === 0) return [];
  const rows = await tx.run<ChainedRow>(readNodesWithChains, { branchId, ids: [...new Set(ids)] });
  return rows.map((r) => ({ entry: withPorts(r.node, r.ports), names: r.names }));
}

/** One node by id, or the 404 of a missing node (same code as a missing branch, §5.7). */
export async function loadChainedNode(
  tx: QueryRunner,
  branchId: string,
  id: string,
): Promise<ChainedNode> {
  const [found] = await loadChainedNodes(tx, branchId, [id]);
  if (!found) throw new NotFoundError('node');
  return found;
}

type ChildRow = { node: NodeRecord; ports: PortRecord[] };

/** Direct children of a node, ordered by id (chain them with chainChildren). */
export function loadChildRows(
  tx: QueryRunner,
  branchId: string,
  parentId: string,
): Promise<ChildRow[]> {
  return tx.run<ChildRow>(readChildren, { branchId, nodeId: parentId });
}

/** Children rows as chained nodes, their chains extending the parent's. */
export function chainChildren(parent: ChainedNode, rows: ChildRow[]): ChainedNode[] {
  return rows.map((r) => ({
    entry: withPorts(r.node, r.ports),
    names: [...parent.names, r.node.name],
  }));
}

/** Every wire on a port of the given nodes, ordered by id, with its `inside` count. */
export async function loadEdgesAtNodes(
  tx: QueryRunner,
  branchId: string,
  ids: string[],
): Promise<ScopedEdge[]> {
  if (ids.length === 0) return [];
  return tx.run<ScopedEdge & Record<string, unknown>>(readEdgesAtNodes, {
    branchId,
    ids: [...new Set(ids)],
  });
}
