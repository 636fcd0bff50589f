/**
 * The end of the recorded session: the project's feed as the reviewer reads it (a page
 * from the change request's opening on, and a few events of the Server-Sent Events
 * stream, each kept as one FeedStreamEvent {id, event, data}), the webhook's delivery
 * log once the recorder's receiver got every delivery (each signature verified), the
 * webhook deleted, and the project archived: setting rules and registering a webhook
 * are then refused. Recorded here: listProjectEvents, streamProjectEvents,
 * listWebhookDeliveries, deleteWebhook, and the 409 project_archived of
 * setProtectionRules and createWebhook.
 */
import { readEvents } from './eventStream';
import type { Story } from './orderStory';
import { RULES } from './storySetup';
import type { WebhookReceiver } from './webhookReceiver';

/** How many events of the stream become examples. */
const STREAMED = 3;
const DELIVERY_WAIT_MS = 60_000;

interface FeedEvent {
  seq: number;
  kind: string;
  verdict?: string;
}

const camel = (kind: string) => kind.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

function seqOf(events: FeedEvent[], kind: string, verdict?: string): number {
  const found = events.find(
    (e) => e.kind === kind && (verdict === undefined || e.verdict === verdict),
  );
  if (!found) throw new Error(`the feed has no ${kind} ${verdict ?? ''} event`);
  return found.seq;
}

export async function recordFeed(
  story: Story,
  baseUrl: string,
  receiver: WebhookReceiver,
): Promise<void> {
  const { session, owner, reviewer, projectId } = story;
  const feed = `/v1/projects/${projectId}/events`;
  const all = await session.send<{ events: FeedEvent[] }>(
    reviewer,
    'GET',
    `${feed}?limit=200`,
    undefined,
    200,
  );
  const opened = seqOf(all.body.events, 'change_request_opened');
  await session.send(reviewer, 'GET', `${feed}?after=${opened - 1}&limit=5`, undefined, 200, {
    operationId: 'listProjectEvents',
    name: 'fromTheChangeRequestOn',
    summary: "five events from the change request's opening on, as the reviewer reads them",
  });

  const approved = seqOf(all.body.events, 'change_request_reviewed', 'approve');
  const stream = `${feed}/stream`;
  const read = await readEvents(
    baseUrl,
    reviewer,
    stream,
    { 'Last-Event-ID': String(approved - 1) },
    STREAMED,
  );
  for (const event of read.events)
    session.keep(
      {
        operationId: 'streamProjectEvents',
        name: camel(event.event),
        summary: `a ${event.event} event of the stream`,
      },
      'GET',
      stream,
      undefined,
      { status: read.status, mediaType: read.mediaType, body: event },
    );

  const deliveries = `/v1/projects/${projectId}/webhooks/${story.webhookId}/deliveries`;
  const last = all.body.events[all.body.events.length - 1].seq;
  await allDelivered(story, deliveries, last, receiver);
  await session.send(owner, 'GET', `${deliveries}?limit=3`, undefined, 200, {
    operationId: 'listWebhookDeliveries',
    name: 'newestThree',
    summary: 'the three newest deliveries, each delivered at the first attempt',
  });
  await session.send(
    owner,
    'DELETE',
    `/v1/projects/${projectId}/webhooks/${story.webhookId}`,
    undefined,
    200,
    {
      operationId: 'deleteWebhook',
      name: 'deleted',
      summary: 'the webhook and its delivery log removed',
    },
  );

  await session.send(owner, 'PATCH', `/v1/projects/${projectId}`, { archived: true }, 200);
  await session.send(owner, 'PUT', `/v1/projects/${projectId}/protection-rules`, RULES, 409, {
    operationId: 'setProtectionRules',
    name: 'projectArchived',
    summary: 'the project is archived',
    request: false,
  });
  const hook = { url: 'https://ci.example.com/hooks/graph', secret: 'gds_example_webhook_secret' };
  await session.send(owner, 'POST', `/v1/projects/${projectId}/webhooks`, hook, 409, {
    operationId: 'createWebhook',
    name: 'projectArchived',
    summary: 'the project is archived',
    request: false,
  });
}

/**
 * Waits until the delivery log holds the newest event every member sees (`last`) and
 * nothing pending, and the receiver verified the signature of each delivery it got.
 */
async function allDelivered(story: Story, path: string, last: number, receiver: WebhookReceiver) {
  const deadline = Date.now() + DELIVERY_WAIT_MS;
  for (;;) {
    const log = await story.session.send<{ deliveries: { event_seq: number; status: string }[] }>(
      story.owner,
      'GET',
      `${path}?limit=200`,
      undefined,
      200,
    );
    const { deliveries } = log.body;
    const done =
      deliveries.some((d) => d.event_seq === last) &&
      deliveries.every((d) => d.status === 'delivered') &&
      receiver.received.length === deliveries.length;
    if (done) {
      if (receiver.received.some((r) => !r.verified))
        throw new Error('a delivery arrived with a signature the receiver could not verify');
      return;
    }
    if (Date.now() > deadline)
      throw new Error(
        `deliveries not done after ${DELIVERY_WAIT_MS} ms: ${JSON.stringify(deliveries)}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
