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
import { RunFindingPlan, runFindingPlan } from '../runFindingPlan';
import { lockAndPrefetchAddRun } from '../store/addRunQueries';
import { Addition, Delta, leadingAdditions } from './deltaTypes';
import { factsOf, RunFacts, RunFactsRow, runFactsAsked } from './runFacts';
import { RunRecords, runRecords } from './runRows';

/** A branch's access row read under its write lock, with the facts of a run (lockAndReadRunFacts). */
export interface LockedRunFacts {
  /** Undefined when there is no such branch (branchGrant answers 404). */
  access: BranchAccessRow | undefined;
  /**
   * The facts through the write view of the branch's row as the lock left it; to be used
   * only once the access row is granted. Undefined when there is no such branch.
   */
  facts: RunFacts | undefined;
  /**
   * Whether the statement wrote the run's records: the transaction must then end by
   * publishing the batch (the records carry its version) or by rolling back.
   */
  prewritten: boolean;
  /**
   * When the statement also published the batch (`write.record`): its new version. The
   * caller must then not record the batch again, and must roll back unless its checks
   * pass. The findings it wrote are the plan's choices on the facts it read
   * (runFindingPlan.ts); that they are the findings the facts give is held by
   * runFindingPlan.spec.ts and test/recordAhead.test.ts, not checked at run time.
   */
  recorded: RecordedRun | null;
}

/** What lockAndPrefetchAddRun published of a batch: its version. */
export interface RecordedRun {
  version: number;
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
      asked: runFactsAsked(run),
      id: branch.id,
      userId: branch.userId,
      write: rows !== null,
      nodes: rows?.nodes ?? [],
      ports: rows?.ports ?? [],
      edges: rows?.edges ?? [],
      expectedVersion: write?.expectedVersion ?? -1,
      ...(record?.batch ?? NO_RECORD),
      // a map either way, `publish` saying whether there is a plan: a record that was
      // null on some calls would make Neo4j plan the statement for each (paramShapes.ts)
      record: record
        ? {
            publish: true,
            opened: record.plan.opened,
            closed: record.plan.closed,
            ends: record.plan.ends,
            nodes: rows?.nodes.length ?? 0,
            edges: rows?.edges.length ?? 0,
          }
        : NO_PLAN,
    },
  );
  if (!row) return { access: undefined, facts: undefined, prewritten: false, recorded: null };
  const facts = await factsOf(tx, row, maxDepth);
  return {
    access: { branch: row.branch, project: row.project, role: row.role },
    facts: records ? { ...facts, records } : facts,
    prewritten: row.prewritten === true,
    recorded: row.recorded && record ? { version: row.recorded.version } : null,
  };
}

/** The parameters of the record when the statement is not to publish the batch. */
const NO_RECORD: BatchRecord = { now: '', change: {}, touches: [] };

/** `$record` when the statement is not to publish the batch. */
const NO_PLAN = { publish: false, opened: [], closed: [], ends: [], nodes: 0, edges: 0 };

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
