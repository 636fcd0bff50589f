/**
 * streamProjectEvents (GET /v1/projects/{id}/events/stream): the feed as Server-Sent
 * Events. The stream starts after the seq the client last saw (Last-Event-ID, else
 * `after`, else the newest event), sends each event as `id`/`event`/`data`, polls the
 * feed's index for newer ones every FEED_POLL_MS, sends a `: heartbeat` comment after
 * FEED_HEARTBEAT_MS of silence, and ends after FEED_STREAM_MAX_SECONDS (the client
 * resumes with Last-Event-ID). Each poll checks the caller is still a member: a member
 * removed from the project stops receiving at the next poll.
 */
import { InvalidInputError } from '../../shared/errors/domainErrors';
import type { BodyWriter, OperationResult } from '../../shared/http/operation';
import type { Principal } from '../../shared/http/principal';
import type { ServiceContext } from '../../shared/http/serviceContext';
import { visibleProject } from '../identity';
import { eventsAfter, newestSeq } from './commands/readFeed';
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

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });

export async function openFeedStream(
  ctx: ServiceContext,
  limit: StreamLimit,
  principal: Principal,
  projectId: string,
  start: number | null,
  signal?: AbortSignal,
): Promise<OperationResult> {
  // refusals (404, 429) answer as errors, before the stream begins
  const first = await ctx.executor.readTx(async (tx) => {
    await visibleProject(tx, principal, projectId);
    return start ?? (await newestSeq(tx, projectId));
  });
  const release = limit.acquire(principal.keyId);
  const { heartbeatMs, pollMs, streamMaxSeconds } = ctx.config.feed;
  return {
    status: 200,
    body: undefined,
    headers: SSE_HEADERS,
    stream: async (out: BodyWriter) => {
      try {
        await follow(out, first);
      } finally {
        release();
      }
    },
  };

  async function follow(out: BodyWriter, from: number): Promise<void> {
    const ends = Date.now() + streamMaxSeconds * 1000;
    let cursor = from;
    let lastWrite = Date.now();
    await out.write(`retry: ${RETRY_MS}\n\n`);
    while (!signal?.aborted && Date.now() < ends) {
      const page = await ctx.executor.readTx(async (tx) => {
        await visibleProject(tx, principal, projectId);
        return eventsAfter(tx, projectId, principal.userId, cursor, PAGE);
      });
      for (const event of page.events) {
        const data = JSON.stringify(presentEvent(event));
        await out.write(`id: ${event.seq}\nevent: ${event.kind}\ndata: ${data}\n\n`);
        lastWrite = Date.now();
      }
      cursor = page.nextAfter;
      if (page.hasMore) continue;
      if (Date.now() - lastWrite >= heartbeatMs) {
        await out.write(': heartbeat\n\n');
        lastWrite = Date.now();
      }
      await sleep(Math.min(pollMs, Math.max(0, ends - Date.now())), signal);
    }
  }
}
