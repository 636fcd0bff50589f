/** A full read of a project's graph records when the project was last opened (last_opened_at). */
import { nowTimestamp } from '../../../shared/http/timestamps';
import type { QueryRunner } from '../../../shared/neo4j/namedQuery';
import { touchProjectOpened as touchProjectOpenedQuery } from '../store/projectQueries';

export async function touchProjectOpened(tx: QueryRunner, projectId: string): Promise<void> {
  await tx.run(touchProjectOpenedQuery, { id: projectId, now: nowTimestamp() });
}
