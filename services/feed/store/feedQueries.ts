/** Cypher of the feed service: the per-project event sequence and its index. */
import { join } from 'node:path';
import { cypher } from '../../../shared/neo4j/namedQuery';
import { statementsIn } from '../../../shared/neo4j/statementFiles';

const statement = statementsIn(join(__dirname, 'statements'));

export const feedSchema = [
  // one head per project holds the last seq given out: publishers of a project take its
  // lock in turn (publishPending), so seqs increase by one, each given to a committed event
  cypher(
    'feedHeadUnique',
    'CREATE CONSTRAINT feed_head IF NOT EXISTS FOR (h:FeedHead) REQUIRE h.project_id IS UNIQUE',
  ),
  // the feed is read from this index in seq order, never by scanning a project's history
  cypher(
    'feedEventSeqUnique',
    `CREATE CONSTRAINT feed_event_seq IF NOT EXISTS
     FOR (e:FeedEvent) REQUIRE (e.project_id, e.seq) IS UNIQUE`,
  ),
  // a project's events written and not yet given a seq: what its next publish finds
  cypher(
    'feedPendingIndex',
    'CREATE INDEX feed_pending IF NOT EXISTS FOR (e:FeedPending) ON (e.project_id)',
  ),
];

/**
 * Writes one event of project $projectId, pending: no seq yet, so the writer takes no lock
 * shared with the project's other writers. It is timed by the store's clock as it is
 * written (written_at: the real time, not the transaction's, so that two events of one
 * transaction keep their order), which orders it among the events published with it.
 */
export const writePendingEvent = cypher(
  'writePendingFeedEvent',
  `CREATE (:FeedEvent:FeedPending {project_id: $projectId, written_at: datetime.realtime(), kind: $kind,
                                   branch_id: $branchId,
                                   branch_version: toInteger($branchVersion),
                                   change_request_id: $changeRequestId, review_id: $reviewId,
                                   verdict: $verdict, actor_id: $actorId, created_at: $now,
                                   audience: $audience})`,
);

/** Whether project $projectId has events written and not yet published. */
export const hasPendingEvents = cypher(
  'feedHasPending',
  `RETURN EXISTS {
     MATCH (e:FeedPending) USING INDEX e:FeedPending(project_id)
     WHERE e.project_id = $projectId
   } AS pending`,
);

/**
 * Project $projectId's head under its write lock (MERGE creates the head of a project's
 * first event): the publishers of one project go one at a time, and each reads the
 * pending events after the one before it committed.
 */
export const lockFeedHead = cypher(
  'lockFeedHead',
  `MERGE (h:FeedHead {project_id: $projectId})
     ON CREATE SET h.seq = 0
   SET h.published_at = datetime.realtime()
   RETURN h.seq AS seq`,
);

/**
 * Publishes up to $limit pending events of project $projectId (its head locked by
 * lockFeedHead): in the order they were written (the store's clock, then the branch
 * version, as one branch's events are written one after another under its lock), each takes
 * the next seq and leaves the pending index; the head keeps the last seq given out.
 */
export const publishPendingEvents = cypher(
  'publishPendingFeedEvents',
  `MATCH (h:FeedHead {project_id: $projectId})
   CALL (h) {
     MATCH (e:FeedPending) USING INDEX e:FeedPending(project_id)
     WHERE e.project_id = $projectId
     WITH e
     ORDER BY e.written_at, e.branch_version, elementId(e)
     LIMIT toInteger($limit)
     RETURN collect(e) AS events
   }
   UNWIND range(0, size(events) - 1) AS i
   WITH h, events[i] AS e, h.seq + 1 + i AS seq
   SET e.seq = seq
   REMOVE e:FeedPending, e.written_at
   WITH h, max(seq) AS last, count(*) AS published
   SET h.seq = last
   RETURN published`,
);

/**
 * The events of project $projectId after seq $after, in seq order, whoever they are for
 * (the reader applies seenBy): a range seek on the (project_id, seq) index.
 */
export const feedPage = cypher(
  'feedPage',
  `MATCH (e:FeedEvent)
   USING INDEX e:FeedEvent(project_id, seq)
   WHERE e.project_id = $projectId AND e.seq > $after
   RETURN e {.*} AS event
   ORDER BY e.seq
   LIMIT toInteger($limit)`,
);

/** The last seq given out in project $projectId (0 before its first event). */
export const lastSeq = cypher(
  'feedLastSeq',
  `OPTIONAL MATCH (h:FeedHead {project_id: $projectId})
   RETURN coalesce(h.seq, 0) AS seq`,
);

// The purge of a deleted project's feed (purgeProjectFeed.ts), batched deletes
// (shared/neo4j/batchedDelete.ts) kept whole in statements/.

/** The project's head. */
export const purgeFeedHead = statement('purgeFeedHead');
/** The project's published events, through the (project_id, seq) index. */
export const purgeFeedEvents = statement('purgeFeedEvents');
/** The project's events never published, through the pending index. */
export const purgeFeedPending = statement('purgeFeedPending');
