/**
 * Top-level read (getTopLevel): the nodes of a branch that have no parent, the wires
 * among them and the wires with exactly one endpoint among them, with paths (the
 * top-level names), at the head or at `version`. A large graph is opened here and read further one boundary at a
 * time (getSubtree): the cost follows the top level, not the branch. Does not touch
 * last_opened_at.
 */
import type { Principal } from '../../../shared/http/principal';
import type { ServiceContext } from '../../../shared/http/serviceContext';
import { BranchAccessRow, branchGrant } from '../../branches';
import type { BranchRecord } from '../../branches';
import type { NodeRecord, NodeWithPorts, PortRecord } from '../graphRecords';
import { addressNodes, NodeAddresses } from '../paths';
import { ScopedEdge, withPorts } from '../scopedLoader';
import { readTopLevelOf } from '../store/scopedReadQueries';
import { readAt } from '../store/scopedReadFragments';
import { requireReadable } from '../viewResolver';

export interface TopLevelRead {
  branch: BranchRecord;
  /** The nodes without a parent, ordered by id. */
  nodes: NodeWithPorts[];
  /** Wires whose two endpoint nodes are top-level nodes. */
  edges: ScopedEdge[];
  /** Wires with exactly one endpoint node at the top level (the other inside, null or dangling). */
  crossBoundaryEdges: ScopedEdge[];
  addresses: NodeAddresses;
}

interface TopLevelRow extends BranchAccessRow {
  top: { node: NodeRecord; ports: PortRecord[] }[] | null;
  edges: ScopedEdge[] | null;
}

export async function readTopLevel(
  ctx: ServiceContext,
  principal: Principal,
  branchId: string,
  version?: number,
): Promise<TopLevelRead> {
  const [row] = await ctx.executor.read<TopLevelRow & Record<string, unknown>>(readTopLevelOf, {
    branchId,
    userId: principal.userId,
    at: readAt(version),
  });
  const { branch } = branchGrant(principal, row);
  // the statement read through the view of `version`; one the line never had, or no
  // longer keeps, is a 404
  requireReadable(branch, version);
  const top = row.top ?? [];
  const wires = row.edges ?? [];
  return {
    branch,
    nodes: top.map((t) => withPorts(t.node, t.ports)),
    edges: wires.filter((e) => e.inside === 2),
    crossBoundaryEdges: wires.filter((e) => e.inside === 1),
    addresses: addressNodes(top.map((t) => ({ id: t.node.id, names: [t.node.name] }))),
  };
}
