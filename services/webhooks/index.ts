/**
 * The webhooks service: a project's owner registers URLs that receive the project's
 * feed (the events every member sees), signed, for CI.
 *
 * - routes: webhookRoutes (createWebhook, listWebhooks, deleteWebhook,
 *   listWebhookDeliveries);
 * - worker: dispatchDeliveries, deliveryProcessor, WEBHOOKS_QUEUE;
 * - signing: signDelivery, verifyDelivery (how a receiver checks a delivery);
 * - purge: purgeProjectWebhooks, the webhooks' part of a deleted project's purge
 *   (services/purge);
 * - target rules: targetProblem, isPrivateAddress;
 * - schema: webhookSchema.
 */
export { deliveryProcessor, dispatchDeliveries, WEBHOOKS_QUEUE } from './deliveries';
export type { DeliveryJob } from './deliveries';
export { purgeProjectWebhooks } from './purgeProjectWebhooks';
export type { WebhookPurgeCounts } from './purgeProjectWebhooks';
export { signDelivery, verifyDelivery } from './signature';
export { webhookSchema } from './store/webhookQueries';
export { isPrivateAddress, targetProblem } from './targetCheck';
export { webhookRoutes } from './webhookRoutes';
