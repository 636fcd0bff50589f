/**
 * GET /v1/branches/{id}/merge-preview (getMergePreview): the merge run in a transaction that is
 * always rolled back, so the preview reports what the merge would do now: mode, the same conflicts,
 * counts of what changes on main, and the coherence findings the merge adds to main and clears from
 * it (compared by code and locator). With conflicts, counts are zero and the finding lists empty.
 * No scope; the branch must be visible (its owner), active and not main. `canMerge` also weighs
 * what the merge itself checks before it looks at the graph: an archived project (409
 * project_archived), a key without graph:write or a role below editor (403). It takes main's lock
 * and then the branch's, as the merge does; the transaction is bounded by NEO4J_TX_TIMEOUT_MS and
 * retried on transient failures.
 */
import { hasScope, Principal } from '../../../shared/http/principal';
import type { ServiceContext } from '../../../shared/http/serviceContext';
import { loadMainBranch, requireWritable, visibleBranch } from '../../branches';
import type { BranchRecord } from '../../branches';
import { hasRole } from '../../identity';
import { capFindings, computeFindings, Finding } from '../../graph';
import type { MergeConflict } from '../conflicts/conflictList';
import { MergeMode, runMerge } from '../mergeEngine';
import { mainUsageAfter } from '../mainUsage';
import { countsOf, diffSnapshots, SnapshotDiff } from '../snapshotDiff';

export interface MergePreview {
  branch: BranchRecord;
  main: BranchRecord;
  mode: MergeMode;
  conflicts: MergeConflict[];
  canMerge: boolean;
  counts: ReturnType<typeof countsOf>;
  findingsAdded: Finding[];
  findingsCleared: Finding[];
  /** Whether either findings list was cut to limits.maxFindings. */
  findingsTruncated: boolean;
}

const NOTHING: SnapshotDiff = {
  node: { added: [], removed: [], changed: [] },
  port: { added: [], removed: [], changed: [] },
  edge: { added: [], removed: [], changed: [] },
};

function minus(a: Finding[], b: Finding[]): Finding[] {
  const keys = new Set(b.map((f) => `${f.code}\u0000${f.locator}`));
  return a.filter((f) => !keys.has(`${f.code}\u0000${f.locator}`));
}

export async function previewMerge(
  ctx: ServiceContext,
  principal: Principal,
  branchId: string,
): Promise<MergePreview> {
  return ctx.executor.rolledBackTx(async (tx) => {
    const { branch: seen } = await visibleBranch(tx, principal, branchId);
    requireWritable(seen);
    // main's lock, then the branch's: the order a merge takes them in, so a preview
    // waits for a merge (or the merge for it) and the two never deadlock
    const main = await loadMainBranch(tx, seen.project_id, { lock: true });
    const { branch, ...grant } = await visibleBranch(tx, principal, branchId, { lock: true });
    requireWritable(branch);
    const findingsBefore = await computeFindings(tx, main.id);
    const outcome = await runMerge(tx, main, branch, {
      maxDepth: ctx.config.limits.maxNestingDepth,
    });
    const allowed =
      !grant.project.archived && hasScope(principal, 'graph:write') && hasRole(grant, 'editor');
    const withinQuota =
      outcome.after !== null &&
      (await mainUsageAfter(ctx, tx, main, outcome.after)).problem === null;
    const canMerge = allowed && withinQuota && outcome.conflicts.length === 0;
    const result = { branch, main, mode: outcome.mode, conflicts: outcome.conflicts, canMerge };
    if (outcome.after === null || outcome.conflicts.length > 0) {
      return {
        ...result,
        counts: countsOf(NOTHING),
        findingsAdded: [],
        findingsCleared: [],
        findingsTruncated: false,
      };
    }
    const findingsAfter = await computeFindings(tx, main.id);
    const max = ctx.config.limits.maxFindings;
    const added = capFindings(minus(findingsAfter, findingsBefore), max);
    const cleared = capFindings(minus(findingsBefore, findingsAfter), max);
    return {
      ...result,
      counts: countsOf(diffSnapshots(outcome.before, outcome.after)),
      findingsAdded: added.findings,
      findingsCleared: cleared.findings,
      findingsTruncated: added.truncated || cleared.truncated,
    };
  });
}
