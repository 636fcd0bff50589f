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
import { pipelined } from '../../../shared/neo4j/pipelined';
import type { BranchRecord } from '../../branches/branchRecord';
import { loadMainBranch } from '../../branches/mainBranch';
import { visibleProject } from '../../identity/projectAccess';
import type { NodeWithPorts } from '../graphRecords';
import { addressNodes, NodeAddresses } from '../paths';
import {
  chainChildren,
  chainOf,
  loadChainedNode,
  loadChildRows,
  ScopedEdge,
} from '../scopedLoader';
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
    // Two round trips: the project check with main, then the node, its children and
    // the perimeter wires together (a failed check placed first wins: 404 project).
    const [, branch] = await pipelined([
      visibleProject(tx, principal, projectId),
      loadMainBranch(tx, projectId),
    ]);
    const [boundary, childRows, edges] = await pipelined([
      loadChainedNode(tx, branch.id, nodeId),
      loadChildRows(tx, branch.id, nodeId),
      tx.run<ScopedEdge & Record<string, unknown>>(readPerimeterEdges, {
        branchId: branch.id,
        nodeId,
      }),
    ]);
    const children = chainChildren(boundary, childRows);
    return {
      branch,
      boundary: boundary.entry,
      children: children.map((c) => c.entry),
      edges,
      addresses: addressNodes([boundary, ...children].map(chainOf)),
    };
  });
}
