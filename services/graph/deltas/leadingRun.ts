/**
 * A batch's first statement (store/addRunQueries.ts lockAndPrefetchAddRun): it takes the
 * branch's write lock, reads the caller's access row and the facts of the batch's leading
 * run of add_node/add_edge deltas (runFacts.ts), writes that run ahead of its checks and,
 * when the run is the whole batch, records the batch with the findings its plan chooses
 * on those facts (runFindingPlan.ts). The checks then decide whether the transaction
 * keeps any of it.
 */
import type { ChangeParams } from '../trail/changeRecord';
import type { QueryRunner } from '../../../shared/neo4j/namedQuery';
import type { BranchAccessRow } from '../../branches';
import type { NewRow } from '../recordWrites';
import { RunFindingPlan, runFindingPlan } from '../runFindingPlan';
import { lockAndPrefetchAddRun } from '../store/addRunQueries';
import { Addition, Delta, leadingAdditions } from './deltaTypes';
import { factsOf, RunFacts, RunFactsRow, runFactsParams } from './runFacts';
import { RunRecords, runRecords } from './runRows';

/** A branch's access row read under its write lock, with the facts of a run (lockAndReadRunFacts). */
export interface LockedRunFacts {
  /** Undefined when there is no such branch (branchGrant answers 404). */
  access: BranchAccessRow | undefined;
  /**
   * The facts through the write view of the branch's row as the lock left it; to be used
   * only once the access row is granted. Rejects when there is no such branch.
   */
  facts: Promise<RunFacts>;
  /**
   * Whether the statement wrote the run's records: the transaction must then end by
   * publishing the batch (the records carry its version) or by rolling back.
   */
  prewritten: boolean;
  /**
   * When the statement also published the batch (`write.record`): its new version and the
   * finding records it opened (as the plan built them) and closed. The caller must then
   * not record the batch again, and must roll back unless its checks pass and those
   * findings are the ones the facts give (runFindingPlan.ts sameFindingWrites).
   */
  recorded: RecordedRun | null;
}

/** What lockAndPrefetchAddRun published of a batch: its version and findings. */
export interface RecordedRun {
  version: number;
  opened: NewRow[];
  closed: string[];
}

/**
 * How a batch is recorded (store/changeQueries.ts publishBatchCypher's parameters: the
 * trail's record and touches, graph/trail/changeRecord.ts), for a statement that may
 * record it (lockWithLeadingRun).
 */
export type BatchRecord = { now: string } & ChangeParams;

/** The run a batch's first statement writes, and, when it may also record the batch, how. */
interface RunWrite {
  records: RunRecords | null;
  expectedVersion: number;
  record?: { batch: BatchRecord; plan: RunFindingPlan } | null;
}

/**
 * Takes the write lock of branch `branch.id`, reads the caller's access row and the facts
 * `run` needs through the write view of the locked row, and writes the run's records
 * (`write.records`, runRows.ts) after reading them, in one statement: a batch's first
 * statement, where the lock, the facts and the write would otherwise cost a statement
 * each. The records are written only when there are some and the branch is one the batch
 * may write at `write.expectedVersion` (see lockAndPrefetchAddRun); the facts say whether
 * they were (`prewritten`), and the batch's checks decide whether the transaction keeps
 * them. With `write.record` (the run being the whole batch), the statement may also
 * publish the batch with the findings of its plan (lockAndPrefetchAddRun): `recorded`.
 */
export async function lockAndReadRunFacts(
  tx: QueryRunner,
  branch: { id: string; userId: string },
  run: Addition[],
  maxDepth: number,
  write: RunWrite | null = null,
): Promise<LockedRunFacts> {
  const records = write?.records ?? null;
  const rows = records?.rows ?? null;
  const record = rows !== null ? (write?.record ?? null) : null;
  const row = await tx.one<RunFactsRow & BranchAccessRow & Record<string, unknown>>(
    lockAndPrefetchAddRun,
    {
      ...runFactsParams(run),
      id: branch.id,
      userId: branch.userId,
      write: rows !== null,
      nodes: rows?.nodes ?? [],
      ports: rows?.ports ?? [],
      edges: rows?.edges ?? [],
      expectedVersion: write?.expectedVersion ?? -1,
      ...(record?.batch ?? NO_RECORD),
      record: record && {
        opened: record.plan.opened,
        closed: record.plan.closed,
        ends: record.plan.ends,
        nodes: rows?.nodes.length ?? 0,
        edges: rows?.edges.length ?? 0,
      },
    },
  );
  const facts = row
    ? factsOf(tx, row, maxDepth).then((f): RunFacts => (records ? { ...f, records } : f))
    : Promise.reject(new Error('lockAndPrefetchAddRun answered no row'));
  // awaited by the applier; a batch refused before that must not leave a rejection unhandled
  facts.catch(() => undefined);
  return {
    access: row && { branch: row.branch, project: row.project, role: row.role },
    facts,
    prewritten: row?.prewritten === true,
    recorded: row?.recorded && record ? recordedOf(row.recorded, record.plan) : null,
  };
}

/** The parameters of the record when the statement is not to publish the batch. */
const NO_RECORD: BatchRecord = { now: '', change: {}, touches: [] };

/** The statement's answer on what it published, with the finding records as `plan` built them. */
function recordedOf(
  answer: NonNullable<RunFactsRow['recorded']>,
  plan: RunFindingPlan,
): RecordedRun {
  const planned = new Map(plan.opened.map((o) => [o.row.id, o.row]));
  return {
    version: answer.version,
    opened: answer.opened.map((id) => {
      const row = planned.get(id);
      if (!row)
        throw new Error(`the batch's statement opened finding ${id}, which it had no plan for`);
      return row;
    }),
    closed: answer.closed,
  };
}

/**
 * Takes the write lock of branch `branch.id` and reads the caller's access row together
 * with what the leading run of add_node/add_edge deltas of `deltas` needs, and writes
 * that run ahead of its checks when the branch is at `expectedVersion` (runRows.ts), in
 * one statement (lockAndReadRunFacts). Undefined when the batch does not start with an
 * addition: the caller takes the lock alone. Give the facts, once the access row is
 * granted, to the BatchApplier that applies the same deltas; a batch refused after this
 * must roll its transaction back. With `record`, a batch that is one run of additions
 * whose findings plan (runFindingPlan.ts) is recorded by the same statement when the
 * facts bear the plan out (`recorded`).
 */
export function lockWithLeadingRun(
  tx: QueryRunner,
  branch: { id: string; userId: string },
  deltas: readonly Delta[],
  maxDepth: number,
  expectedVersion: number,
  record: BatchRecord | null = null,
): Promise<LockedRunFacts> | undefined {
  const lead = leadingAdditions(deltas);
  if (lead.length === 0) return undefined;
  const records = runRecords(lead);
  // the statement records the batch only when the run is all of it and its findings plan
  const plan =
    records && record && lead.length === deltas.length ? runFindingPlan(records.shape) : null;
  return lockAndReadRunFacts(tx, branch, lead, maxDepth, {
    records,
    expectedVersion,
    record: plan && record && { batch: record, plan },
  });
}
