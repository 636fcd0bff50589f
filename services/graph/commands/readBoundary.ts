/**
 * Boundary view on main (getBoundary): a node of the project's main branch, its direct children,
 * and the wires at its perimeter, with paths, at main's head or at `version`. The wires are those on the node's own ports plus
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
import {
  chainChildren,
  ChainedNode,
  chainOf,
  completeChains,
  idsBelow,
  ScopedEdge,
  withPorts,
} from '../scopedLoader';
import { perimeterWiresOf, readBoundaryOf } from '../store/scopedReadQueries';
import { readAt } from '../store/scopedReadFragments';
import { resolveView } from '../viewResolver';

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
  namesRest: string | null;
  children: { node: NodeRecord; ports: PortRecord[] }[] | null;
  /** The ids below the node as far as the statement walked, and its last level. */
  below: string[] | null;
  belowFrontier: string[] | null;
  edges: ScopedEdge[] | null;
}

export async function readBoundary(
  ctx: ServiceContext,
  principal: Principal,
  projectId: string,
  nodeId: string,
  version?: number,
): Promise<BoundaryRead> {
  // One statement, one round trip: access, main, the node, its children and wires.
  const [row] = await ctx.executor.read<BoundaryRow & Record<string, unknown>>(readBoundaryOf, {
    projectId,
    nodeId,
    userId: principal.userId,
    at: readAt(version),
  });
  if (!row || !projectGrant(principal, row.project, row.role)) throw new NotFoundError('project');
  if (!row.branch) throw new NotFoundError('branch');
  const view = resolveView(row.branch, version);
  if (!row.node) throw new NotFoundError('node');
  const maxDepth = ctx.config.limits.maxNestingDepth;
  const [names = []] = await completeChains(
    ctx.executor,
    view,
    [{ chain: row.names ?? [], rest: row.namesRest }],
    { byId: false, maxDepth },
  );
  const boundary: ChainedNode = { entry: withPorts(row.node, row.ports ?? []), names };
  let edges = row.edges ?? [];
  const frontier = row.belowFrontier ?? [];
  if (frontier.length > 0) {
    // descendants deeper than the statement walked: the perimeter is read again over all
    const deeper = await idsBelow(ctx.executor, view, frontier, maxDepth);
    if (deeper.length > 0) {
      const ids = [row.node.id, ...(row.below ?? []), ...deeper];
      const own = (row.ports ?? []).map((p) => p.id);
      const [again] = await ctx.executor.read<{ edges: ScopedEdge[] }>(perimeterWiresOf, {
        view,
        ids,
        own,
      });
      edges = again?.edges ?? [];
    }
  }
  const children = chainChildren(boundary, row.children ?? []);
  return {
    branch: row.branch,
    boundary: boundary.entry,
    children: children.map((c) => c.entry),
    edges,
    addresses: addressNodes([boundary, ...children].map(chainOf)),
  };
}
