/** Cypher of the feed service: the per-project event sequence and its index. */
import { join } from 'node:path';
import { cypher } from '../../../shared/neo4j/namedQuery';
import { statementsIn } from '../../../shared/neo4j/statementFiles';

const statement = statementsIn(join(__dirname, 'statements'));

export const feedSchema = [
  // one head per project holds the last seq given out: writers of a project take its
  // lock in turn, so seqs increase by one in commit order
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
];

/**
 * Appends one event to project $projectId's feed: the head's seq advances by one under
 * its lock (MERGE creates the head of a project's first event) and the event takes it.
 */
export const appendEvent = cypher(
  'appendFeedEvent',
  `MERGE (h:FeedHead {project_id: $projectId})
     ON CREATE SET h.seq = 0
   SET h.seq = h.seq + 1
   CREATE (e:FeedEvent {project_id: $projectId, seq: h.seq, kind: $kind,
                        branch_id: $branchId, branch_version: toInteger($branchVersion),
                        change_request_id: $changeRequestId, review_id: $reviewId,
                        verdict: $verdict, actor_id: $actorId, created_at: $now,
                        audience: $audience})
   RETURN e.seq AS seq`,
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
/** The project's events, through the (project_id, seq) index. */
export const purgeFeedEvents = statement('purgeFeedEvents');
