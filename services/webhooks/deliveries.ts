/**
 * Delivering the feed to webhooks, in the worker:
 *
 * - dispatchDeliveries: for each webhook of a project not deleted, under its lock, the
 *   events after its cursor that every member sees (read from the feed's index) become
 *   delivery records and the cursor moves past them, in one transaction: an event is
 *   handed to a webhook once, and none is skipped. The worker runs it every
 *   WEBHOOK_DISPATCH_MS and queues a job per delivery (jobId: the delivery's id, so a
 *   repeat adds nothing).
 * - deliveryProcessor: one attempt of one delivery; none once the webhook or its project
 *   is deleted (a queued job then ends without sending). The target is checked first
 *   (targetCheck.ts: refused is final, logged `refused`); the body is the FeedEvent,
 *   signed (signature.ts). A 2xx is `delivered`; anything else is logged and thrown, so
 *   BullMQ retries it with exponential backoff (WEBHOOK_ATTEMPTS, WEBHOOK_BACKOFF_MS);
 *   the last failed attempt leaves it `failed`.
 */
import { randomUUID } from 'node:crypto';
import { UnrecoverableError, type Job } from 'bullmq';
import type { Config } from '../../shared/config/config';
import { nowTimestamp } from '../../shared/http/timestamps';
import type { Executor } from '../../shared/neo4j/executor';
import { eventsAfter, FeedEventRecord, presentEvent, publishPending } from '../feed';
import {
  allWebhooks,
  createDeliveries,
  deliveryToSend,
  lockWebhook,
  recordAttempt,
} from './store/webhookQueries';
import { signDelivery, SIGNATURE_HEADER, TIMESTAMP_HEADER } from './signature';
import { targetProblem } from './targetCheck';

export const WEBHOOKS_QUEUE = 'webhooks';
const BATCH = 100;

export interface DeliveryJob {
  delivery_id: string;
}

/** Creates the deliveries of new events; returns their ids, to be queued. */
export async function dispatchDeliveries(executor: Executor): Promise<string[]> {
  const hooks = await executor.readTx((tx) =>
    tx.run<{ id: string; projectId: string }>(allWebhooks),
  );
  // the events committed so far take their seqs before the webhooks read past them
  for (const projectId of new Set(hooks.map((h) => h.projectId)))
    await publishPending(executor, projectId);
  const created: string[] = [];
  for (const { id } of hooks) {
    const ids = await executor.writeTx(async (tx) => {
      const hook = await tx.one<{ cursor: number; projectId: string }>(lockWebhook, { id });
      if (!hook) return [];
      const page = await eventsAfter(tx, hook.projectId, null, hook.cursor, BATCH);
      if (page.events.length === 0) return [];
      const rows = page.events.map((e) => ({ id: randomUUID(), seq: e.seq, kind: e.kind }));
      await tx.run(createDeliveries, { id, cursor: page.nextAfter, rows, now: nowTimestamp() });
      return rows.map((r) => r.id);
    });
    created.push(...ids);
  }
  return created;
}

/** One attempt of the delivery a job names. */
export function deliveryProcessor(executor: Executor, config: Config) {
  return async (job: Job<DeliveryJob>): Promise<void> => {
    const id = job.data.delivery_id;
    const found = await executor.readTx((tx) =>
      tx.one<{ url: string; secret: string; event: FeedEventRecord }>(deliveryToSend, { id }),
    );
    if (!found) return; // the webhook or its project was deleted meanwhile: never sent
    const attempt = (status: string, statusCode: number | null, error: string | null) =>
      executor.writeTx((tx) =>
        tx.run(recordAttempt, { id, status, statusCode, error, now: nowTimestamp() }),
      );
    const refused = await targetProblem(found.url, config.webhooks.allowPrivateTargets);
    if (refused) {
      await attempt('refused', null, refused);
      throw new UnrecoverableError(refused);
    }
    const body = JSON.stringify(presentEvent(found.event));
    const timestamp = Math.floor(Date.now() / 1000);
    const last = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
    let failure: { code: number | null; error: string };
    try {
      const response = await fetch(found.url, {
        method: 'POST',
        redirect: 'manual',
        headers: {
          'Content-Type': 'application/json',
          'User-Agent': 'graph-design-service-webhooks',
          'X-Graph-Webhook-Id': String(job.data.delivery_id),
          'X-Graph-Event-Seq': String(found.event.seq),
          [TIMESTAMP_HEADER]: String(timestamp),
          [SIGNATURE_HEADER]: signDelivery(found.secret, timestamp, body),
        },
        body,
        signal: AbortSignal.timeout(config.webhooks.timeoutMs),
      });
      await response.body?.cancel();
      if (response.status >= 200 && response.status < 300) {
        await attempt('delivered', response.status, null);
        return;
      }
      failure = { code: response.status, error: `the target answered ${response.status}` };
    } catch (error) {
      failure = { code: null, error: (error as Error).message };
    }
    await attempt(last ? 'failed' : 'pending', failure.code, failure.error);
    throw new Error(failure.error);
  };
}
