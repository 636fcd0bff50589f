/**
 * Boundary view on main (getBoundary): a node of the project's main branch, its direct children,
 * and the wires at its perimeter, with paths. The wires are those on the node's own ports plus
 * those with exactly one endpoint among the node and its descendants (the definition stated in the
 * OpenAPI description of getBoundary). A node of any kind is answered; a node that is not a
 * boundary has no children. Does not touch last_opened_at.
 */
import type { Principal } from '../../../shared/http/principal';
import type { ServiceContext } from '../../../shared/http/serviceContext';
import { NotFoundError } from '../../../shared/errors/domainErrors';
import type { BranchRecord } from '../../branches';
import { projectGrant, ProjectRecord, Role } from '../../identity';
import type { NodeRecord, NodeWithPorts, PortRecord } from '../graphRecords';
import { addressNodes, NodeAddresses } from '../paths';
import { chainChildren, ChainedNode, chainOf, ScopedEdge, withPorts } from '../scopedLoader';
import { readBoundaryOf } from '../store/scopedReadQueries';

export interface BoundaryRead {
  branch: BranchRecord;
  boundary: NodeWithPorts;
  /** Direct children, ordered by id. */
  children: NodeWithPorts[];
  /** Perimeter wires, ordered by id. */
  edges: ScopedEdge[];
  addresses: NodeAddresses;
}

/** The project's access row with main and, when the node exists, its boundary view. */
interface BoundaryRow {
  project: ProjectRecord | null;
  role: Role | null;
  branch: BranchRecord | null;
  node: NodeRecord | null;
  ports: PortRecord[] | null;
  names: string[] | null;
  children: { node: NodeRecord; ports: PortRecord[] }[] | null;
  edges: ScopedEdge[] | null;
}

export async function readBoundary(
  ctx: ServiceContext,
  principal: Principal,
  projectId: string,
  nodeId: string,
): Promise<BoundaryRead> {
  // One statement, one round trip: access, main, the node, its children and wires.
  const [row] = await ctx.executor.read<BoundaryRow & Record<string, unknown>>(readBoundaryOf, {
    projectId,
    nodeId,
    userId: principal.userId,
  });
  if (!row || !projectGrant(principal, row.project, row.role)) throw new NotFoundError('project');
  if (!row.branch) throw new NotFoundError('branch');
  if (!row.node) throw new NotFoundError('node');
  const boundary: ChainedNode = {
    entry: withPorts(row.node, row.ports ?? []),
    names: row.names ?? [],
  };
  const children = chainChildren(boundary, row.children ?? []);
  return {
    branch: row.branch,
    boundary: boundary.entry,
    children: children.map((c) => c.entry),
    edges: row.edges ?? [],
    addresses: addressNodes([boundary, ...children].map(chainOf)),
  };
}
