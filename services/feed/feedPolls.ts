/**
 * One poll of the feed's index per project and process, shared by every open stream of
 * that project in the process (streamProjectEvents): the first follower starts the
 * project's poll, the last one leaving stops it. The poll keeps its own cursor and, every
 * FEED_POLL_MS (at once while a read came back full), reads the events after it — every
 * event, whoever it is for — and hands them to each follower, which keeps those its caller
 * sees (seenBy). In the same read transaction it checks, in one statement, that the project
 * is still visible to each follower (visibleToEach): a follower that lost it is failed with
 * the NotFoundError its own poll used to raise, at the same poll.
 *
 * A poll does not run for any one caller: it runs in the scope this registry was made in
 * (at start-up), so a follower hanging up never cancels the others' reads.
 *
 * No gap: a seq is given only to a committed event, above every seq given before it
 * (publishPending), so the poll's cursor never passes an event still to come. A follower
 * joins first and catches up with reads of its own after: what the poll handed out before
 * the follower joined was committed before that, so the follower's own reads find it;
 * what a later read finds reaches its inbox. That includes the read under way as it
 * joins: its statements see what commits while it runs (Neo4j reads what is committed,
 * not a snapshot), so it can hand out an event committed after the follower's own reads
 * ran, with the poll's cursor then past it. The joiner gets that read's events too; it
 * was found visible as it opened, and the next round checks it with the others.
 */
import { AsyncResource } from 'node:async_hooks';
import { NotFoundError } from '../../shared/errors/domainErrors';
import type { Principal } from '../../shared/http/principal';
import type { Executor } from '../../shared/neo4j/executor';
import { visibleToEach } from '../identity';
import { readPublished } from './commands/publishPending';
import { allEventsAfter } from './commands/readFeed';
import type { FeedEventRecord } from './feedEvent';

const PAGE = 100;

/**
 * One round of a project's poll: whether the project is visible to each of `principals`
 * (in their order), and up to `limit` events after seq `after`, whoever they are for.
 */
export type PollRead = (
  projectId: string,
  principals: readonly Principal[],
  after: number,
  limit: number,
) => Promise<{ visible: boolean[]; events: FeedEventRecord[] }>;

/** The poll's round as one read transaction of `executor`. */
export function feedPollRead(executor: Executor): PollRead {
  return (projectId, principals, after, limit) =>
    readPublished(executor, projectId, async (tx) => ({
      visible: await visibleToEach(tx, principals, projectId),
      events: await allEventsAfter(tx, projectId, after, limit),
    }));
}

/** What a poll hands to one follower. */
export interface Follower {
  /** The caller whose view of the project each poll checks. */
  principal: Principal;
  /** Events after the poll's cursor, in seq order, whoever they are for. */
  deliver(events: readonly FeedEventRecord[]): void;
  /** The follower's stream ends with `error` (the project is gone for it, a read failed). */
  fail(error: unknown): void;
}

export class FeedPolls {
  private readonly polls = new Map<string, ProjectPoll>();
  /** The start-up scope polls run in (no caller's cancellation, bookmarks or trace). */
  private readonly scope = new AsyncResource('FeedPolls');

  private closed = false;

  constructor(private readonly options: { read: PollRead; pollMs: number }) {}

  /**
   * Adds `follower` to project `projectId`'s poll, starting it after seq `head` (a seq
   * committed before this call) when the project has none; returns the way out. Once
   * the registry is closed nothing starts: the follower is given nothing (its stream is
   * ending with the process).
   */
  follow(projectId: string, head: number, follower: Follower): () => void {
    if (this.closed) return () => undefined;
    let poll = this.polls.get(projectId);
    if (!poll) {
      const started = new ProjectPoll(this.options.read, projectId, head);
      this.polls.set(projectId, started);
      this.scope.runInAsyncScope(() => started.start(this.options.pollMs));
      poll = started;
    }
    const joined = poll;
    joined.followers.add(follower);
    return () => {
      joined.followers.delete(follower);
      if (joined.followers.size > 0) return;
      joined.stop();
      if (this.polls.get(projectId) === joined) this.polls.delete(projectId);
    };
  }

  /** How many projects have a poll running (each stopped when its last follower left). */
  get running(): number {
    return this.polls.size;
  }

  /**
   * Stops every poll and starts no other (the process is stopping): no timer is left to
   * run a read after the store is closed. Followers are not failed: their streams end
   * on the same stop, each as it chooses.
   */
  close(): void {
    this.closed = true;
    for (const poll of this.polls.values()) poll.stop();
    this.polls.clear();
  }
}

class ProjectPoll {
  readonly followers = new Set<Follower>();
  private stopped = false;
  private timer: NodeJS.Timeout | undefined;
  private wake: (() => void) | undefined;

  constructor(
    private readonly read: PollRead,
    private readonly projectId: string,
    private cursor: number,
  ) {}

  start(pollMs: number): void {
    void this.run(pollMs);
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.wake?.();
  }

  private async run(pollMs: number): Promise<void> {
    while (!this.stopped) {
      const full = await this.pollOnce();
      if (!full && !this.stopped) await this.pause(pollMs);
    }
  }

  private pause(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      this.wake = resolve;
      this.timer = setTimeout(resolve, ms);
    });
  }

  /** One read for every follower now; true when it came back full (more to read). */
  private async pollOnce(): Promise<boolean> {
    const followers = [...this.followers];
    if (followers.length === 0) return false;
    let read: { visible: boolean[]; events: FeedEventRecord[] };
    try {
      read = await this.read(
        this.projectId,
        followers.map((f) => f.principal),
        this.cursor,
        PAGE,
      );
    } catch (error) {
      if (this.stopped) return false; // stopped meanwhile: the store may be closing
      // as when each stream polled on its own: a failed read ends the streams it served
      for (const follower of followers) if (this.followers.delete(follower)) follower.fail(error);
      return false;
    }
    if (read.events.length > 0) this.cursor = read.events[read.events.length - 1].seq;
    const checked = new Map(followers.map((follower, i) => [follower, read.visible[i]]));
    for (const follower of [...this.followers]) {
      // one that joined while the read ran is not in `checked`: it gets the events
      if (checked.get(follower) === false) {
        this.followers.delete(follower);
        follower.fail(new NotFoundError('project'));
      } else follower.deliver(read.events);
    }
    return read.events.length === PAGE;
  }
}
