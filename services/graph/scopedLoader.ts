/**
 * Row shapes shared by the scoped reads: nodes with their ports and
 * containment chains, and wires with how many of their endpoints were read. The
 * rows of store/scopedReadQueries.ts map to graphRecords here.
 */
import { EdgeRecord, groupPorts, NodeRecord, NodeWithPorts, PortRecord } from './graphRecords';
import type { NodeChain } from './paths';

/** A returned node with the names of its containment chain (top level first). */
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

export type ChildRow = { node: NodeRecord; ports: PortRecord[] };

/** Children rows as chained nodes, their chains extending the parent's. */
export function chainChildren(parent: ChainedNode, rows: ChildRow[]): ChainedNode[] {
  return rows.map((r) => ({
    entry: withPorts(r.node, r.ports),
    names: [...parent.names, r.node.name],
  }));
}
