/**
 * What the conflict rules (entityConflicts.ts, structureConflicts.ts) read of a
 * replay merge's three-way view: the common base, each side's changes against it,
 * and the list they add conflicts to. MergeAnalysis builds it and runs the rules;
 * the rules depend on this shape only, not on MergeAnalysis.
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
