/**
 * createWebhook, listWebhooks, deleteWebhook, listWebhookDeliveries: the project's owner
 * only (anyone else gets the 404 of a missing project, as for its other owner-only
 * routes); create and delete need graph:write and a project that is not archived. A
 * secret is stored to sign deliveries and never returned.
 */
import { randomUUID } from 'node:crypto';
import { InvalidInputError, NotFoundError } from '../../shared/errors/domainErrors';
import type { Principal } from '../../shared/http/principal';
import type { ServiceContext } from '../../shared/http/serviceContext';
import { nowTimestamp } from '../../shared/http/timestamps';
import { requireProjectActive } from '../branches';
import { ownedProject, requireScope } from '../identity';
import {
  countWebhooks,
  createWebhook as createWebhookQuery,
  deleteWebhookAndLog,
  deliveriesPage,
  findWebhook,
  listWebhooksOf,
} from './store/webhookQueries';
import { urlProblem } from './targetCheck';
import { publishPending } from '../feed';

export const WEBHOOKS_PER_PROJECT = 10;

export interface WebhookRecord {
  id: string;
  project_id: string;
  url: string;
  created_at: string;
  created_by: string;
}

export interface DeliveryRecord {
  id: string;
  webhook_id: string;
  event_seq: number;
  event_kind: string;
  status: 'pending' | 'delivered' | 'failed' | 'refused';
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

export async function createWebhook(
  ctx: ServiceContext,
  principal: Principal,
  projectId: string,
  body: { url: string; secret: string },
): Promise<WebhookRecord> {
  // the webhook starts after the feed's newest seq: what committed before it is published
  // first, so that it is not sent as new
  await publishPending(ctx.executor, projectId);
  return ctx.executor.writeTx(async (tx) => {
    const grant = await ownedProject(tx, principal, projectId);
    requireScope(principal, 'graph:write');
    requireProjectActive(grant);
    const problem = urlProblem(body.url);
    if (problem) throw new InvalidInputError('invalid_webhook_url', problem);
    const count = await tx.one<{ total: number }>(countWebhooks, { projectId });
    if ((count?.total ?? 0) >= WEBHOOKS_PER_PROJECT) {
      throw new InvalidInputError(
        'webhook_limit_reached',
        `a project has at most ${WEBHOOKS_PER_PROJECT} webhooks`,
      );
    }
    const row = await tx.one<{ webhook: WebhookRecord }>(createWebhookQuery, {
      id: randomUUID(),
      projectId,
      url: body.url,
      secret: body.secret,
      now: nowTimestamp(),
      userId: principal.userId,
    });
    if (!row) throw new Error('the webhook was not created');
    return row.webhook;
  });
}

export async function listWebhooks(
  ctx: ServiceContext,
  principal: Principal,
  projectId: string,
): Promise<WebhookRecord[]> {
  return ctx.executor.readTx(async (tx) => {
    await ownedProject(tx, principal, projectId);
    const rows = await tx.run<{ webhook: WebhookRecord }>(listWebhooksOf, { projectId });
    return rows.map((r) => r.webhook);
  });
}

export async function deleteWebhook(
  ctx: ServiceContext,
  principal: Principal,
  projectId: string,
  webhookId: string,
): Promise<void> {
  await ctx.executor.writeTx(async (tx) => {
    await ownedProject(tx, principal, projectId);
    requireScope(principal, 'graph:write');
    const row = await tx.one(deleteWebhookAndLog, { id: webhookId, projectId });
    if (!row) throw new NotFoundError('webhook');
  });
}

export async function listDeliveries(
  ctx: ServiceContext,
  principal: Principal,
  projectId: string,
  webhookId: string,
  page: { limit: number; offset: number },
): Promise<{ deliveries: DeliveryRecord[]; hasMore: boolean }> {
  return ctx.executor.readTx(async (tx) => {
    await ownedProject(tx, principal, projectId);
    if (!(await tx.one(findWebhook, { id: webhookId, projectId })))
      throw new NotFoundError('webhook');
    const rows = await tx.run<{ delivery: DeliveryRecord }>(deliveriesPage, {
      webhookId,
      ...page,
    });
    return {
      deliveries: rows.slice(0, page.limit).map((r) => r.delivery),
      hasMore: rows.length > page.limit,
    };
  });
}
