/** HTTP operations of the feed service: parse, call the command, present. */
import { ok, OperationTable } from '../../shared/http/operation';
import type { ServiceContext } from '../../shared/http/serviceContext';
import { readFeed } from './commands/readFeed';
import { presentEvent } from './feedPresenter';
import { feedPollRead, FeedPolls } from './feedPolls';
import { openFeedStream, resumeAfter } from './feedStream';
import { StreamLimit } from './streamLimit';

export const FEED_PAGE_DEFAULT = 50;

export function feedRoutes(ctx: ServiceContext): OperationTable {
  const version = ctx.config.serviceVersion;
  // made at start-up: the polls run in this scope, for no one caller
  const streams = {
    limit: new StreamLimit(ctx.config.feed.streamsPerKey),
    polls: new FeedPolls({ read: feedPollRead(ctx.executor), pollMs: ctx.config.feed.pollMs }),
    stopping: ctx.stopping,
  };
  // the process stopping: its polls stop with it (its streams end on the same signal)
  ctx.stopping?.addEventListener('abort', () => streams.polls.close(), { once: true });
  return {
    listProjectEvents: async (req) => {
      const { project_id } = req.params;
      const after = Number(req.query.after ?? 0);
      const limit = Number(req.query.limit ?? FEED_PAGE_DEFAULT);
      const page = await readFeed(ctx, req.principal, project_id, { after, limit });
      return ok({
        events: page.events.map(presentEvent),
        next_after: page.nextAfter,
        has_more: page.hasMore,
        project_id,
        version,
      });
    },

    streamProjectEvents: async (req) => {
      const start = resumeAfter(req.headers['last-event-id'], req.query.after);
      return openFeedStream(ctx, streams, req.principal, req.params.project_id, start, req.signal);
    },
  };
}
