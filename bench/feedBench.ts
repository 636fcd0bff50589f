/**
 * Feed delivery benchmark (`--only feed`): how long an event takes to reach the project's
 * followers. `SUBSCRIBERS` members of one project (each a user with a key of their own, so
 * FEED_STREAMS_PER_KEY is never the bound) follow streamProjectEvents (feedSubscriber.ts:
 * fetch with its body parsed as it arrives); then `EVENTS` writes every member sees, one
 * every `PACE_MS` on average: batches on a branch under review (by its owner) and comments
 * on its change request (by a reviewer), in turn. A delivery's latency is the time from the
 * write's answer to the event's arrival at one subscriber; an event may arrive before the
 * answer (it is committed with the write), which counts as 0 and is counted. The same
 * with one subscriber is printed for reference; the figure has no target (reported, with
 * the ratio of 100 subscribers to 1).
 *
 * The subscribers run in the service's process, as every part of `make bench` does: the
 * time spent parsing their streams is spent beside the service's. The streams of the
 * project share one poll of the feed's index every FEED_POLL_MS (feedPolls.ts), so a
 * delivery waits for the project's next poll: about half of FEED_POLL_MS on average, at
 * most all of it, before any other cost.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Config } from '../shared/config/config';
import type { Executor } from '../shared/neo4j/executor';
import type { ServiceMetrics } from '../services/platform';
import type { BenchClient } from './benchClient';
import { benchMember } from './benchService';
import { EventKey, FeedSubscriber } from './feedSubscriber';
import { statementTotals } from './rebaseBench';
import { percentile } from './stats';

export const SUBSCRIBERS = 100;
const EVENTS = 40;
const PACE_MS = 500;

export interface FeedRun {
  subscribers: number;
  /** Milliseconds from a write's answer to an event's arrival, one per delivery. */
  deliveries: number[];
  /** Deliveries that arrived before the write's answer (counted as 0 ms). */
  early: number;
  /** Deliveries expected and never seen. */
  missing: number;
  /** Milliseconds each write took to answer. */
  writes: number[];
  reconnects: number;
  /** Statements per second while the events were made (the streams' polls among them). */
  statementsPerSecond: number;
  /** Seconds spent in statements per second of that time. */
  statementLoad: number;
}

export interface FeedFigures {
  runs: FeedRun[];
  pollMs: number;
}

type FeedService = { executor: Executor; url: string; metrics: ServiceMetrics };

export async function runFeedBench(options: {
  service: FeedService;
  client: BenchClient;
  config: Config;
}): Promise<FeedFigures> {
  const runs: FeedRun[] = [];
  for (const subscribers of [1, SUBSCRIBERS]) {
    process.stderr.write(`feed: ${subscribers} subscriber(s), ${EVENTS} events ...\n`);
    runs.push(await feedRun(options.service, options.client, subscribers));
  }
  return { runs, pollMs: options.config.feed.pollMs };
}

/** A one-delta batch: a node at the top level (names are unique among siblings). */
const oneNode = () => {
  const id = randomUUID();
  return [
    { type: 'add_node', node: { id, parent_id: null, data: { name: `s${id.slice(0, 12)}` } } },
  ];
};

async function feedRun(
  service: FeedService,
  client: BenchClient,
  subscribers: number,
): Promise<FeedRun> {
  // a branch under review: its batches and the change request's reviews reach every member
  const { projectId } = await client.createProject();
  const branchId = await client.fork(projectId);
  let version = await client.applyDeltas(branchId, oneNode(), 0);
  const opened = await client.call('POST', `/v1/branches/${branchId}/change-request`, {
    title: 'Bench feed',
  });
  const reviews = `/v1/change-requests/${opened.change_request.id}/reviews`;
  const reviewer = await benchMember(service, projectId, 'editor', 'reviewer');
  const keyOf: EventKey = (e) =>
    e.kind === 'batch_applied' && e.branch_id === branchId
      ? `batch:${String(e.branch_version)}`
      : e.kind === 'change_request_reviewed'
        ? `review:${String(e.review_id)}`
        : null;
  const subs: FeedSubscriber[] = [];
  for (let i = 0; i < subscribers; i++) {
    const member = await benchMember(service, projectId, 'viewer', 'follower');
    subs.push(new FeedSubscriber(service.url, member.token, projectId, keyOf));
  }
  await Promise.all(subs.map((s) => s.open()));

  let made: Made;
  try {
    made = await makeEvents(service.metrics, async (i) => {
      if (i % 2 === 0) {
        version = await client.applyDeltas(branchId, oneNode(), version);
        return `batch:${version}`;
      }
      const body = await reviewer.client.call('POST', reviews, {
        verdict: 'comment',
        body: `Note ${i}.`,
      });
      return `review:${String(body.review.id)}`;
    });
    // every event at every subscriber, or give up after a few polls more
    const deadline = performance.now() + 10_000;
    const arrived = () =>
      subs.every(
        (s) => s.failure !== null || [...made.answered.keys()].every((k) => s.arrivals.has(k)),
      );
    while (!arrived() && performance.now() < deadline) await sleep(50);
  } finally {
    await Promise.all(subs.map((s) => s.close()));
  }
  const failed = subs.find((s) => s.failure !== null);
  if (failed) throw failed.failure as Error;

  const { answered, ...load } = made;
  const run: FeedRun = {
    subscribers,
    deliveries: [],
    early: 0,
    missing: 0,
    reconnects: 0,
    ...load,
  };
  for (const s of subs) {
    run.reconnects += s.reconnects;
    for (const [key, at] of answered) {
      const came = s.arrivals.get(key);
      if (came === undefined) run.missing += 1;
      else if (came < at) run.early += 1;
      run.deliveries.push(came === undefined ? NaN : Math.max(0, came - at));
    }
  }
  run.deliveries = run.deliveries.filter((d) => !Number.isNaN(d));
  return run;
}

interface Made {
  /** When each write was answered (performance.now()), by the key of its event. */
  answered: Map<string, number>;
  writes: number[];
  statementsPerSecond: number;
  statementLoad: number;
}

/**
 * Makes `EVENTS` writes, one every `PACE_MS` on average (`write` answers the key of the event it
 * made), noting when each was answered and the statements run meanwhile.
 */
async function makeEvents(
  metrics: ServiceMetrics,
  write: (i: number) => Promise<string>,
): Promise<Made> {
  const answered = new Map<string, number>();
  const writes: number[] = [];
  const before = await statementTotals(metrics);
  const start = performance.now();
  let due = start;
  for (let i = 0; i < EVENTS; i++) {
    await sleep(Math.max(0, due - performance.now()));
    // PACE_MS apart on average, spread evenly over half to one and a half of it: at a
    // fixed pace the writes would keep one phase of the streams' poll cycle
    due += PACE_MS * (0.5 + Math.random());
    const started = performance.now();
    const key = await write(i);
    answered.set(key, performance.now());
    writes.push(performance.now() - started);
  }
  const after = await statementTotals(metrics);
  const seconds = (performance.now() - start) / 1000;
  return {
    answered,
    writes,
    statementsPerSecond: (after.count - before.count) / seconds,
    statementLoad: (after.seconds - before.seconds) / seconds,
  };
}

/** The figures (p50/p95/max per subscriber count), then the line against the target. */
export function reportFeed(figures: FeedFigures): void {
  const stats = (times: number[]) => {
    const sorted = [...times].sort((a, b) => a - b);
    return { p50: percentile(sorted, 50), p95: percentile(sorted, 95), max: sorted.at(-1) ?? NaN };
  };
  const ms = (n: number) => n.toFixed(1);
  console.log(
    `\nFeed delivery (streamProjectEvents): ${EVENTS} events, one every ${PACE_MS} ms on average, FEED_POLL_MS ${figures.pollMs}; ms from the write's answer to the event's arrival`,
  );
  console.log(
    '| subscribers | deliveries | p50 | p95 | max | before the answer | missing | write answer p50 / p95 | reconnects | statements/s | statement s/s |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|');
  for (const run of figures.runs) {
    const d = stats(run.deliveries);
    const w = stats(run.writes);
    console.log(
      `| ${run.subscribers} | ${run.deliveries.length} | ${ms(d.p50)} | ${ms(d.p95)} | ${ms(d.max)} | ${run.early} | ${run.missing} | ${ms(w.p50)} / ${ms(w.p95)} | ${run.reconnects} | ${run.statementsPerSecond.toFixed(0)} | ${run.statementLoad.toFixed(2)} |`,
    );
  }
  const one = figures.runs.find((r) => r.subscribers === 1);
  const many = figures.runs.find((r) => r.subscribers === SUBSCRIBERS);
  if (!one || !many) return;
  const [a, b] = [stats(many.deliveries), stats(one.deliveries)];
  console.log('\nThe feed against its target (this run):');
  console.log(
    `  feed delivery with ${SUBSCRIBERS} subscribers: p50 ${ms(a.p50)} ms, p95 ${ms(a.p95)} ms, max ${ms(a.max)} ms; against 1 subscriber p50 ${(a.p50 / b.p50).toFixed(2)}x, p95 ${(a.p95 / b.p95).toFixed(2)}x (reported, no target set)`,
  );
  console.log(
    `  (a delivery waits for the project's next poll, shared by its streams: ${figures.pollMs / 2} ms on average, ${figures.pollMs} ms at most, before any other cost)`,
  );
  if (many.missing + one.missing > 0)
    throw new Error(`${many.missing + one.missing} deliveries never arrived`);
}
