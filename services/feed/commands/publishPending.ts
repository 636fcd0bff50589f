/**
 * Publishing a project's feed: an event is written pending, in the transaction of the
 * change it describes (recordEvent), with no seq, so that writers of one project never
 * wait on one another for the feed (each branch has its own write lock; a seq given out
 * in the writer's transaction would make every writer of the project hold the one head
 * until it commits). Its seq is given after it committed, by publishPending, which every
 * reader of the feed runs before it reads (readPublished): the project's head is locked,
 * the pending events take the next seqs in the order they were written, and the head
 * keeps the last one.
 *
 * No gap: a seq is only ever given to a committed event, and always above every seq given
 * before it, so a reader that has read up to seq N never finds a later event below N. An
 * event committed while a publish runs is left for the next one.
 */
import type { Executor } from '../../../shared/neo4j/executor';
import type { QueryRunner } from '../../../shared/neo4j/namedQuery';
import { hasPendingEvents, lockFeedHead, publishPendingEvents } from '../store/feedQueries';

/** Events published per statement (a project nobody read for long has many). */
const PUBLISH_PAGE = 1000;

/** Whether project `projectId` has events waiting for a seq. */
async function hasPending(tx: QueryRunner, projectId: string): Promise<boolean> {
  return (await tx.one<{ pending: boolean }>(hasPendingEvents, { projectId }))?.pending ?? false;
}

/**
 * Gives project `projectId`'s pending events their seqs; returns how many. Looks first,
 * in a read transaction: the head is locked only when there is something to publish.
 */
export async function publishPending(executor: Executor, projectId: string): Promise<number> {
  const pending = await executor.readTx((tx) => hasPending(tx, projectId));
  return pending ? publishNow(executor, projectId) : 0;
}

/** The publish itself: the head locked, then every pending event, a page at a time. */
async function publishNow(executor: Executor, projectId: string): Promise<number> {
  return executor.writeTx(async (tx) => {
    await tx.run(lockFeedHead, { projectId });
    let published = 0;
    for (;;) {
      const row = await tx.one<{ published: number }>(publishPendingEvents, {
        projectId,
        limit: PUBLISH_PAGE,
      });
      const count = row?.published ?? 0;
      published += count;
      if (count < PUBLISH_PAGE) return published;
    }
  });
}

/**
 * `read` in a read transaction of `executor`, once project `projectId`'s events written
 * so far are published: the usual case (nothing pending) is that one transaction; else
 * the events are published first and `read` runs again, so what it reads of the feed
 * includes every event committed before it was called.
 */
export async function readPublished<T>(
  executor: Executor,
  projectId: string,
  read: (tx: QueryRunner) => Promise<T>,
): Promise<T> {
  const pending = Symbol('pending');
  const first = await executor.readTx(async (tx) =>
    (await hasPending(tx, projectId)) ? pending : read(tx),
  );
  if (first !== pending) return first as T;
  await publishNow(executor, projectId);
  return executor.readTx(read);
}
