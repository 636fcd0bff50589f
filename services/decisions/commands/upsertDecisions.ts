/**
 * Ingestion write (interpretations "Decisions"): upserts validated decisions of
 * one project by id. Used by the `decisions` queue worker (one record per job)
 * and by `graphctl decisions import` (a whole file). Decisions never enter
 * through the public API.
 *
 * Refused, with typed errors the callers report: a project that does not exist
 * or is deleted (not_found), and decision ids that already belong to another
 * project (decision_project_mismatch, detail `ids`).
 */
import { ConflictError, NotFoundError } from '../../../shared/errors/domainErrors';
import { nowTimestamp } from '../../../shared/http/timestamps';
import type { Executor } from '../../../shared/neo4j/executor';
import type { QueryRunner } from '../../../shared/neo4j/namedQuery';
import type { DecisionRecord } from '../decisionRecord';
import {
  findForeignDecisionIds,
  lockLiveProject,
  upsertDecisions as upsertQuery,
} from '../store/decisionQueries';

/** Records per write transaction. */
export const UPSERT_CHUNK = 500;

export class DecisionProjectMismatchError extends ConflictError {
  constructor(readonly ids: string[]) {
    super(
      'decision_project_mismatch',
      `decision ids already belong to another project: ${ids.join(', ')}`,
      { ids },
    );
  }
}

async function requireOwnIds(tx: QueryRunner, projectId: string, ids: string[]): Promise<void> {
  const foreign = await tx.run<{ id: string }>(findForeignDecisionIds, { projectId, ids });
  if (foreign.length > 0) throw new DecisionProjectMismatchError(foreign.map((r) => r.id));
}

/** Returns the number of records written. All records must carry `projectId`. */
export async function upsertDecisions(
  executor: Executor,
  projectId: string,
  records: DecisionRecord[],
): Promise<number> {
  if (records.some((r) => r.project_id !== projectId)) {
    throw new Error('upsertDecisions: every record must belong to the given project');
  }
  // Check every id before writing any, so a conflicting file writes nothing.
  await executor.readTx((tx) =>
    requireOwnIds(
      tx,
      projectId,
      records.map((r) => r.id),
    ),
  );
  const chunks: DecisionRecord[][] = [];
  for (let start = 0; start < records.length; start += UPSERT_CHUNK) {
    chunks.push(records.slice(start, start + UPSERT_CHUNK));
  }
  if (chunks.length === 0) chunks.push([]); // an empty import still needs a live project
  let written = 0;
  for (const chunk of chunks) {
    written += await executor.writeTx(async (tx) => {
      const live = await tx.one(lockLiveProject, { projectId });
      if (!live) throw new NotFoundError(`project ${projectId}`);
      await requireOwnIds(
        tx,
        projectId,
        chunk.map((r) => r.id),
      );
      const row = await tx.one<{ upserted: number }>(upsertQuery, {
        records: chunk,
        now: nowTimestamp(),
      });
      return row?.upserted ?? 0;
    });
  }
  return written;
}
