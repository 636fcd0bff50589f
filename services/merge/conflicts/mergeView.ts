/**
 * What the conflict rules (entityConflicts.ts, structureConflicts.ts) read of a
 * replay merge's three-way view: the common base, each side's changes against it,
 * and the list they add conflicts to. MergeAnalysis builds it and runs the rules;
 * the rules depend on this shape only, not on MergeAnalysis.
 *
 * The snapshots may be sparse (threeWaySnapshots.ts): they hold the entities changed on
 * either side and the context the rules read (ports of changed nodes, wires into the
 * target ports of changed wires, ports at wire ends, nodes of loaded ports and their
 * ancestors), the same context in all three. The rules therefore only ask about ids that
 * are loaded: changes come from diffs over the loaded ids (an id loaded in none of the
 * three is unchanged on both sides, never deleted), images are looked up for changed or
 * touched ids and for context, and a chain walk stops where the view has no parent.
 */
import type { Snapshot, SnapshotIndex } from '../graphSnapshot';
import type { ConflictList } from './conflictList';
import type { MergeSide } from './mergeSide';

export interface MergeView {
  readonly base: Snapshot;
  readonly baseIndex: SnapshotIndex;
  readonly main: MergeSide;
  readonly branch: MergeSide;
  readonly conflicts: ConflictList;
}
