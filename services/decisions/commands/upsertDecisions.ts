/**
 * Ingestion write: upserts validated decisions of one project by id. Used by the `decisions` queue
 * worker (one record per job) and by `graphctl decisions import` (a whole file). Decisions never
 * enter through the public API.
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

/** Records per upsert statement (all statements of one call share one transaction). */
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

/**
 * Returns the number of records written. All records must carry `projectId`. One
 * transaction: the project is locked, every id checked, then the records are
 * written in statements of UPSERT_CHUNK; any failure writes nothing.
 */
export async function upsertDecisions(
  executor: Executor,
  projectId: string,
  records: DecisionRecord[],
): Promise<number> {
  if (records.some((r) => r.project_id !== projectId)) {
    throw new Error('upsertDecisions: every record must belong to the given project');
  }
  return executor.writeTx(async (tx) => {
    const live = await tx.one(lockLiveProject, { projectId });
    if (!live) throw new NotFoundError(`project ${projectId}`);
    await requireOwnIds(
      tx,
      projectId,
      records.map((r) => r.id),
    );
    const now = nowTimestamp();
    let written = 0;
    for (let start = 0; start < records.length; start += UPSERT_CHUNK) {
      const chunk = records.slice(start, start + UPSERT_CHUNK);
      const row = await tx.one<{ upserted: number }>(upsertQuery, { records: chunk, now });
      // short: another project's ingestion took some of these ids after the check
      // above committed; nothing moves between projects, and this call writes nothing
      if ((row?.upserted ?? 0) < new Set(chunk.map((r) => r.id)).size) {
        await requireOwnIds(
          tx,
          projectId,
          chunk.map((r) => r.id),
        );
      }
      written += row?.upserted ?? 0;
    }
    return written;
  });
}
