/**
 * streamProjectEvents (GET /v1/projects/{id}/events/stream): the feed as Server-Sent
 * Events. The stream starts after the seq the client last saw (Last-Event-ID, else
 * `after`, else the newest event), sends each event as `id`/`event`/`data`, sends a
 * `: heartbeat` comment after FEED_HEARTBEAT_MS of silence, and ends after
 * FEED_STREAM_MAX_SECONDS, or at once when the process stops (it would otherwise hold
 * the drain to its timeout and be cut), each time with a `retry:` hint: the client
 * resumes with Last-Event-ID, on another process if this one is gone.
 *
 * New events come from the project's poll, shared by every stream of the project in this
 * process (FeedPolls, every FEED_POLL_MS): the stream joins it, catches up from its start
 * with page reads of its own, then writes what the poll hands over past what it already
 * sent, keeping those its caller sees (seenBy). Each poll checks the caller is still a
 * member: a member removed from the project stops receiving at the next poll.
 */
import { InvalidInputError } from '../../shared/errors/domainErrors';
import type { BodyWriter, OperationResult } from '../../shared/http/operation';
import type { Principal } from '../../shared/http/principal';
import type { ServiceContext } from '../../shared/http/serviceContext';
import { visibleProject } from '../identity';
import { readPublished } from './commands/publishPending';
import { eventsAfter, newestSeq } from './commands/readFeed';
import { FeedEventRecord, seenBy } from './feedEvent';
import { FeedInbox } from './feedInbox';
import type { FeedPolls } from './feedPolls';
import { presentEvent } from './feedPresenter';
import type { StreamLimit } from './streamLimit';

const PAGE = 100;
const RETRY_MS = 2_000;

export const SSE_HEADERS = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  'Cache-Control': 'no-cache, no-transform',
  'X-Accel-Buffering': 'no',
};

/** The seq to start after: Last-Event-ID wins over `after`; neither: null (the newest). */
export function resumeAfter(lastEventId: string | undefined, after: unknown): number | null {
  if (lastEventId !== undefined && lastEventId !== '') {
    if (!/^\d{1,15}$/.test(lastEventId.trim()))
      throw new InvalidInputError('invalid_last_event_id', 'Last-Event-ID must be an event seq');
    return Number(lastEventId.trim());
  }
  return after === undefined ? null : Number(after);
}

/** What a stream needs of its process: the per-key bound, the shared polls, its stop. */
export interface FeedStreams {
  limit: StreamLimit;
  polls: FeedPolls;
  /** Aborted as the process begins to stop: every open stream ends (ServiceContext). */
  stopping?: AbortSignal;
}

export async function openFeedStream(
  ctx: ServiceContext,
  streams: FeedStreams,
  principal: Principal,
  projectId: string,
  start: number | null,
  signal?: AbortSignal,
): Promise<OperationResult> {
  // refusals (404, 429) answer as errors, before the stream begins; `head` is committed
  // now, so a poll started after it misses nothing the stream's own reads do not find
  const { first, head } = await readPublished(ctx.executor, projectId, async (tx) => {
    await visibleProject(tx, principal, projectId);
    const newest = await newestSeq(tx, projectId);
    return { first: start ?? newest, head: newest };
  });
  const release = streams.limit.acquire(principal.keyId);
  const { heartbeatMs, streamMaxSeconds } = ctx.config.feed;
  return {
    status: 200,
    body: undefined,
    headers: SSE_HEADERS,
    stream: async (out: BodyWriter) => {
      const inbox = new FeedInbox(principal);
      const leave = streams.polls.follow(projectId, head, inbox);
      try {
        await follow(out, inbox, first);
      } finally {
        leave();
        release();
      }
    },
  };

  async function follow(out: BodyWriter, inbox: FeedInbox, from: number): Promise<void> {
    const ends = Date.now() + streamMaxSeconds * 1000;
    // the caller leaving, or the process stopping, ends the wait for the next events
    const { stopping } = streams;
    const over = signal && stopping ? AbortSignal.any([signal, stopping]) : (signal ?? stopping);
    let cursor = from;
    let lastWrite = Date.now();
    const send = async (event: FeedEventRecord) => {
      const data = JSON.stringify(presentEvent(event));
      await out.write(`id: ${event.seq}\nevent: ${event.kind}\ndata: ${data}\n\n`);
      lastWrite = Date.now();
    };
    /** Own page reads from `cursor` until none is full (joining, or after falling behind). */
    const catchUp = async () => {
      while (!stopping?.aborted) {
        const page = await readPublished(ctx.executor, projectId, async (tx) => {
          await visibleProject(tx, principal, projectId);
          return eventsAfter(tx, projectId, principal.userId, cursor, PAGE);
        });
        for (const event of page.events) await send(event);
        cursor = page.nextAfter;
        if (!page.hasMore) return;
      }
    };
    // the hint first too: a client whose stream is cut without one knows when to come back
    await out.write(`retry: ${RETRY_MS}\n\n`);
    if (!stopping?.aborted) await catchUp();
    while (!over?.aborted && Date.now() < ends) {
      const silence = lastWrite + heartbeatMs - Date.now();
      const next = await inbox.take(Math.min(silence, ends - Date.now()), over);
      if (next.kind === 'failed') throw next.error;
      if (next.kind === 'behind') await catchUp();
      if (next.kind === 'events') {
        // what the stream's own reads already sent comes again from the poll: skipped
        for (const event of next.events) {
          if (event.seq <= cursor) continue;
          cursor = event.seq;
          if (seenBy(event, principal.userId)) await send(event);
        }
      }
      if (!over?.aborted && Date.now() - lastWrite >= heartbeatMs) {
        await out.write(': heartbeat\n\n');
        lastWrite = Date.now();
      }
    }
    // ended by time or by the process stopping, not by the caller: when to come back
    if (!signal?.aborted) await out.write(`retry: ${RETRY_MS}\n\n`);
  }
}
