/**
 * listProjectEvents (GET /v1/projects/{id}/events): a page of the project's feed after a
 * seq, for a member of the project. The page is one range seek on the feed's
 * (project_id, seq) index; the events of a working branch are shown to its owner only.
 */
import type { Principal } from '../../../shared/http/principal';
import type { ServiceContext } from '../../../shared/http/serviceContext';
import type { QueryRunner } from '../../../shared/neo4j/namedQuery';
import { visibleProject } from '../../identity';
import type { FeedEventRecord } from '../feedEvent';
import { feedPage, lastSeq } from '../store/feedQueries';

export interface FeedPage {
  events: FeedEventRecord[];
  hasMore: boolean;
  nextAfter: number;
}

/** The events after `after` that `userId` may see (null: only those for every member). */
export async function eventsAfter(
  tx: QueryRunner,
  projectId: string,
  userId: string | null,
  after: number,
  limit: number,
): Promise<FeedPage> {
  const rows = await tx.run<{ event: FeedEventRecord }>(feedPage, {
    projectId,
    userId,
    after,
    limit: limit + 1,
  });
  const events = rows.slice(0, limit).map((r) => r.event);
  return {
    events,
    hasMore: rows.length > limit,
    nextAfter: events.length > 0 ? events[events.length - 1].seq : after,
  };
}

/** The last seq of the project's feed. */
export async function newestSeq(tx: QueryRunner, projectId: string): Promise<number> {
  return (await tx.one<{ seq: number }>(lastSeq, { projectId }))?.seq ?? 0;
}

export async function readFeed(
  ctx: ServiceContext,
  principal: Principal,
  projectId: string,
  page: { after: number; limit: number },
): Promise<FeedPage> {
  return ctx.executor.readTx(async (tx) => {
    await visibleProject(tx, principal, projectId);
    return eventsAfter(tx, projectId, principal.userId, page.after, page.limit);
  });
}
