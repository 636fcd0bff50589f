/**
 * Subtree read (getSubtree): a node and its descendants down to `depth` levels (1 = direct
 * children), the wires among them, the wires with exactly one endpoint among them, whether the walk
 * stopped with descendants still below, and paths, at the head or at `version`. Walks the
 * children (by parent_id) from the root one level at a time, to the depth asked for: the cost
 * follows the subtree returned, not the branch. Does not touch last_opened_at.
 */
import { NotFoundError, RequestValidationError } from '../../../shared/errors/domainErrors';
import type { Principal } from '../../../shared/http/principal';
import type { ServiceContext } from '../../../shared/http/serviceContext';
import { BranchAccessRow, branchGrant } from '../../branches';
import type { BranchRecord } from '../../branches';
import type { NodeRecord, NodeWithPorts, PortRecord } from '../graphRecords';
import { addressNodes, NodeAddresses } from '../paths';
import { completeChains, ScopedEdge, withPorts } from '../scopedLoader';
import { MAX_SUBTREE_DEPTH, MIN_SUBTREE_DEPTH, subtreeToDepth } from '../store/scopedReadQueries';
import { readAt } from '../store/scopedReadFragments';
import { resolveView } from '../viewResolver';

export const DEFAULT_SUBTREE_DEPTH = 1;

export interface SubtreeRead {
  branch: BranchRecord;
  root: NodeWithPorts;
  /** Descendants of the root down to `depth`, ordered by id. */
  nodes: NodeWithPorts[];
  /** Wires whose two endpoint nodes are both returned (root included). */
  edges: ScopedEdge[];
  /** Wires with exactly one endpoint node returned (the other outside, null or dangling). */
  crossBoundaryEdges: ScopedEdge[];
  depth: number;
  truncated: boolean;
  addresses: NodeAddresses;
}

/** The access row (BranchAccessRow) and, when the node exists, the subtree. */
interface SubtreeRow extends BranchAccessRow {
  root: NodeRecord | null;
  rootPorts: PortRecord[] | null;
  rootNames: string[] | null;
  rootNamesRest: string | null;
  descendants: { node: NodeRecord; ports: PortRecord[]; names: string[]; below: boolean }[] | null;
  edges: ScopedEdge[] | null;
}

const byId = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** depth 1..32; the gateway checks it too, this guards other callers. */
function checkDepth(depth: number): void {
  if (!Number.isInteger(depth) || depth < MIN_SUBTREE_DEPTH || depth > MAX_SUBTREE_DEPTH) {
    throw new RequestValidationError([
      {
        loc: ['query', 'depth'],
        msg: `depth must be an integer from ${MIN_SUBTREE_DEPTH} to ${MAX_SUBTREE_DEPTH}`,
        type: 'int_range',
        ctx: { ge: MIN_SUBTREE_DEPTH, le: MAX_SUBTREE_DEPTH },
        input: depth,
      },
    ]);
  }
}

/**
 * The wires with both ends inside the subtree given their nodes from the ports the read
 * returned (`portsRead`): the statement seeks the ports at a wire's ends only for a wire
 * with one end outside, so a read of a large boundary makes no second index seek per
 * wire for ends it has already read.
 */
function withInsideEnds(wires: ScopedEdge[], portsRead: PortRecord[][]): ScopedEdge[] {
  const ownerOf = new Map<string, string>();
  for (const ports of portsRead) for (const port of ports) ownerOf.set(port.id, port.node_id);
  const owner = (handle: string | null) => (handle === null ? null : (ownerOf.get(handle) ?? null));
  return wires.map((wire) =>
    wire.inside === 2
      ? { ...wire, source: owner(wire.source_handle), target: owner(wire.target_handle) }
      : wire,
  );
}

export async function readSubtree(
  ctx: ServiceContext,
  principal: Principal,
  branchId: string,
  nodeId: string,
  depth: number = DEFAULT_SUBTREE_DEPTH,
  version?: number,
): Promise<SubtreeRead> {
  checkDepth(depth);
  // One statement, one round trip: the access row, the walk and the wires together.
  const [row] = await ctx.executor.read<SubtreeRow & Record<string, unknown>>(
    subtreeToDepth(depth),
    { branchId, nodeId, userId: principal.userId, at: readAt(version) },
  );
  const { branch } = branchGrant(principal, row);
  const view = resolveView(branch, version);
  if (!row.root) throw new NotFoundError('node');
  const [rootNames = []] = await completeChains(
    ctx.executor,
    view,
    [{ chain: row.rootNames ?? [], rest: row.rootNamesRest }],
    { byId: false, maxDepth: ctx.config.limits.maxNestingDepth },
  );
  const descendants = [...(row.descendants ?? [])].sort((a, b) => byId(a.node.id, b.node.id));
  const rootPorts = row.rootPorts ?? [];
  const wires = withInsideEnds(row.edges ?? [], [rootPorts, ...descendants.map((d) => d.ports)]);
  return {
    branch,
    root: withPorts(row.root, rootPorts),
    nodes: descendants.map((d) => withPorts(d.node, d.ports)),
    edges: wires.filter((e) => e.inside === 2),
    crossBoundaryEdges: wires.filter((e) => e.inside === 1),
    depth,
    truncated: descendants.some((d) => d.below),
    addresses: addressNodes([
      { id: row.root.id, names: rootNames },
      ...descendants.map((d) => ({ id: d.node.id, names: [...rootNames, ...d.names] })),
    ]),
  };
}
