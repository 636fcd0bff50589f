/**
 * FeedPolls: one poll per project and process, shared by the project's open streams. The
 * poll's read is given as a function (PollRead) that answers from a list of events kept
 * here, so each round it makes is seen; the statements it runs against the store are
 * the integration tests' (test/feed.test.ts).
 */
import { expect } from 'chai';
import { NotFoundError } from '../../shared/errors/domainErrors';
import type { Principal } from '../../shared/http/principal';
import type { FeedEventRecord } from './feedEvent';
import { Follower, FeedPolls, PollRead } from './feedPolls';

const POLL_MS = 5;

function principal(userId: string): Principal {
  return { userId, keyId: `key-${userId}`, scopes: new Set(), projectAllowlist: null };
}

function event(seq: number, audience: string | null = null): FeedEventRecord {
  return {
    project_id: 'p',
    seq,
    kind: 'batch_applied',
    branch_id: 'b',
    branch_version: seq,
    change_request_id: null,
    review_id: null,
    verdict: null,
    actor_id: 'u1',
    created_at: new Date(0).toISOString(),
    audience,
  };
}

interface Round {
  projectId: string;
  users: string[];
  after: number;
}

/** A feed held here: what each round asked, and who no longer sees the project. */
class FakeFeed {
  readonly rounds: Round[] = [];
  readonly events: FeedEventRecord[] = [];
  readonly gone = new Set<string>();
  failWith: Error | undefined;

  readonly read: PollRead = async (projectId, principals, after, limit) => {
    this.rounds.push({ projectId, users: principals.map((p) => p.userId), after });
    if (this.failWith) throw this.failWith;
    return {
      visible: principals.map((p) => !this.gone.has(p.userId)),
      events: this.events.filter((e) => e.seq > after).slice(0, limit),
    };
  };
}

class Recorder implements Follower {
  readonly seqs: number[] = [];
  failure: unknown;
  constructor(readonly principal: Principal) {}
  deliver(events: readonly FeedEventRecord[]): void {
    this.seqs.push(...events.map((e) => e.seq));
  }
  fail(error: unknown): void {
    this.failure = error;
  }
}

/** Waits until `done()` holds (a failing test ends at mocha's timeout instead). */
async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((resolve) => setTimeout(resolve, POLL_MS));
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The timers this process has pending (mocha's own for the running test among them). */
const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;

describe('FeedPolls', () => {
  let polls: FeedPolls;
  let feed: FakeFeed;
  beforeEach(() => {
    feed = new FakeFeed();
    polls = new FeedPolls({ read: feed.read, pollMs: POLL_MS });
  });
  afterEach(() => polls.close());

  it('gives the followers of one project one poll: each round reads once for all of them', async () => {
    const a = new Recorder(principal('a'));
    const b = new Recorder(principal('b'));
    polls.follow('p', 0, a);
    polls.follow('p', 0, b);
    expect(polls.running).to.equal(1);
    feed.events.push(event(1), event(2, 'a'));
    await until(() => a.seqs.length === 2 && b.seqs.length === 2);
    await until(() => feed.rounds.length >= 3);
    expect(feed.rounds.every((r) => r.projectId === 'p')).to.equal(true);
    // one read per round whatever the number of followers, each follower checked in it
    expect(feed.rounds.every((r) => r.users.join() === 'a,b')).to.equal(true);
    // every event is handed over, whoever it is for: each stream keeps what it sees
    expect(a.seqs).to.deep.equal([1, 2]);
    expect(b.seqs).to.deep.equal([1, 2]);
    // the cursor moved past what was handed over: no event is read twice
    expect(feed.rounds.at(-1)!.after).to.equal(2);
  });

  it('hands the read under way as a follower joins to that follower too (an event it commits meanwhile is not lost)', async () => {
    const a = new Recorder(principal('a'));
    // a round whose read is held until the second follower has joined
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const read = feed.read;
    let rounds = 0;
    polls = new FeedPolls({
      pollMs: POLL_MS,
      read: async (...args) => {
        rounds += 1;
        if (rounds === 2) await held;
        return read(...args);
      },
    });
    polls.follow('p', 0, a);
    await until(() => rounds === 2);
    const b = new Recorder(principal('b'));
    polls.follow('p', 0, b);
    // committed after b joined (and after its own catch-up read), read by the held round
    feed.events.push(event(1));
    release();
    await until(() => a.seqs.length === 1 && b.seqs.length === 1);
    expect(b.seqs).to.deep.equal([1]);
    feed.events.push(event(2));
    await until(() => a.seqs.length === 2 && b.seqs.length === 2);
    expect([a.seqs, b.seqs]).to.deep.equal([
      [1, 2],
      [1, 2],
    ]);
  });

  it('starts a project poll after the head its first follower gives; another project has its own', async () => {
    feed.events.push(event(1), event(2), event(3));
    const a = new Recorder(principal('a'));
    const c = new Recorder(principal('c'));
    polls.follow('p', 2, a);
    polls.follow('q', 0, c);
    expect(polls.running).to.equal(2);
    await until(() => a.seqs.length > 0 && feed.rounds.some((r) => r.projectId === 'q'));
    expect(a.seqs).to.deep.equal([3]);
    expect(feed.rounds.find((r) => r.projectId === 'p')!.after).to.equal(2);
    expect(feed.rounds.find((r) => r.projectId === 'q')!.users).to.deep.equal(['c']);
  });

  it('stops the poll when its last follower leaves, and starts a fresh one for the next', async () => {
    await pause(1); // mocha's timer for the test is set once the test began
    const idle = timers();
    const a = new Recorder(principal('a'));
    const b = new Recorder(principal('b'));
    const aLeaves = polls.follow('p', 0, a);
    const bLeaves = polls.follow('p', 0, b);
    await until(() => feed.rounds.length > 0);
    aLeaves();
    expect(polls.running, 'b still follows').to.equal(1);
    const roundsWithA = feed.rounds.length;
    await until(() => feed.rounds.length > roundsWithA + 1);
    expect(feed.rounds.at(-1)!.users).to.deep.equal(['b']);

    bLeaves();
    expect(polls.running).to.equal(0);
    const roundsBefore = feed.rounds.length;
    await pause(POLL_MS * 10);
    // a round already under way may end; no other starts, and no timer is left waiting
    expect(feed.rounds.length).to.be.at.most(roundsBefore + 1);
    expect(timers()).to.equal(idle);

    const c = new Recorder(principal('c'));
    polls.follow('p', 7, c);
    await until(() => feed.rounds.some((r) => r.users.join() === 'c'));
    expect(feed.rounds.find((r) => r.users.join() === 'c')!.after).to.equal(7);
  });

  it('fails a follower no longer seeing the project (404), the others keep following', async () => {
    const a = new Recorder(principal('a'));
    const b = new Recorder(principal('b'));
    polls.follow('p', 0, a);
    polls.follow('p', 0, b);
    await until(() => feed.rounds.length > 0);
    feed.gone.add('a');
    await until(() => a.failure !== undefined);
    expect(a.failure).to.be.instanceOf(NotFoundError);
    const failedAt = feed.rounds.length;
    feed.events.push(event(1));
    await until(() => b.seqs.length === 1);
    expect(a.seqs).to.deep.equal([]);
    expect(feed.rounds.slice(failedAt).every((r) => r.users.join() === 'b')).to.equal(true);
    expect(b.failure).to.equal(undefined);
  });

  it('fails every follower a failed read served', async () => {
    const a = new Recorder(principal('a'));
    const b = new Recorder(principal('b'));
    polls.follow('p', 0, a);
    polls.follow('p', 0, b);
    const broken = new Error('store unreachable');
    feed.failWith = broken;
    await until(() => a.failure !== undefined && b.failure !== undefined);
    expect([a.failure, b.failure]).to.deep.equal([broken, broken]);
  });

  it('close stops every poll and starts none after (the process is stopping)', async () => {
    await pause(1); // mocha's timer for the test is set once the test began
    const idle = timers();
    const a = new Recorder(principal('a'));
    polls.follow('p', 0, a);
    polls.follow('q', 0, new Recorder(principal('b')));
    await until(() => feed.rounds.length > 0);
    polls.close();
    expect(polls.running).to.equal(0);
    const roundsBefore = feed.rounds.length;
    const leave = polls.follow('r', 0, new Recorder(principal('c')));
    expect(polls.running).to.equal(0);
    await pause(POLL_MS * 10);
    expect(feed.rounds.length).to.be.at.most(roundsBefore + 2);
    expect(feed.rounds.some((r) => r.projectId === 'r')).to.equal(false);
    expect(timers(), 'no poll timer left to run a read on a closed store').to.equal(idle);
    leave();
    // not failed: their streams end on the process's stop, each with its retry hint
    expect(a.failure).to.equal(undefined);
  });
});
