/**
 * Neighborhood read (getNeighborhood): a node, every wire on one of its ports (either direction),
 * and every node at the other end of those wires, with paths, at the head or at `version`. Seeks
 * the node, its ports and the
 * wires on them by index, then the neighbors by id: the cost follows the neighborhood, not the
 * branch. Does not touch last_opened_at.
 */
import type { Principal } from '../../../shared/http/principal';
import type { ServiceContext } from '../../../shared/http/serviceContext';
import { NotFoundError } from '../../../shared/errors/domainErrors';
import { BranchAccessRow, branchGrant } from '../../branches';
import type { BranchRecord } from '../../branches';
import type { NodeRecord, NodeWithPorts, PortRecord } from '../graphRecords';
import { addressNodes, NodeAddresses } from '../paths';
import { ChainedNode, chainOf, completeChains, ScopedEdge, withPorts } from '../scopedLoader';
import { readNeighborhoodOf } from '../store/scopedReadQueries';
import { readAt } from '../store/scopedReadFragments';
import { resolveView } from '../viewResolver';

export interface NeighborhoodRead {
  branch: BranchRecord;
  node: NodeWithPorts;
  /** Nodes at the other end of the wires, without the node itself, ordered by id. */
  neighbors: NodeWithPorts[];
  /** Every wire on a port of the node, ordered by id. */
  edges: ScopedEdge[];
  addresses: NodeAddresses;
}

/** The access row (BranchAccessRow) and, when the node exists, its neighborhood. */
interface NeighborhoodRow extends BranchAccessRow {
  node: NodeRecord | null;
  ports: PortRecord[] | null;
  names: string[] | null;
  namesRest: string | null;
  edges: ScopedEdge[] | null;
  neighbors:
    { node: NodeRecord; ports: PortRecord[]; names: string[]; rest: string | null }[] | null;
}

export async function readNeighborhood(
  ctx: ServiceContext,
  principal: Principal,
  branchId: string,
  nodeId: string,
  version?: number,
): Promise<NeighborhoodRead> {
  // One statement, one round trip: the access row, the node, its wires and neighbors.
  const [row] = await ctx.executor.read<NeighborhoodRow & Record<string, unknown>>(
    readNeighborhoodOf,
    { branchId, nodeId, userId: principal.userId, at: readAt(version) },
  );
  const { branch } = branchGrant(principal, row);
  const view = resolveView(branch, version);
  if (!row.node) throw new NotFoundError('node');
  const found = row.neighbors ?? [];
  const [names = [], ...others] = await completeChains(
    ctx.executor,
    view,
    [
      { chain: row.names ?? [], rest: row.namesRest },
      ...found.map((r) => ({ chain: r.names, rest: r.rest })),
    ],
    { byId: false, maxDepth: ctx.config.limits.maxNestingDepth },
  );
  const node: ChainedNode = { entry: withPorts(row.node, row.ports ?? []), names };
  const neighbors: ChainedNode[] = found.map((r, i) => ({
    entry: withPorts(r.node, r.ports),
    names: others[i] ?? [],
  }));
  return {
    branch,
    node: node.entry,
    neighbors: neighbors.map((n) => n.entry),
    edges: row.edges ?? [],
    addresses: addressNodes([node, ...neighbors].map(chainOf)),
  };
}
