/**
 * GET /v1/branches/{id}/merge-preview (getMergePreview): the merge run in a transaction that is
 * always rolled back, so the preview reports what the merge would do now: mode, the same conflicts,
 * counts of what changes on main, and the coherence findings the merge adds to main and clears from
 * it (compared by code and locator). With conflicts, counts are zero and the finding lists empty.
 * No scope; the branch must be visible (its owner), active and not main. `canMerge` also weighs
 * what the merge itself checks before it looks at the graph: an archived project (409
 * project_archived), a key without graph:write or a role below editor (403). The transaction is
 * bounded by NEO4J_TX_TIMEOUT_MS and retried on transient failures.
 *
 * Locks: a caller who could merge (`canMerge` but for conflicts and quota) takes main's lock
 * and then the branch's, as the merge does, and a merge above the staging bound is previewed
 * as it runs: staged in chunks under main's lease (stagedMerge.ts), read, then always
 * removed. A caller who could not (the owner's key without graph:write, an owner who is now
 * a viewer, an archived project) must not make merges into main wait: its preview takes
 * neither lock, reads main and the branch as they are, and locks only main's records the
 * merge rewrites, for as long as its transaction runs; a preview that would be staged
 * (main's lease stops every other merge) is refused it with the error the merge would give
 * it (403 insufficient_scope or forbidden, 409 project_archived).
 */
import type { Principal } from '../../../shared/http/principal';
import type { ServiceContext } from '../../../shared/http/serviceContext';
import type { QueryRunner } from '../../../shared/neo4j/namedQuery';
import {
  couldWrite,
  loadMainBranch,
  requireBranchChangeable,
  requireWritable,
  visibleBranch,
} from '../../branches';
import type { BranchGrant, BranchRecord } from '../../branches';
import type { ProjectGrant } from '../../identity';
import { capFindings, computeFindings, Finding, findingChangesOf, mainView } from '../../graph';
import type { MergeConflict } from '../conflicts/conflictList';
import { MergeMode, MergeOutcome, runMerge, writtenChange } from '../mergeEngine';
import {
  abortStaging,
  exceedsStageLimit,
  openStaging,
  requireNoStaging,
  writeStaged,
} from '../stagedMerge';
import type { MergeOptions } from './mergeBranch';
import { mainUsageAfter, usageChangeOf } from '../mainUsage';
import { measureWritten, WrittenMeasure } from '../writtenMeasure';
import { countsOf, diffSnapshots, SnapshotDiff } from '../snapshotDiff';
import { MergeGate, OPEN_GATE, RuleCheck } from '../mergeGate';

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
  /** Each protection rule of main, as the merge now would meet it. */
  rules: RuleCheck[];
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

interface Locked {
  main: BranchRecord;
  branch: BranchRecord;
  /** Whether the merge itself would be allowed to run (archive, scope, role). */
  allowed: boolean;
  /** The project and the caller's role on it, as the checks read them. */
  grant: ProjectGrant;
}

/**
 * For a caller who could merge: main's lock, then the branch's (a merge's order: the two
 * never deadlock), and checks. For any other caller: main and the branch, unlocked.
 */
async function lockForPreview(
  tx: QueryRunner,
  principal: Principal,
  branchId: string,
): Promise<Locked> {
  const { branch: seen, ...seenGrant } = await visibleBranch(tx, principal, branchId);
  requireWritable(seen);
  if (!mayMerge(principal, { ...seenGrant, branch: seen })) {
    const main = await loadMainBranch(tx, seen.project_id);
    requireNoStaging(main);
    return { main, branch: seen, allowed: false, grant: seenGrant };
  }
  const main = await loadMainBranch(tx, seen.project_id, { lock: true });
  // a staged merge is writing main's next version: the preview would meet its records
  requireNoStaging(main);
  const { branch, ...grant } = await visibleBranch(tx, principal, branchId, { lock: true });
  requireWritable(branch);
  return { main, branch, allowed: mayMerge(principal, { ...grant, branch }), grant };
}

/** What the merge itself checks of its caller before it looks at the graph. */
function mayMerge(principal: Principal, grant: BranchGrant): boolean {
  return couldWrite(principal, grant);
}

/** The merge's own refusal of a caller who may not merge (mergeBranch's checks, in its order). */
function refuseAsMerge(principal: Principal, grant: ProjectGrant, branch: BranchRecord): void {
  requireBranchChangeable(principal, grant, branch);
}

/** The preview of a merge written at main's write view (in the transaction `tx` reads). */
async function summarize(
  ctx: ServiceContext,
  gate: MergeGate,
  tx: QueryRunner,
  locked: Locked,
  outcome: Pick<MergeOutcome, 'mode' | 'conflicts' | 'view'>,
  measured?: WrittenMeasure,
): Promise<MergePreview> {
  const { main, branch, allowed } = locked;
  const { mode, conflicts } = outcome;
  const refused = conflicts.length > 0;
  const change = refused
    ? null
    : (measured ??
      (await (async () => {
        const written = await writtenChange(tx, mainView(main.id, main.version), outcome.view);
        return {
          usage: usageChangeOf(written),
          counts: countsOf(diffSnapshots(written.before, written.after)),
        };
      })()));
  const withinQuota =
    change !== null && (await mainUsageAfter(ctx, tx, main, change.usage)).problem === null;
  const rules = await gate.rulesOf(tx, { main, branch, merged: refused ? null : outcome.view });
  const rulesMet = rules.every((r) => r.met);
  const canMerge = allowed && withinQuota && !refused && rulesMet;
  const result = { branch, main, mode, conflicts, canMerge, rules };
  if (change === null) {
    return {
      ...result,
      counts: countsOf(NOTHING),
      findingsAdded: [],
      findingsCleared: [],
      findingsTruncated: false,
    };
  }
  const findings = await findingChanges(ctx, tx, locked.main, outcome.view);
  return {
    ...result,
    counts: change.counts,
    findingsAdded: findings.added,
    findingsCleared: findings.cleared,
    findingsTruncated: findings.truncated,
  };
}

/**
 * The findings the merge written at `write` adds to main and clears from it: the kept
 * findings it changed, or (a store that does not keep them, or a merge that changes
 * whether orphan_node is reported) main's whole lists before and after, compared. Main
 * before the merge is main at its version: the merge's records are at the next one.
 */
async function findingChanges(
  ctx: ServiceContext,
  tx: QueryRunner,
  main: BranchRecord,
  write: MergeOutcome['view'],
): Promise<{ added: Finding[]; cleared: Finding[]; truncated: boolean }> {
  const max = ctx.config.limits.maxFindings;
  const before = mainView(main.id, main.version);
  const kept = await findingChangesOf(tx, before, write, max);
  if (kept !== null) return kept;
  const [findingsBefore, findingsAfter] = [
    await computeFindings(tx, before),
    await computeFindings(tx, write),
  ];
  const added = capFindings(minus(findingsAfter, findingsBefore), max);
  const cleared = capFindings(minus(findingsBefore, findingsAfter), max);
  return {
    added: added.findings,
    cleared: cleared.findings,
    truncated: added.truncated || cleared.truncated,
  };
}

/**
 * The preview a change request shows every member of its project (reviews'
 * getChangeRequest): the branch as its change request found it, read without the owner's
 * access and taking no lock, as for a caller who could not merge; `canMerge` answers for
 * the branch's owner (who alone may merge), so only the project's archive is weighed of
 * the caller's side. Null when the merge is above the staging bound: staging holds main's
 * lease, which a reader must never take.
 */
export async function previewForReview(
  ctx: ServiceContext,
  gate: MergeGate,
  branch: BranchRecord,
  grant: ProjectGrant,
): Promise<MergePreview | null> {
  const limits = { maxDepth: ctx.config.limits.maxNestingDepth };
  return ctx.executor.rolledBackTx(async (tx) => {
    requireWritable(branch);
    const main = await loadMainBranch(tx, branch.project_id);
    requireNoStaging(main);
    if (await exceedsStageLimit(tx, branch.id, ctx.config.staging.records)) return null;
    const locked = { main, branch, allowed: !grant.project.archived, grant };
    const outcome = await runMerge(tx, main, branch, limits);
    return summarize(ctx, gate, tx, locked, outcome);
  });
}

export async function previewMerge(
  ctx: ServiceContext,
  principal: Principal,
  branchId: string,
  options: MergeOptions = {},
): Promise<MergePreview> {
  const limits = { maxDepth: ctx.config.limits.maxNestingDepth };
  const stageRecords = options.stageRecords ?? ctx.config.staging.records;
  const gate = options.gate ?? OPEN_GATE;
  const small = await ctx.executor.rolledBackTx(async (tx) => {
    const locked = await lockForPreview(tx, principal, branchId);
    if (await exceedsStageLimit(tx, locked.branch.id, stageRecords)) {
      // staging holds main's lease: only for a caller who could merge
      if (!locked.allowed) refuseAsMerge(principal, locked.grant, locked.branch);
      return null;
    }
    const outcome = await runMerge(tx, locked.main, locked.branch, limits);
    return summarize(ctx, gate, tx, locked, outcome);
  });
  if (small !== null) return small;
  // a merge too large for one transaction is previewed as it would run: staged, then
  // always removed
  const { locked, staging } = await ctx.executor.writeTx(async (tx) => {
    const found = await lockForPreview(tx, principal, branchId);
    if (!found.allowed) refuseAsMerge(principal, found.grant, found.branch);
    return { locked: found, staging: await openStaging(tx, found.main, found.branch) };
  });
  try {
    const written = await writeStaged(ctx.executor, staging, limits, stageRecords);
    const measured =
      written.conflicts.length > 0
        ? undefined
        : await measureWritten(
            ctx.executor,
            mainView(locked.main.id, locked.main.version),
            staging.view,
          );
    return await ctx.executor.readTx((tx) =>
      summarize(ctx, gate, tx, locked, { ...written, view: staging.view }, measured),
    );
  } finally {
    await abortStaging(ctx.executor, staging, ctx.logger);
  }
}
