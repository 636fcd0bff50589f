/**
 * The project feed through HTTP: listProjectEvents (a page after a seq, members only, a
 * working branch's events for its owner only) and streamProjectEvents (Server-Sent
 * Events, resumed with Last-Event-ID).
 */
import { expect } from 'chai';
import { currentHarness, grant, newUser, TestUser } from './support/harness';
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
});
