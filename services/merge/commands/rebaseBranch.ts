/**
 * rebaseBranch (POST /v1/branches/{id}/rebase): moves a working branch's base to main's
 * current version and keeps the branch's own changes on top, in one write transaction
 * under the branch's lock. Main is read at its version without its lock (records are
 * kept per version) and never written, so a rebase and a merge into main never wait
 * for each other; a merge of this same branch takes the branch's lock too, and of the
 * two the second finds the branch moved (409 version_conflict, or branch_not_active).
 *
 * Stages, in order:
 *  1. lock: the branch's write lock and the caller's access row (a dry run by a caller
 *     who could not rebase takes no lock: couldWrite);
 *  2. authorize: graph:write and the editor role (a dry run answers can_rebase instead);
 *  3. replay: under an Idempotency-Key, the rebase earlier recorded with it answers;
 *  4. admit and compare: a working branch, an active project, expected_version;
 *  5. analyse: the branch's changes against main's since its base, as a merge compares
 *     them (mergeEngine.ts planReplay: the change sets of both sides, never the graph);
 *  6. resolve: the resolutions matched to the conflicts (resolutions.ts): 422 for one
 *     that names no conflict or does not apply, 409 merge_conflict for those left;
 *  7. rebuild: the rebased graph on those ids (rebasedGraph.ts), the deltas that take
 *     the branch there and those that take main there (graphDeltas.ts);
 *  8. write: the first applied at the branch's next version over main's version through
 *     the BatchApplier, under every invariant of a batch; the findings refreshed;
 *  9. record: the quotas, then the rebase on the trail (graph's appendRebase: kind
 *     rebase, the second deltas, the main version and the resolutions; the base the
 *     branch leaves kept for reads pinned before it);
 * 10. answer: counts of what changed on the branch and the findings opened and cleared.
 */
import type { Principal } from '../../../shared/http/principal';
import type { ServiceContext } from '../../../shared/http/serviceContext';
import type { QueryRunner } from '../../../shared/neo4j/namedQuery';
import { recordRebased } from '../../feed';
import { nowTimestamp } from '../../../shared/http/timestamps';
import {
  couldWrite,
  loadMainBranch,
  requireBranchChangeable,
  requireVersion,
  requireWritable,
  visibleBranch,
} from '../../branches';
import type { BranchRecord } from '../../branches';
import {
  appendRebase,
  branchView,
  grown,
  recordedChange,
  requireWithinQuota,
  touchesOf,
  usageOf,
} from '../../graph';
import type { Finding, IdempotencyClaim } from '../../graph';
import type { Resolution } from '../rebase/resolutions';
import { findingChanges, rebuild } from '../rebase/rebuild';
import type { Rebuilt } from '../rebase/rebuild';
import type { countsOf } from '../snapshotDiff';

export interface RebaseRequest {
  expected_version: number;
  resolutions?: Resolution[];
  dry_run?: boolean;
}

export interface RebaseResult {
  replayed: boolean;
  rebased: boolean;
  dryRun: boolean;
  canRebase: boolean;
  branch: BranchRecord;
  main: { id: string; version: number };
  previousBase: number;
  resolutions: Resolution[];
  counts: ReturnType<typeof countsOf>;
  findingsAdded: Finding[];
  findingsCleared: Finding[];
  findingsTruncated: boolean;
}

const NO_COUNTS = {
  nodes: { added: 0, changed: 0, removed: 0 },
  ports: { added: 0, changed: 0, removed: 0 },
  edges: { added: 0, changed: 0, removed: 0 },
};

async function answer(
  ctx: ServiceContext,
  tx: QueryRunner,
  done: Rebuilt,
  branch: BranchRecord,
  flags: { rebased: boolean; dryRun: boolean; canRebase: boolean },
  resolutions: Resolution[],
): Promise<RebaseResult> {
  const before = branchView(done.branch, done.main.id, done.branch.version);
  const findings = await findingChanges(ctx, tx, before, done.write);
  return {
    replayed: false,
    ...flags,
    branch,
    main: { id: done.main.id, version: done.main.version },
    previousBase: done.branch.base_main_version,
    resolutions,
    counts: done.counts,
    findingsAdded: findings.added,
    findingsCleared: findings.cleared,
    findingsTruncated: findings.truncated,
  };
}

/** A branch already on main's version, nothing to resolve: nothing to do. */
function unchanged(
  branch: BranchRecord,
  main: BranchRecord,
  flags: { dryRun: boolean; canRebase: boolean },
): RebaseResult {
  return {
    replayed: false,
    rebased: false,
    ...flags,
    branch,
    main: { id: main.id, version: main.version },
    previousBase: branch.base_main_version,
    resolutions: [],
    counts: NO_COUNTS,
    findingsAdded: [],
    findingsCleared: [],
    findingsTruncated: false,
  };
}

export async function rebaseBranch(
  ctx: ServiceContext,
  principal: Principal,
  branchId: string,
  body: RebaseRequest,
  idempotency: IdempotencyClaim | null = null,
): Promise<RebaseResult> {
  const resolutions = body.resolutions ?? [];
  if (body.dry_run === true)
    return dryRunRebase(ctx, principal, branchId, body.expected_version, resolutions);
  return ctx.executor.writeTx(async (tx) => {
    // 1-2. lock, authorize; 4. admit (every check of a change to a working branch)
    const { branch, ...grant } = await visibleBranch(tx, principal, branchId, { lock: true });
    requireBranchChangeable(principal, grant, branch);
    // 3. replay
    if (idempotency !== null) {
      const done = await recordedChange(
        ctx,
        tx,
        { branchId, userId: principal.userId, kind: 'rebase' },
        idempotency,
      );
      if (done) {
        const main = await loadMainBranch(tx, branch.project_id);
        return {
          ...unchanged(
            branch,
            { ...main, version: branch.base_main_version },
            { dryRun: false, canRebase: true },
          ),
          replayed: true,
          rebased: true,
        };
      }
    }
    // 4. compare
    requireVersion(branch, body.expected_version);
    const main = await loadMainBranch(tx, branch.project_id);
    if (main.version === branch.base_main_version && resolutions.length === 0)
      return unchanged(branch, main, { dryRun: false, canRebase: true });
    // 5-8. analyse, resolve, rebuild, write
    const done = await rebuild(ctx, tx, branch, main, resolutions);
    // 9. record
    const usageBefore = await usageOf(tx, branch);
    const usageAfter = grown(usageBefore, done.usageChange, done.recorded.bytes);
    requireWithinQuota(ctx.config.quotas, usageBefore, usageAfter);
    const now = nowTimestamp();
    const rebased = await appendRebase<BranchRecord>(
      tx,
      branch.id,
      branch.version,
      {
        kind: 'rebase',
        actorId: principal.userId,
        now,
        deltas: done.recorded,
        idempotency: idempotency && { ...idempotency, scope: principal.userId },
        rebase: {
          base: main.version,
          previousBase: branch.base_main_version,
          resolutions: JSON.stringify(resolutions),
        },
      },
      usageAfter,
      touchesOf(done.applied),
    );
    // the project's feed, in this transaction: the rebase's event commits with it
    await recordRebased(tx, { branch, actorId: principal.userId, version: rebased.version, now });
    // 10. answer
    return answer(
      ctx,
      tx,
      done,
      rebased,
      { rebased: true, dryRun: false, canRebase: true },
      resolutions,
    );
  });
}

/**
 * The rebase in a transaction that is always rolled back: the same refusals, or what it
 * would change. A caller who could rebase takes the branch's lock, as the rebase does; any
 * other caller takes none (it must never make a writer wait) and is answered can_rebase
 * false.
 */
async function dryRunRebase(
  ctx: ServiceContext,
  principal: Principal,
  branchId: string,
  expectedVersion: number,
  resolutions: Resolution[],
): Promise<RebaseResult> {
  return ctx.executor.rolledBackTx(async (tx) => {
    const seen = await visibleBranch(tx, principal, branchId);
    const canRebase = couldWrite(principal, seen);
    const { branch } = canRebase
      ? await visibleBranch(tx, principal, branchId, { lock: true })
      : seen;
    requireWritable(branch);
    requireVersion(branch, expectedVersion);
    const main = await loadMainBranch(tx, branch.project_id);
    if (main.version === branch.base_main_version && resolutions.length === 0)
      return unchanged(branch, main, { dryRun: true, canRebase });
    const done = await rebuild(ctx, tx, branch, main, resolutions);
    return answer(ctx, tx, done, branch, { rebased: false, dryRun: true, canRebase }, resolutions);
  });
}
