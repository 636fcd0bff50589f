/**
 * The project feed through HTTP: listProjectEvents (a page after a seq, members only, a
 * working branch's events for its owner only) and streamProjectEvents (Server-Sent
 * Events, resumed with Last-Event-ID; the streams of a project in a process share one
 * poll of the feed, each keeping what its caller sees).
 */
import { expect } from 'chai';
import { loadConfigWith } from '../shared/config/config';
import { createLogger } from '../shared/logging/logger';
import { RunningService, startService } from '../services/gateway/server';
import { currentHarness, grant, newUser, TEST_ENV, TestUser } from './support/harness';
import type { SplitTopology } from './support/splitTopology';
import { addNode } from './support/graphBuilders';
import { mergeProject } from './support/mergeWorkspace';
import { behind, rebaseOk } from './support/rebaseWorkspace';

async function page(user: TestUser, projectId: string, query = '') {
  const res = await user.api.get(`/v1/projects/${projectId}/events${query}`);
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body;
}

/** Reads an SSE stream until `count` events arrived (or `ms` passed); returns them and the raw text. */
async function readStream(
  token: string,
  path: string,
  headers: Record<string, string>,
  count: number,
  ms = 15_000,
): Promise<{
  status: number;
  type: string | null;
  events: { id: string; event: string; data: any }[];
  text: string;
}> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), ms);
  const res = await fetch(`${currentHarness().service.url}${path}`, {
    headers: { Authorization: `Bearer ${token}`, ...headers },
    signal: controller.signal,
  });
  let text = '';
  const events: { id: string; event: string; data: any }[] = [];
  const wire: Record<string, string>[] = [];
  try {
    const decoder = new TextDecoder();
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      text += decoder.decode(chunk, { stream: true });
      events.length = 0;
      wire.length = 0;
      for (const block of text.split('\n\n')) {
        const fields = Object.fromEntries(
          block
            .split('\n')
            .filter((l) => /^(id|event|data): /.test(l))
            .map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 2)]),
        );
        if (fields.data !== undefined) wire.push(fields);
        if (fields.id)
          events.push({ id: fields.id, event: fields.event, data: JSON.parse(fields.data) });
      }
      if (events.length >= count) break;
    }
  } catch (error) {
    if (!controller.signal.aborted) throw error;
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
  if (res.status === 200) {
    const problems = currentHarness().contract.checkEvents('GET', path, 200, wire, 'FeedEvent');
    expect(problems, problems.join('\n')).to.deep.equal([]);
  }
  return { status: res.status, type: res.headers.get('content-type'), events, text };
}

type StreamEvent = { id: string; event: string; data: any };

/** Parses the complete `id`/`event`/`data` blocks of an SSE text. */
function parseEvents(text: string): StreamEvent[] {
  const events: StreamEvent[] = [];
  for (const block of text.split('\n\n').slice(0, -1)) {
    const fields = Object.fromEntries(
      block
        .split('\n')
        .filter((l) => /^(id|event|data): /.test(l))
        .map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 2)]),
    );
    if (fields.id)
      events.push({ id: fields.id, event: fields.event, data: JSON.parse(fields.data) });
  }
  return events;
}

/** A stream kept open while the test acts: what arrived so far, and a way to close it. */
interface LiveStream {
  events(): StreamEvent[];
  /** Resolves once `count` events arrived (rejects after `ms`). */
  until(count: number, ms?: number): Promise<StreamEvent[]>;
  /** Resolves once the stream's first bytes (its `retry:` line) arrived. */
  opened: Promise<void>;
  /** Resolves when the service ended the stream whole; rejects when it was cut. */
  ended: Promise<void>;
  /** Everything received so far. */
  text(): string;
  close(): void;
}

/** The `id`/`event`/`data` fields of each complete message of an SSE text that has data. */
function wireMessages(text: string): Record<string, string>[] {
  return text
    .split('\n\n')
    .slice(0, -1)
    .map((block) =>
      Object.fromEntries(
        block
          .split('\n')
          .filter((l) => /^(id|event|data): /.test(l))
          .map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 2)]),
      ),
    )
    .filter((fields) => fields.data !== undefined);
}

/** A stream of `path` kept open while the test acts (on the harness's service, or `base`). */
function liveStream(
  token: string,
  path: string,
  headers: Record<string, string> = {},
  base = currentHarness().service.url,
): LiveStream {
  const controller = new AbortController();
  let text = '';
  let opened!: () => void;
  const openedP = new Promise<void>((resolve) => (opened = resolve));
  let body: ReadableStreamDefaultReader<Uint8Array> | undefined;
  const reading = (async () => {
    const res = await fetch(`${base}${path}`, {
      headers: { Authorization: `Bearer ${token}`, ...headers },
      signal: controller.signal,
    });
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^text\/event-stream/);
    body = res.body!.getReader();
    const decoder = new TextDecoder();
    for (;;) {
      const { done, value } = await body.read();
      if (done) return;
      text += decoder.decode(value, { stream: true });
      opened();
    }
  })().catch((error) => {
    if (!controller.signal.aborted) throw error;
  });
  return {
    events: () => parseEvents(text),
    opened: openedP,
    ended: reading,
    text: () => text,
    async until(count, ms = 15_000) {
      const ends = Date.now() + ms;
      while (parseEvents(text).length < count) {
        if (Date.now() > ends)
          throw new Error(`${parseEvents(text).length} of ${count} events in ${ms} ms: ${text}`);
        await Promise.race([reading, new Promise((resolve) => setTimeout(resolve, 50))]);
      }
      // every message as the document describes it (FeedStreamEvent, its data a FeedEvent)
      const problems = currentHarness().contract.checkEvents(
        'GET',
        path,
        200,
        wireMessages(text),
        'FeedEvent',
      );
      expect(problems, problems.join('\n')).to.deep.equal([]);
      return parseEvents(text);
    },
    close: () => {
      // the body given up first, as readStream does: the connection closes with it
      void body?.cancel().catch(() => undefined);
      controller.abort();
    },
  };
}

/** How many times the named statement ran, summed over the processes' metrics. */
async function statementsRun(name: string): Promise<number> {
  const service = currentHarness().service as Partial<SplitTopology>;
  const urls = [currentHarness().service.url, ...(service.processes ?? []).map((p) => p.url)];
  let total = 0;
  for (const url of urls) {
    const text = await (await fetch(`${url}/metrics`)).text();
    const line = text
      .split('\n')
      .find((l) =>
        l.startsWith(`gds_neo4j_query_duration_seconds_count{query="${name}",outcome="ok"}`),
      );
    total += line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
  }
  return total;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('project feed', function () {
  this.timeout(120_000);

  it('pages events in seq order after a seq; a working branch events only for its owner; strangers 404', async () => {
    const owner = await newUser();
    const [viewer, stranger] = [await newUser(), await newUser()];
    const p = await mergeProject(owner);
    await grant(p.projectId, viewer, 'viewer');
    const b = await p.fork();
    await b.apply([addNode({ data: { name: 'x' } })]);
    const cr = await owner.api.post(`/v1/branches/${b.id}/change-request`, { title: 't' });
    expect(cr.status).to.equal(201);
    await b.mergeOk();

    const all = await page(owner, p.projectId);
    expect(all.events.map((e: any) => e.kind)).to.deep.equal([
      'branch_forked',
      'batch_applied',
      'change_request_opened',
      'branch_merged',
      'change_request_merged',
    ]);
    expect(all.events.map((e: any) => e.seq)).to.deep.equal([1, 2, 3, 4, 5]);
    expect(all.events[1]).to.include({
      branch_id: b.id,
      branch_version: 1,
      actor_id: owner.userId,
    });
    expect(all.events[2].change_request_id).to.equal(cr.body.change_request.id);

    const seen = await page(viewer, p.projectId);
    expect(seen.events.map((e: any) => e.seq)).to.deep.equal([3, 4, 5]);

    const first = await page(owner, p.projectId, '?limit=2');
    expect(first.events.map((e: any) => e.seq)).to.deep.equal([1, 2]);
    expect(first).to.include({ has_more: true, next_after: 2 });
    const next = await page(owner, p.projectId, `?after=${first.next_after}&limit=2`);
    expect(next.events.map((e: any) => e.seq)).to.deep.equal([3, 4]);
    const end = await page(owner, p.projectId, '?after=5');
    expect(end).to.include({ has_more: false, next_after: 5 });
    expect(end.events).to.deep.equal([]);

    expect((await stranger.api.get(`/v1/projects/${p.projectId}/events`)).status).to.equal(404);
  });

  it("a rebase (rebaseBranch) writes the branch's branch_rebased event at its new version, seen by its owner only", async () => {
    const r = await behind(
      [],
      [addNode({ data: { name: 'onMain' } })],
      [addNode({ data: { name: 'onBranch' } })],
    );
    const member = await newUser();
    await grant(r.p.projectId, member, 'editor');
    const done = await rebaseOk(r.p, r.b);
    const rebasedOf = (body: any) =>
      body.events.filter((e: any) => e.kind === 'branch_rebased' && e.branch_id === r.b.id);
    const own = rebasedOf(await page(r.p.user, r.p.projectId, '?after=0&limit=100'));
    expect(own.map((e: any) => [e.branch_version, e.actor_id])).to.deep.equal([
      [done.branch.version, r.p.user.userId],
    ]);
    expect(rebasedOf(await page(member, r.p.projectId, '?after=0&limit=100'))).to.deep.equal([]);
  });

  it('a rolled-back change writes no event: a refused batch leaves the feed as it was', async () => {
    const owner = await newUser();
    const p = await mergeProject(owner);
    const b = await p.fork();
    const before = await page(owner, p.projectId);
    const refused = await owner.api.post(`/v1/branches/${b.id}/deltas`, {
      deltas: [{ type: 'delete_node', node_id: '00000000-0000-4000-8000-000000000000' }],
      expected_version: 0,
    });
    expect(refused.status).to.be.oneOf([404, 422]);
    expect((await page(owner, p.projectId)).events).to.deep.equal(before.events);
  });

  it('streams events as Server-Sent Events and resumes after Last-Event-ID', async () => {
    const owner = await newUser();
    const p = await mergeProject(owner);
    const b = await p.fork();
    await b.apply([addNode({ data: { name: 'a' } })]);
    await b.apply([addNode({ data: { name: 'b' } })]);
    const path = `/v1/projects/${p.projectId}/events/stream`;

    const fromStart = await readStream(owner.token, `${path}?after=0`, {}, 3);
    expect(fromStart.status).to.equal(200);
    expect(fromStart.type).to.match(/^text\/event-stream/);
    expect(fromStart.events.map((e) => [e.id, e.event])).to.deep.equal([
      ['1', 'branch_forked'],
      ['2', 'batch_applied'],
      ['3', 'batch_applied'],
    ]);
    expect(fromStart.text).to.match(/^retry: \d+/);

    // resume after event 2: Last-Event-ID wins over after; then a new event arrives live
    const resumed = readStream(owner.token, `${path}?after=0`, { 'Last-Event-ID': '2' }, 2);
    await new Promise((resolve) => setTimeout(resolve, 500));
    await b.apply([addNode({ data: { name: 'c' } })]);
    const got = await resumed;
    expect(got.events.map((e) => e.id)).to.deep.equal(['3', '4']);
    expect(got.events[1].data).to.include({ kind: 'batch_applied', branch_version: 3 });

    const stranger = await newUser();
    const refused = await fetch(`${currentHarness().service.url}${path}`, {
      headers: { Authorization: `Bearer ${stranger.token}` },
    });
    expect(refused.status).to.equal(404);
  });
  it('the open streams of one project share one poll of the feed, each getting every event it sees', async () => {
    const owner = await newUser();
    const p = await mergeProject(owner);
    const members = [await newUser(), await newUser(), await newUser(), await newUser()];
    for (const m of members) await grant(p.projectId, m, 'viewer');
    const path = `/v1/projects/${p.projectId}/events/stream`;
    // two streams each: eight streams of the project in this process
    const streams = [...members, ...members].map((m) => liveStream(m.token, path));
    try {
      await Promise.all(streams.map((s) => s.opened));
      await pause(1_000); // each stream's own catch-up read is done

      const { pollMs } = currentHarness().config.feed;
      const windowMs = 3_000;
      const before = await statementsRun('feedPage');
      await pause(windowMs);
      const polls = (await statementsRun('feedPage')) - before;
      // one poll per FEED_POLL_MS for the project, not one per stream (eight times as many)
      expect(polls).to.be.at.least(1);
      expect(polls).to.be.at.most(Math.ceil(windowMs / pollMs) + 2);

      const cr = await owner.api.post(`/v1/branches/${(await p.fork()).id}/change-request`, {
        title: 'shared',
      });
      expect(cr.status).to.equal(201);
      for (const s of streams) {
        const got = await s.until(1);
        expect(got.map((e) => e.event)).to.deep.equal(['change_request_opened']);
      }
    } finally {
      streams.forEach((s) => s.close());
    }
  });

  it('a stream resuming with Last-Event-ID while events keep coming gets each event once, none skipped', async () => {
    const owner = await newUser();
    const p = await mergeProject(owner);
    const b = await p.fork();
    await b.apply([addNode({ data: { name: 'n0' } })]);
    const path = `/v1/projects/${p.projectId}/events/stream`;
    // a stream already following keeps the project's poll running ahead of the resumer
    const follower = liveStream(owner.token, path);
    await follower.opened;
    let writing = true;
    const writes = (async () => {
      for (let i = 1; writing && i <= 30; i += 1)
        await b.apply([addNode({ data: { name: `n${i}` } })]);
    })();
    let resumed: LiveStream | undefined;
    try {
      await pause(700);
      resumed = liveStream(owner.token, path, { 'Last-Event-ID': '1' });
      await resumed.opened;
      await pause(1_500);
      writing = false;
      await writes;
      const last = (await page(owner, p.projectId, '?after=0&limit=100')).events.at(-1).seq;
      const got = await resumed.until(last - 1);
      await pause(600); // nothing more may come
      const ids = resumed.events().map((e) => Number(e.id));
      expect(ids).to.deep.equal(Array.from({ length: last - 1 }, (_, i) => i + 2));
      expect(got.length).to.be.at.least(3);
    } finally {
      writing = false;
      follower.close();
      resumed?.close();
      await writes;
    }
  });

  it("a working branch's events reach its owner's stream only, never another member's sharing the poll", async () => {
    const owner = await newUser();
    const p = await mergeProject(owner);
    const other = await newUser();
    await grant(p.projectId, other, 'editor');
    const path = `/v1/projects/${p.projectId}/events/stream`;
    const mine = liveStream(owner.token, path);
    const theirs = liveStream(other.token, path);
    try {
      await Promise.all([mine.opened, theirs.opened]);
      await pause(500);
      const b = await p.fork(); // branch_forked, for its owner only
      await b.apply([addNode({ data: { name: 'private' } })]); // batch_applied, owner only
      const theirBranch = await other.api.post(`/v1/projects/${p.projectId}/branches`, {
        name: 'theirs',
      });
      expect(theirBranch.status, JSON.stringify(theirBranch.body)).to.equal(201);
      const cr = await owner.api.post(`/v1/branches/${b.id}/change-request`, { title: 't' });
      expect(cr.status).to.equal(201); // change_request_opened, every member

      const ownerSaw = await mine.until(3);
      const otherSaw = await theirs.until(2);
      await pause(600);
      expect(mine.events().map((e) => e.event)).to.deep.equal([
        'branch_forked',
        'batch_applied',
        'change_request_opened',
      ]);
      expect(theirs.events().map((e) => [e.event, e.data.actor_id])).to.deep.equal([
        ['branch_forked', other.userId],
        ['change_request_opened', owner.userId],
      ]);
      expect(ownerSaw.every((e) => e.data.actor_id === owner.userId)).to.equal(true);
      expect(
        otherSaw.some((e) => e.data.branch_id === b.id && e.event !== 'change_request_opened'),
      ).to.equal(false);
    } finally {
      mine.close();
      theirs.close();
    }
  });

  /** A service of this test's own (in this process), with `env` over the test settings. */
  async function ownService(env: Record<string, string>): Promise<RunningService> {
    return startService(loadConfigWith({ ...TEST_ENV, ...env }), createLogger({ level: 'silent' }));
  }

  const retryHints = (text: string) => text.match(/^retry: \d+$/gm) ?? [];

  it('a stream ends after FEED_STREAM_MAX_SECONDS with a retry hint, as it began', async () => {
    const own = await ownService({ FEED_STREAM_MAX_SECONDS: '1' });
    try {
      const owner = await newUser();
      const p = await mergeProject(owner);
      await (await p.fork()).apply([addNode({ data: { name: 'n' } })]);
      const stream = liveStream(
        owner.token,
        `/v1/projects/${p.projectId}/events/stream?after=0`,
        {},
        own.url,
      );
      await stream.ended; // whole, not cut
      expect(stream.events().map((e) => e.event)).to.deep.equal(['branch_forked', 'batch_applied']);
      expect(stream.text()).to.match(/^retry: \d+\n\n/);
      expect(stream.text()).to.match(/\n\nretry: \d+\n\n$/);
      expect(retryHints(stream.text())).to.have.length(2);
    } finally {
      await own.close();
    }
  });

  it('a service stopping ends its open streams at once, each with a retry hint, and its drain waits on none', async function () {
    // a stop that waited on its streams would take SHUTDOWN_TIMEOUT_S, past this test's time
    this.timeout(30_000);
    const own = await ownService({ SHUTDOWN_TIMEOUT_S: '60', FEED_STREAM_MAX_SECONDS: '50' });
    let stopped = false;
    try {
      const owner = await newUser();
      const p = await mergeProject(owner);
      const path = `/v1/projects/${p.projectId}/events/stream`;
      const streams = [
        liveStream(owner.token, path, {}, own.url),
        liveStream(owner.token, path, {}, own.url),
      ];
      await Promise.all(streams.map((s) => s.opened));
      await (await p.fork()).apply([addNode({ data: { name: 'n' } })]);
      for (const s of streams) await s.until(2); // following: the project's poll is running

      await own.close();
      stopped = true;
      for (const s of streams) {
        await s.ended; // whole, not cut: the reader resumes with Last-Event-ID elsewhere
        expect(s.events().map((e) => e.event)).to.deep.equal(['branch_forked', 'batch_applied']);
        expect(s.text()).to.match(/\n\nretry: \d+\n\n$/);
        expect(retryHints(s.text())).to.have.length(2);
      }
    } finally {
      if (!stopped) await own.close();
    }
  });
});
