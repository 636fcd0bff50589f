/**
 * The structural invariants a batch keeps, each defined once (INVARIANTS: the error code
 * a delta that breaks it earns, what it checks, and which ways of applying deltas ask
 * it), with the rule itself, a pure function over the facts, that both ways call: a run
 * of additions, checked in memory against its facts (addRunChecker.ts), and any other
 * delta, checked against reads (batchApplier.ts, structureReads.ts, wiresOnNewPorts.ts).
 * invariants.spec.ts runs both ways' wire checks over one table of every end; and
 * test/invariantPaths.test.ts runs, for each invariant both ways ask, a case of each way
 * against the store and holds them to the same code. The kind field matrix of a node's
 * data is nodeShape.ts's (one function, checkNodeShape, for both).
 */
import { WIRE_END_CHANNELS, type NodeKind } from '../../../shared/model/nodeModel';
import { quote } from '../../../shared/text/clip';
import { edgeKindsAllowed } from './edgeRules';

export { edgeKindsAllowed };

/** The ways deltas are applied: a run of additions (addRun), any other delta (oneByOne). */
export type ApplyPath = 'addRun' | 'oneByOne';

/** Each structural invariant: its error code, what it checks, and which ways ask it. */
export const INVARIANTS: Readonly<Record<string, { checks: string; paths: readonly ApplyPath[] }>> =
  {
    id_collision: {
      checks: 'an id a delta creates (node, port, wire) is unused on the branch (firstUsedId)',
      paths: ['addRun', 'oneByOne'],
    },
    invalid_parent: {
      checks:
        'a parent exists on the branch, is not the node itself, and is of a kind that contains (parentRefusal)',
      paths: ['addRun', 'oneByOne'],
    },
    containment_cycle: {
      checks: 'a move keeps containment a tree (structureReads.ts checkReparent)',
      paths: ['oneByOne'],
    },
    depth_limit_exceeded: {
      checks: 'containment is at most limits.maxNestingDepth deep (tooDeep)',
      paths: ['addRun', 'oneByOne'],
    },
    duplicate_name: {
      checks: "siblings' non-empty names are unique (nameIsUnique, siblingNameRefusal)",
      paths: ['addRun', 'oneByOne'],
    },
    invalid_endpoint: {
      checks: 'a wire leaves an output port and enters an input port (wireRefusal)',
      paths: ['addRun', 'oneByOne'],
    },
    forbidden_edge: {
      checks:
        'a wire with a state or io node joins one behavior node and one state-or-io node (wireRefusal: edgeKindsAllowed)',
      paths: ['addRun', 'oneByOne'],
    },
    not_a_boundary: {
      checks: 'flatten_boundary names a boundary (batchApplier.ts)',
      paths: ['oneByOne'],
    },
  };

/**
 * id_collision: the first of `ids` (in the order the delta names them) that `used` says
 * the branch (or the batch so far) already uses; undefined when none is.
 */
export const firstUsedId = (ids: readonly string[], used: (id: string) => boolean) =>
  ids.find(used);

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

/** duplicate_name: whether `name` must be unique among its siblings (empty names are exempt). */
export const nameIsUnique = (name: string) => name !== '';

/** duplicate_name: the refusal of a sibling name already taken. */
export const siblingNameRefusal = (name: string) => `a sibling is already named ${quote(name)}`;

/** depth_limit_exceeded: whether containment `depth` deep (1: the top level) is past the limit. */
export const tooDeep = (depth: number, maxDepth: number) => depth > maxDepth;

/** The channel of the port at each end of a wire (invalid_endpoint): the node model's. */
export { WIRE_END_CHANNELS };

/**
 * What is at one end of a wire, as far as it is known: the port's channel and its node's
 * kind (null: not known; an end with no port, a dangling one, is not checked).
 */
export interface WireEnd {
  channel: string | null;
  kind: NodeKind | null;
}

/** Why a wire breaks a rule, the first of them in the order they are checked. */
export type WireRefusal =
  | { error: 'invalid_endpoint'; end: 'source' | 'target'; channel: string }
  | { error: 'forbidden_edge'; source: NodeKind; target: NodeKind };

/**
 * invalid_endpoint, then forbidden_edge, of a wire with ends `source` and `target`
 * (undefined: no port there yet); null when it keeps both. Asked of a wire added (the
 * add-run path) and of a wire whose port appears later (wiresOnNewPorts.ts).
 */
export function wireRefusal(
  source: WireEnd | undefined,
  target: WireEnd | undefined,
): WireRefusal | null {
  for (const [end, at] of [
    ['source', source],
    ['target', target],
  ] as const)
    if (at && at.channel !== null && at.channel !== WIRE_END_CHANNELS[end])
      return { error: 'invalid_endpoint', end, channel: at.channel };
  if (source?.kind && target?.kind && !edgeKindsAllowed(source.kind, target.kind))
    return { error: 'forbidden_edge', source: source.kind, target: target.kind };
  return null;
}
