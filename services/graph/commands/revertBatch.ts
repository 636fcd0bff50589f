/**
 * POST /v1/branches/{id}/revert (revertBranch): applies, as one new batch, the inverse of
 * the batch that produced version K of a working branch. The same rules as a delta batch
 * (applyDeltas): graph:write, the editor role, a visible branch (a working branch is its
 * owner's), main refused, the branch's write lock taken before expected_version is
 * compared, an Idempotency-Key recorded with the batch and checked under the lock.
 *
 * The entities batch K wrote are its records on the branch's line. If a later batch
 * wrote one of them, or the inverse would break what a later batch built (a child of a
 * node K added, a wire on a port K added, a parent or sibling name K's deletion freed),
 * the answer is 409 revert_conflict naming them, and nothing is written. Otherwise each
 * entity gets its state at K - 1 back (read through the branch's view at K - 1) at the
 * write view: the earlier state where it existed then, removed where it did not. Node
 * positions are not history: a node that stays keeps where it is now. The change trail
 * records the batch with kind `revert`, the reverted version, and the inverse as deltas
 * (revertPlan.ts), so a merge that replays the branch's batches replays it too.
 */
import { RequestValidationError, VersionNotFoundError } from '../../../shared/errors/domainErrors';
import type { Principal } from '../../../shared/http/principal';
import type { ServiceContext } from '../../../shared/http/serviceContext';
import { nowTimestamp } from '../../../shared/http/timestamps';
import {
  requireProjectActive,
  requireVersion,
  requireBranchOwner,
  requireWritable,
  visibleBranch,
} from '../../branches';
import { requireRole, requireScope } from '../../identity';
import { grown, requireWithinQuota, usageOf } from '../branchUsage';
import {
  inverseText,
  readWritten,
  requireNothingBroken,
  usageChange,
  writeBack,
} from '../revertSteps';
import { refreshFindings } from '../findingRecords';
import { recordRevert } from '../store/revertQueries';
import { ChangeEntry, changeParams, requireRecordable } from '../trail/changeRecord';
import { touchesOf } from '../trail/touches';
import { branchView, writeViewOf } from '../view';
import { IdempotencyClaim, recordedChange } from '../recordedChange';
import { recordBatchEvent } from './applyDeltas';

export interface RevertResult {
  replayed: boolean;
  revertedVersion: number;
  branch: { id: string; version: number; project_id: string };
}

/** The body: {version: K >= 1, expected_version: V >= 0}. */
export function parseRevertBody(body: unknown): { version: number; expected: number } {
  const fields = (body ?? {}) as Record<string, unknown>;
  const issue = (name: string, min: number) => {
    const value = fields[name];
    if (value === undefined)
      return { loc: ['body', name], msg: 'Field required', type: 'missing', input: body };
    if (typeof value !== 'number' || !Number.isInteger(value))
      return {
        loc: ['body', name],
        msg: 'Input should be a valid integer',
        type: 'int_type',
        input: value,
      };
    if (value < min)
      return {
        loc: ['body', name],
        msg: `Input should be greater than or equal to ${min}`,
        type: 'greater_than_equal',
        input: value,
      };
    return null;
  };
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new RequestValidationError([
      { loc: ['body'], msg: 'Input should be a valid dictionary', type: 'dict_type', input: body },
    ]);
  }
  const issues = [issue('version', 1), issue('expected_version', 0)].filter((i) => i !== null);
  if (issues.length > 0) throw new RequestValidationError(issues);
  return { version: fields.version as number, expected: fields.expected_version as number };
}

export async function revertBatch(
  ctx: ServiceContext,
  principal: Principal,
  branchId: string,
  body: unknown,
  idempotency: IdempotencyClaim | null = null,
): Promise<RevertResult> {
  return ctx.executor.writeTx(async (tx) => {
    const { branch, ...grant } = await visibleBranch(tx, principal, branchId, { lock: true });
    requireBranchOwner(principal, branch);
    requireScope(principal, 'graph:write');
    requireRole(grant, 'editor');
    const ref = { id: branch.id, project_id: branch.project_id };
    if (idempotency !== null) {
      const done = await recordedChange(
        ctx,
        tx,
        { branchId, userId: principal.userId, kind: 'revert' },
        idempotency,
      );
      if (done) {
        return {
          replayed: true,
          revertedVersion: done.revertedVersion ?? 0,
          branch: { ...ref, version: done.version },
        };
      }
    }
    const { version: k, expected } = parseRevertBody(body);
    requireWritable(branch);
    requireProjectActive(grant);
    requireVersion(branch, expected);
    const floor = (branch as { history_floor?: number | null }).history_floor ?? 0;
    if (k > branch.version || k - 1 < floor)
      throw new VersionNotFoundError(k, Math.min(floor + 1, branch.version), branch.version);

    const mainId = (branch as { main_id?: string }).main_id ?? branch.id;
    const before = branchView(branch, mainId, k - 1);
    const after = branchView(branch, mainId, k);
    const write = writeViewOf(branchView(branch, mainId, branch.version));
    const written = await readWritten(tx, branch.id, k, before, after);
    const recorded = await inverseText(tx, before, after, written);
    requireRecordable('revert', recorded.bytes, ctx.config.limits.maxBatchBytes);
    const done = await writeBack(tx, write, written);
    await requireNothingBroken(tx, write, k, written, done);
    await refreshFindings(tx, write);

    const usageBefore = await usageOf(tx, branch);
    const usageAfter = grown(usageBefore, usageChange(written), recorded.bytes);
    requireWithinQuota(ctx.config.quotas, usageBefore, usageAfter);
    const now = nowTimestamp();
    const entry: ChangeEntry = {
      kind: 'revert',
      actorId: principal.userId,
      now,
      deltas: recorded,
      revertedVersion: k,
      idempotency: idempotency && { ...idempotency, scope: principal.userId },
    };
    const row = await tx.one<{ version: number }>(recordRevert, {
      branchId,
      now,
      ...usageAfter,
      ...changeParams(entry, touchesOf(recorded.deltas)),
    });
    const reverted = { ...ref, version: row?.version ?? branch.version + 1 };
    // a revert is a batch of the branch: its event commits with it
    await recordBatchEvent(tx, principal, branch, reverted.version);
    return { replayed: false, revertedVersion: k, branch: reverted };
  });
}
