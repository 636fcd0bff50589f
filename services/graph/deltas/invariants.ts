/**
 * The structural invariants a batch keeps, each defined once: the error code a delta
 * that breaks it earns, what it checks, and the rule itself where both ways of applying
 * deltas ask it (a run of additions, checked in memory against its facts:
 * addRunApplier.ts; any other delta, checked against reads: batchApplier.ts,
 * structureReads.ts, wiresOnNewPorts.ts).
 *
 *   id_collision          an id a delta creates (node, port, wire) is unused on the branch
 *                         (usedIds, or the run's own ids)
 *   invalid_parent        a parent exists on the branch, is not the node itself, and is of
 *                         a kind that contains (parentRefusal)
 *   containment_cycle     a move keeps containment a tree (structureReads.checkReparent)
 *   depth_limit_exceeded  containment is at most limits.maxNestingDepth deep (tooDeep)
 *   duplicate_name        siblings' non-empty names are unique (siblingNameRefusal)
 *   invalid_endpoint      a wire leaves an output port and enters an input port
 *   forbidden_edge        a wire with a state or io node joins one behavior node and one
 *                         state-or-io node (edgeKindsAllowed, edgeRules.ts)
 *   not_a_boundary        flatten_boundary names a boundary (batchApplier.ts)
 * The kind field matrix of a node's data is nodeShape.ts's.
 */
import type { NodeKind } from '../../../shared/model/nodeModel';
import { quote } from '../../../shared/text/clip';

export { edgeKindsAllowed } from './edgeRules';

/** The kinds a node may be parented to. */
export const PARENT_KINDS: ReadonlySet<NodeKind> = new Set(['boundary', 'interface']);

/**
 * invalid_parent: why node `nodeId` may not be parented to `parentId` (null: the top
 * level, always allowed), the parent's kind being `parentKind` (undefined: no such node
 * on the branch); null when it may.
 */
export function parentRefusal(
  nodeId: string,
  parentId: string | null,
  parentKind: NodeKind | undefined,
): string | null {
  if (parentId === null) return null;
  if (parentId === nodeId) return 'a node cannot be its own parent';
  if (!parentKind) return `parent ${parentId} does not exist on this branch`;
  if (!PARENT_KINDS.has(parentKind)) return `a node may not be parented to a ${parentKind} node`;
  return null;
}

/** duplicate_name: the refusal of a sibling name already taken (empty names are exempt). */
export const siblingNameRefusal = (name: string) => `a sibling is already named ${quote(name)}`;

/** depth_limit_exceeded: whether containment `depth` deep (1: the top level) is past the limit. */
export const tooDeep = (depth: number, maxDepth: number) => depth > maxDepth;
