/**
 * The one module that writes a project's feed: every event is written by recordEvent,
 * inside the transaction of the change it describes, so a change that commits has its
 * event and a change rolled back leaves none. It is written pending and takes its seq
 * once committed, when a reader publishes it (commands/publishPending.ts). Kinds are
 * those of FeedEventKind.
 */
import type { components } from '../../shared/api/openapi.generated';
import type { QueryRunner } from '../../shared/neo4j/namedQuery';
import { writePendingEvent } from './store/feedQueries';

export type FeedEventKind = components['schemas']['FeedEventKind'];
export type Verdict = components['schemas']['ReviewVerdict'];

/** An event as stored. */
export interface FeedEventRecord {
  project_id: string;
  seq: number;
  kind: FeedEventKind;
  branch_id: string | null;
  branch_version: number | null;
  change_request_id: string | null;
  review_id: string | null;
  verdict: Verdict | null;
  actor_id: string;
  created_at: string;
  /** The only user who sees it (a working branch's own events), or null: every member. */
  audience: string | null;
}

/**
 * Whether user `userId` sees `event` (null: a reader acting for every member, such as a
 * webhook): an event with an audience is only for that user. The one place this rule is
 * applied: pages (eventsAfter) and each stream sharing a project's poll filter with it.
 */
export function seenBy(event: FeedEventRecord, userId: string | null): boolean {
  // a null property is not stored: an event for every member reads back without one
  const audience = event.audience ?? null;
  return audience === null || audience === userId;
}

export interface FeedEventInput {
  projectId: string;
  kind: FeedEventKind;
  actorId: string;
  now: string;
  branchId?: string;
  branchVersion?: number;
  changeRequestId?: string;
  reviewId?: string;
  verdict?: Verdict;
  /**
   * Set for an event of a working branch's own (forked, batch applied, rebased): only the
   * branch's owner sees it, as only the owner sees the branch (branchAudience).
   */
  onlyFor?: string;
}

/**
 * Who sees the events of a working branch: its owner, as only the owner reads the branch;
 * every member while the branch is under review (its change request is open, and members
 * read the branch to review it), so that a reviewer's page follows the branch as it moves.
 */
export function branchAudience(branch: {
  owner_id: string;
  under_review?: boolean | null;
}): string | undefined {
  return branch.under_review ? undefined : branch.owner_id;
}

/** Writes `event` to its project's feed in `tx`, pending until it is published. */
export async function recordEvent(tx: QueryRunner, event: FeedEventInput): Promise<void> {
  await tx.run(writePendingEvent, {
    projectId: event.projectId,
    kind: event.kind,
    branchId: event.branchId ?? null,
    branchVersion: event.branchVersion ?? null,
    changeRequestId: event.changeRequestId ?? null,
    reviewId: event.reviewId ?? null,
    verdict: event.verdict ?? null,
    actorId: event.actorId,
    now: event.now,
    audience: event.onlyFor ?? null,
  });
}

/**
 * The event a rebase of working branch `branch` writes in its transaction (rebaseBranch),
 * at the branch's new `version`: seen as the other events of its branch (branchAudience).
 */
export function recordRebased(
  tx: QueryRunner,
  input: {
    branch: { id: string; project_id: string; owner_id: string; under_review?: boolean | null };
    actorId: string;
    version: number;
    now: string;
  },
): Promise<void> {
  const { branch } = input;
  return recordEvent(tx, {
    projectId: branch.project_id,
    kind: 'branch_rebased',
    actorId: input.actorId,
    now: input.now,
    branchId: branch.id,
    branchVersion: input.version,
    onlyFor: branchAudience(branch),
  });
}
