/** Cypher of the webhooks service: webhooks (with their feed cursor) and deliveries. */
import { join } from 'node:path';
import { cypher } from '../../../shared/neo4j/namedQuery';
import { statementsIn } from '../../../shared/neo4j/statementFiles';

const statement = statementsIn(join(__dirname, 'statements'));

export const webhookSchema = [
  cypher(
    'webhookIdUnique',
    'CREATE CONSTRAINT webhook_id IF NOT EXISTS FOR (w:Webhook) REQUIRE w.id IS UNIQUE',
  ),
  cypher(
    'webhookProjectIndex',
    'CREATE INDEX webhook_project IF NOT EXISTS FOR (w:Webhook) ON (w.project_id)',
  ),
  cypher(
    'webhookDeliveryIdUnique',
    `CREATE CONSTRAINT webhook_delivery_id IF NOT EXISTS
     FOR (d:WebhookDelivery) REQUIRE d.id IS UNIQUE`,
  ),
  cypher(
    'webhookDeliveryOrderIndex',
    `CREATE INDEX webhook_delivery_order IF NOT EXISTS
     FOR (d:WebhookDelivery) ON (d.webhook_id, d.event_seq)`,
  ),
  // the purge of a deleted project finds its deliveries by project, after its webhooks
  cypher(
    'webhookDeliveryProjectIndex',
    `CREATE INDEX webhook_delivery_project IF NOT EXISTS
     FOR (d:WebhookDelivery) ON (d.project_id)`,
  ),
];

/** The fields shown of a webhook: never its secret. */
const SHOWN = 'w {.id, .project_id, .url, .created_at, .created_by} AS webhook';

export const countWebhooks = cypher(
  'countWebhooksOfProject',
  'MATCH (w:Webhook {project_id: $projectId}) RETURN count(w) AS total',
);

/** A new webhook starts after the feed's newest event: it is sent what happens from now on. */
export const createWebhook = cypher(
  'createWebhook',
  `OPTIONAL MATCH (h:FeedHead {project_id: $projectId})
   CREATE (w:Webhook {id: $id, project_id: $projectId, url: $url, secret: $secret,
                      created_at: $now, created_by: $userId, cursor: coalesce(h.seq, 0)})
   RETURN ${SHOWN}`,
);

export const listWebhooksOf = cypher(
  'listWebhooksOfProject',
  `MATCH (w:Webhook {project_id: $projectId})
   RETURN ${SHOWN} ORDER BY w.created_at, w.id`,
);

export const findWebhook = cypher(
  'findWebhook',
  `MATCH (w:Webhook {id: $id, project_id: $projectId}) RETURN ${SHOWN}`,
);

export const deleteWebhookAndLog = cypher(
  'deleteWebhookAndLog',
  `MATCH (w:Webhook {id: $id, project_id: $projectId})
   OPTIONAL MATCH (d:WebhookDelivery {webhook_id: w.id})
   DETACH DELETE d
   WITH DISTINCT w
   DETACH DELETE w
   RETURN true AS deleted`,
);

export const deliveriesPage = cypher(
  'webhookDeliveriesPage',
  `MATCH (d:WebhookDelivery)
   WHERE d.webhook_id = $webhookId AND d.event_seq > 0
   RETURN d {.*} AS delivery
   ORDER BY d.event_seq DESC
   SKIP toInteger($offset) LIMIT toInteger($limit) + 1`,
);

/**
 * Every webhook's id and project (the dispatcher's round; webhooks are few), but those
 * of a deleted project: its purge removes them.
 */
export const allWebhooks = cypher(
  'allWebhooks',
  `MATCH (w:Webhook)
   WHERE EXISTS { MATCH (p:Project {id: w.project_id}) WHERE p.deleted_at IS NULL }
   RETURN w.id AS id, w.project_id AS projectId`,
);

/**
 * Webhook $id under its lock, with its cursor, read after the lock; no row when it is
 * gone or its project is deleted (read after the lock too: a project deleted since the
 * round began gets no new deliveries).
 */
export const lockWebhook = cypher(
  'lockWebhook',
  `MATCH (w:Webhook {id: $id})
   SET w.lock_seq = coalesce(w.lock_seq, 0) + 1
   WITH w
   MATCH (p:Project {id: w.project_id})
   WHERE p.deleted_at IS NULL
   RETURN w.cursor AS cursor, w.project_id AS projectId`,
);

/** Deliveries $rows of webhook $id created and its cursor moved past them, at once. */
export const createDeliveries = cypher(
  'createWebhookDeliveries',
  `MATCH (w:Webhook {id: $id})
   SET w.cursor = toInteger($cursor)
   WITH w
   UNWIND $rows AS row
   CREATE (d:WebhookDelivery {id: row.id, webhook_id: w.id, project_id: w.project_id,
                              event_seq: toInteger(row.seq), event_kind: row.kind,
                              status: 'pending', attempts: 0, last_status_code: null,
                              last_error: null, created_at: $now, updated_at: $now})
   RETURN d.id AS id`,
);

/**
 * A delivery with its webhook's url and secret and its event; none when the webhook was
 * deleted meanwhile, or its project: a deleted project's deliveries are never sent, from
 * the moment it is deleted (its purge then removes them).
 */
export const deliveryToSend = cypher(
  'webhookDeliveryToSend',
  `MATCH (d:WebhookDelivery {id: $id})
   MATCH (p:Project {id: d.project_id})
   WHERE p.deleted_at IS NULL
   MATCH (w:Webhook {id: d.webhook_id})
   MATCH (e:FeedEvent {project_id: d.project_id, seq: d.event_seq})
   RETURN d {.*} AS delivery, w.url AS url, w.secret AS secret, e {.*} AS event`,
);

export const recordAttempt = cypher(
  'recordWebhookAttempt',
  `MATCH (d:WebhookDelivery {id: $id})
   SET d.attempts = d.attempts + 1, d.status = $status,
       d.last_status_code = CASE WHEN $statusCode IS NULL THEN null ELSE toInteger($statusCode) END,
       d.last_error = $error, d.updated_at = $now
   RETURN d.attempts AS attempts`,
);

// The purge of a deleted project's webhooks (purgeProjectWebhooks.ts), batched deletes
// (shared/neo4j/batchedDelete.ts) kept whole in statements/.

/** The project's webhooks, through (project_id). */
export const purgeWebhooks = statement('purgeWebhooks');
/** The project's deliveries, through (project_id): after the webhooks. */
export const purgeWebhookDeliveries = statement('purgeWebhookDeliveries');
