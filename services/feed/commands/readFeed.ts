/**
 * listProjectEvents (GET /v1/projects/{id}/events): a page of the project's feed after a
 * seq, for a member of the project, read once the events written so far are published
 * (readPublished). The page is read by range seeks on the feed's (project_id, seq)
 * index; the events of a working branch are shown to its owner only (seenBy).
 */
import type { Principal } from '../../../shared/http/principal';
import type { ServiceContext } from '../../../shared/http/serviceContext';
import type { QueryRunner } from '../../../shared/neo4j/namedQuery';
import { visibleProject } from '../../identity';
import { FeedEventRecord, seenBy } from '../feedEvent';
import { feedPage, lastSeq } from '../store/feedQueries';
import { readPublished } from './publishPending';

export interface FeedPage {
  events: FeedEventRecord[];
  hasMore: boolean;
  nextAfter: number;
}

/** Up to `limit` events after `after`, whoever they are for, in seq order. */
export async function allEventsAfter(
  tx: QueryRunner,
  projectId: string,
  after: number,
  limit: number,
): Promise<FeedEventRecord[]> {
  const rows = await tx.run<{ event: FeedEventRecord }>(feedPage, { projectId, after, limit });
  return rows.map((r) => r.event);
}

/**
 * The events after `after` that `userId` may see (null: only those for every member): up
 * to `limit` of them, and whether more follow. Reads on while others' events leave the
 * page short (one read in the usual case: a page's worth plus one).
 */
export async function eventsAfter(
  tx: QueryRunner,
  projectId: string,
  userId: string | null,
  after: number,
  limit: number,
): Promise<FeedPage> {
  const seen: FeedEventRecord[] = [];
  let read = after;
  for (;;) {
    const rows = await allEventsAfter(tx, projectId, read, limit + 1);
    for (const event of rows) if (seenBy(event, userId)) seen.push(event);
    if (seen.length > limit || rows.length <= limit) break;
    read = rows[rows.length - 1].seq;
  }
  const events = seen.slice(0, limit);
  return {
    events,
    hasMore: seen.length > limit,
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
  return readPublished(ctx.executor, projectId, async (tx) => {
    await visibleProject(tx, principal, projectId);
    return eventsAfter(tx, projectId, principal.userId, page.after, page.limit);
  });
}
