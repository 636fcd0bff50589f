/**
 * The stages of a rebase that look at the graph (rebaseBranch.ts stages 5 to 8, shared by
 * the rebase and its dry run) and the findings it opens and clears: analyse the branch's
 * changes against main's since its base (the merge's analysis), match the resolutions,
 * build the rebased graph, and write it at the branch's next version over main's version
 * through the BatchApplier, under every invariant of a batch.
 */
import { ConflictError } from '../../../shared/errors/domainErrors';
import type { ServiceContext } from '../../../shared/http/serviceContext';
import type { QueryRunner } from '../../../shared/neo4j/namedQuery';
import type { BranchRecord } from '../../branches';
import {
  BatchApplier,
  branchView,
  findingsOf,
  parseDeltaBatch,
  recordedText,
  refreshFindings,
  requireRecordable,
  writePositions,
  writeViewOf,
} from '../../graph';
import type { Delta, Finding, View } from '../../graph';
import type { MergeConflict } from '../conflicts/conflictList';
import { planReplay } from '../mergeEngine';
import { countsOf, diffSnapshots } from '../snapshotDiff';
import { deltasBetween } from './graphDeltas';
import { rebasedGraph } from './rebasedGraph';
import { matchResolutions, Resolution } from './resolutions';

function conflictsLeft(conflicts: MergeConflict[]): ConflictError {
  const n = conflicts.length;
  return new ConflictError(
    'merge_conflict',
    `the rebase conflicts with main in ${n} place${n === 1 ? '' : 's'} left unresolved; nothing was changed`,
    { conflicts },
  );
}

/** Parsed deltas of a wire-shaped list (the rebase built them; they parse as any batch's). */
function parsedDeltas(deltas: unknown[]): Delta[] {
  return parseDeltaBatch({ deltas }, { maxDeltas: Number.MAX_SAFE_INTEGER, requireVersion: false })
    .deltas;
}

export interface Rebuilt {
  branch: BranchRecord;
  main: BranchRecord;
  write: View;
  applied: Delta[];
  recorded: { text: string; bytes: number };
  counts: ReturnType<typeof countsOf>;
  usageChange: { nodes: number; edges: number };
}

/** Stages 5 to 8: analyse, resolve, rebuild, write (at the branch's next version). */
export async function rebuild(
  ctx: ServiceContext,
  tx: QueryRunner,
  branch: BranchRecord,
  main: BranchRecord,
  resolutions: Resolution[],
): Promise<Rebuilt> {
  const plan = await planReplay(tx, main, branch);
  const conflicts = plan.analysis.detect();
  const { chosen, left } = matchResolutions(conflicts, resolutions);
  if (left.length > 0) throw conflictsLeft(left);
  const { start, target } = rebasedGraph(plan.analysis, plan.onLine, chosen);
  const applied = parsedDeltas(deltasBetween(start, target));
  const text = recordedText(parsedDeltas(deltasBetween(plan.snaps.main, target)));
  const recorded = { text, bytes: Buffer.byteLength(text) };
  requireRecordable('rebase', recorded.bytes, ctx.config.limits.maxBatchBytes);
  const write = writeViewOf({ ...branchView(branch, main.id, branch.version), base: main.version });
  await new BatchApplier(tx, write, { maxDepth: ctx.config.limits.maxNestingDepth }).applyAll(
    applied,
  );
  // nodes main added keep main's positions on the branch
  const placed = [...target.node.keys()]
    .filter((id) => !start.node.has(id))
    .map((id) => ({ id, ...(plan.snaps.main.positions.get(id) ?? { x: 0, y: 0 }) }));
  await writePositions(tx, write, placed);
  await refreshFindings(tx, write);
  const before = plan.snaps.branch;
  return {
    branch,
    main,
    write,
    applied,
    recorded,
    counts: countsOf(diffSnapshots(before, target)),
    usageChange: {
      nodes: target.node.size - before.node.size,
      edges: target.edge.size - before.edge.size,
    },
  };
}

/**
 * The findings the rebase opened and cleared on the branch: its lists before and after
 * compared by (code, locator). Not the kept records it wrote alone: moving the base
 * also shows the branch main's findings since the old base. Each list is read as
 * validateDeltas reads it (kept findings, the first limits.maxFindings + 1).
 */
export async function findingChanges(
  ctx: ServiceContext,
  tx: QueryRunner,
  before: View,
  write: View,
) {
  const max = ctx.config.limits.maxFindings;
  const key = (f: Finding) => `${f.code}\u0000${f.locator}`;
  const [was, now] = [await findingsOf(tx, before, max), await findingsOf(tx, write, max)];
  const wasKeys = new Set(was.findings.map(key));
  const nowKeys = new Set(now.findings.map(key));
  return {
    added: now.findings.filter((f) => !wasKeys.has(key(f))),
    cleared: was.findings.filter((f) => !nowKeys.has(key(f))),
    truncated: was.truncated || now.truncated,
  };
}
