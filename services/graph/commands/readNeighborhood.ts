/**
 * Neighborhood read (§4.12): a node, every wire on one of its ports (either
 * direction), and every node at the other end of those wires, with paths (§2.12).
 * Seeks the node, its ports and the wires on them by index, then the neighbors by
 * id: the cost follows the neighborhood, not the branch. Does not touch
 * last_opened_at.
 */
import type { Principal } from '../../../shared/http/principal';
import type { ServiceContext } from '../../../shared/http/serviceContext';
import { pipelined } from '../../../shared/neo4j/pipelined';
import { visibleBranch } from '../../branches/branchAccess';
import type { BranchRecord } from '../../branches/branchRecord';
import type { NodeWithPorts } from '../graphRecords';
import { addressNodes, NodeAddresses } from '../paths';
import {
  chainOf,
  loadChainedNode,
  loadChainedNodes,
  loadEdgesAtNodes,
  ScopedEdge,
} from '../scopedLoader';

export interface NeighborhoodRead {
  branch: BranchRecord;
  node: NodeWithPorts;
  /** Nodes at the other end of the wires, without the node itself, ordered by id. */
  neighbors: NodeWithPorts[];
  /** Every wire on a port of the node, ordered by id. */
  edges: ScopedEdge[];
  addresses: NodeAddresses;
}

export async function readNeighborhood(
  ctx: ServiceContext,
  principal: Principal,
  branchId: string,
  nodeId: string,
): Promise<NeighborhoodRead> {
  return ctx.executor.readTx(async (tx) => {
    // Visibility, the node and its wires go out together; visibility wins (404 branch).
    const [{ branch }, node, edges] = await pipelined([
      visibleBranch(tx, principal, branchId),
      loadChainedNode(tx, branchId, nodeId),
      loadEdgesAtNodes(tx, branchId, [nodeId]),
    ]);
    const otherEnds = edges
      .flatMap((e) => [e.source, e.target])
      .filter((id): id is string => id !== null && id !== nodeId);
    const neighbors = await loadChainedNodes(tx, branch.id, otherEnds);
    return {
      branch,
      node: node.entry,
      neighbors: neighbors.map((n) => n.entry),
      edges,
      addresses: addressNodes([node, ...neighbors].map(chainOf)),
    };
  });
}
