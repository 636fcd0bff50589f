/**
 * The webhooks' part of the purge of a deleted project (services/purge calls it, for a
 * project it has found deleted, before it removes the project node): its webhooks, then
 * their delivery log, in batches. The webhooks go first: a dispatch still in flight
 * holds its webhook's lock (deliveries.ts), so the deliveries it creates have committed
 * before their webhook is deleted, and the deliveries' delete (by project) then finds
 * them; with no webhook left, no delivery can be created after it. Deliveries still
 * queued in BullMQ are never sent (deliveryProcessor finds no delivery of a deleted
 * project) and end as they run. Idempotent: a rerun finds nothing.
 */
import { countDeleted } from '../../shared/neo4j/batchedDelete';
import type { Executor } from '../../shared/neo4j/executor';
import { purgeWebhookDeliveries, purgeWebhooks } from './store/webhookQueries';

export interface WebhookPurgeCounts {
  webhooks: number;
  webhookDeliveries: number;
}

export async function purgeProjectWebhooks(
  executor: Executor,
  projectId: string,
): Promise<WebhookPurgeCounts> {
  const webhooks = await countDeleted(executor, purgeWebhooks, { projectId });
  const webhookDeliveries = await countDeleted(executor, purgeWebhookDeliveries, { projectId });
  return { webhooks, webhookDeliveries };
}
