/**
 * Boundary view on main (§4.13): a node of the project's main branch, its direct
 * children, and the wires at its perimeter, with paths (§2.12). The wires are those
 * on the node's own ports plus those with exactly one endpoint among the node and its
 * descendants (the definition stated in the OpenAPI description of getBoundary).
 * A node of any kind is answered; a node that is not a boundary has no children.
 * Does not touch last_opened_at.
 */
import type { Principal } from '../../../shared/http/principal';
import type { ServiceContext } from '../../../shared/http/serviceContext';
import type { BranchRecord } from '../../branches/branchRecord';
import { loadMainBranch } from '../../branches/mainBranch';
import { visibleProject } from '../../identity/projectAccess';
import type { NodeWithPorts } from '../graphRecords';
import { addressNodes, NodeAddresses } from '../paths';
import { chainOf, loadChainedNode, loadChildren, ScopedEdge } from '../scopedLoader';
import { readPerimeterEdges } from '../store/scopedReadQueries';

export interface BoundaryRead {
  branch: BranchRecord;
  boundary: NodeWithPorts;
  /** Direct children, ordered by id. */
  children: NodeWithPorts[];
  /** Perimeter wires, ordered by id. */
  edges: ScopedEdge[];
  addresses: NodeAddresses;
}

export async function readBoundary(
  ctx: ServiceContext,
  principal: Principal,
  projectId: string,
  nodeId: string,
): Promise<BoundaryRead> {
  return ctx.executor.readTx(async (tx) => {
    await visibleProject(tx, principal, projectId);
    const branch = await loadMainBranch(tx, projectId);
    const boundary = await loadChainedNode(tx, branch.id, nodeId);
    const children = await loadChildren(tx, branch.id, boundary);
    const edges = await tx.run<ScopedEdge & Record<string, unknown>>(readPerimeterEdges, {
      branchId: branch.id,
      nodeId,
    });
    return {
      branch,
      boundary: boundary.entry,
      children: children.map((c) => c.entry),
      edges,
      addresses: addressNodes([boundary, ...children].map(chainOf)),
    };
  });
}
