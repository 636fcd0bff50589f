/**
 * The three-way view a replay merge is judged on: the common base
 * (main at the branch's base_main_version), main now, and the branch now, with
 * each side's changes against the base. The conflict rules (entityConflicts.ts,
 * structureConflicts.ts) read it; replay errors are added to the same list.
 */
import type { BranchWrites } from '../branchHistory';
import { Snapshot, SnapshotIndex } from '../graphSnapshot';
import { ConflictList, MergeConflict } from './conflictList';
import { deletionConflicts, fieldConflicts, portListConflicts } from './entityConflicts';
import { MergeSide } from './mergeSide';
import type { MergeView } from './mergeView';
import { containmentConflicts, nameCollisions, wiringConflicts } from './structureConflicts';

export class MergeAnalysis implements MergeView {
  readonly baseIndex: SnapshotIndex;
  readonly main: MergeSide;
  readonly branch: MergeSide;
  readonly conflicts: ConflictList;

  constructor(
    readonly base: Snapshot,
    mainNow: Snapshot,
    branchNow: Snapshot,
    readonly writes: BranchWrites,
  ) {
    this.baseIndex = new SnapshotIndex(base);
    this.main = new MergeSide('main', base, mainNow);
    this.branch = new MergeSide('branch', base, branchNow, writes);
    this.conflicts = new ConflictList([mainNow, branchNow, base], writes);
  }

  /** Every conflict between what the branch changed and what main changed since the base. */
  detect(): MergeConflict[] {
    const mainMoved = ['node', 'port', 'edge'].some(
      (k) => this.main.changes[k as 'node' | 'port' | 'edge'].size > 0,
    );
    if (mainMoved) {
      fieldConflicts(this);
      portListConflicts(this);
      deletionConflicts(this);
      wiringConflicts(this);
      nameCollisions(this);
      containmentConflicts(this);
    }
    return this.conflicts.list();
  }
}
