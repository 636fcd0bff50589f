/** HTTP operations of the webhooks service: parse, call the command, present. */
import { created, ok, OperationTable } from '../../shared/http/operation';
import type { ServiceContext } from '../../shared/http/serviceContext';
import {
  createWebhook,
  deleteWebhook,
  DeliveryRecord,
  listDeliveries,
  listWebhooks,
  WebhookRecord,
} from './webhookCommands';

const presentWebhook = (w: WebhookRecord) => ({
  id: w.id,
  project_id: w.project_id,
  url: w.url,
  created_at: w.created_at,
  created_by: w.created_by,
});

const presentDelivery = (d: DeliveryRecord) => ({
  id: d.id,
  webhook_id: d.webhook_id,
  event_seq: d.event_seq,
  event_kind: d.event_kind,
  status: d.status,
  attempts: d.attempts,
  last_status_code: d.last_status_code ?? null,
  last_error: d.last_error ?? null,
  created_at: d.created_at,
  updated_at: d.updated_at,
});

export function webhookRoutes(ctx: ServiceContext): OperationTable {
  const version = ctx.config.serviceVersion;
  return {
    createWebhook: async (req) => {
      const { project_id } = req.params;
      const body = req.body as { url: string; secret: string };
      const webhook = await createWebhook(ctx, req.principal, project_id, body);
      return created({ webhook: presentWebhook(webhook), project_id, version });
    },
    listWebhooks: async (req) => {
      const { project_id } = req.params;
      const webhooks = await listWebhooks(ctx, req.principal, project_id);
      return ok({ webhooks: webhooks.map(presentWebhook), project_id, version });
    },
    deleteWebhook: async (req) => {
      const { project_id, webhook_id } = req.params;
      await deleteWebhook(ctx, req.principal, project_id, webhook_id);
      return ok({ deleted: true, webhook_id, project_id, version });
    },
    listWebhookDeliveries: async (req) => {
      const { project_id, webhook_id } = req.params;
      const limit = Number(req.query.limit ?? 50);
      const offset = Number(req.query.offset ?? 0);
      const page = await listDeliveries(ctx, req.principal, project_id, webhook_id, {
        limit,
        offset,
      });
      return ok({
        deliveries: page.deliveries.map(presentDelivery),
        has_more: page.hasMore,
        limit,
        offset,
        project_id,
        version,
      });
    },
  };
}
