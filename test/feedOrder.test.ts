/**
 * The order of a project's feed (listProjectEvents) under concurrent writers: events are
 * written in their changes' transactions without a lock the project's writers share, and
 * take their seqs once committed, before any read of the feed. Each event gets one seq,
 * none is skipped, each branch's events keep their order, and a reader paging while the
 * writers write is never passed by an event found later below its cursor.
 */
import { expect } from 'chai';
import { newUser, TestUser } from './support/harness';
import { addNode } from './support/graphBuilders';
import { mergeProject } from './support/mergeWorkspace';

async function page(user: TestUser, projectId: string, query = '') {
  const res = await user.api.get(`/v1/projects/${projectId}/events${query}`);
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('project feed order under concurrent writers', function () {
  this.timeout(120_000);

  it("writers on separate branches of one project don't wait on one another for the feed: each event gets one seq, none skipped, each branch's in its order", async () => {
    const owner = await newUser();
    const p = await mergeProject(owner);
    const branches = [await p.fork(), await p.fork(), await p.fork()];
    // a reader pages the feed while the writers write: what it reads never has a gap
    // and is never passed by an event found later below its cursor
    const read: any[] = [];
    let writing = true;
    const reader = (async () => {
      let after = 0;
      while (writing) {
        const got = await page(owner, p.projectId, `?after=${after}&limit=100`);
        read.push(...got.events);
        after = got.next_after;
        await pause(5);
      }
      read.push(...(await page(owner, p.projectId, `?after=${after}&limit=100`)).events);
    })();
    await Promise.all(
      branches.map(async (b) => {
        for (let i = 0; i < 4; i++) await b.apply([addNode({ data: { name: `n${i}` } })]);
      }),
    );
    writing = false;
    await reader;

    const all = (await page(owner, p.projectId, '?limit=100')).events;
    expect(all.map((e: any) => e.seq)).to.deep.equal(all.map((_: any, i: number) => i + 1));
    expect(all).to.have.length(3 + 12);
    for (const b of branches) {
      const versions = all
        .filter((e: any) => e.kind === 'batch_applied' && e.branch_id === b.id)
        .map((e: any) => e.branch_version);
      expect(versions).to.deep.equal([1, 2, 3, 4]);
    }
    expect(read).to.deep.equal(all);
  });
});
