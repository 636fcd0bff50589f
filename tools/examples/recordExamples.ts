/**
 * Records the examples of the OpenAPI document from a real session, and writes them in:
 *
 *   make examples                  (scripts/record-examples.sh: a throw-away stack, the
 *                                   service started with WEBHOOK_ALLOW_PRIVATE_TARGETS=true,
 *                                   an owner's key minted with graphctl, then this tool)
 *   npx tsx tools/examples/recordExamples.ts --url URL --token OWNER_KEY \
 *     [--document openapi/graph-design-service.yaml] [--receiver-port 0]
 *
 * Why recorded: the docs page shows these examples to API callers as what the service
 * answers. Written by hand they drift from the service (a field added, a message
 * reworded, a conflict described differently); recorded, each one is an answer the
 * service really gave, to a request it really got, in one coherent session: the ids in
 * one example are the ids of the others.
 *
 * The session (storySetup, reviewScript, rebaseScript, feedScript): an owner (the key
 * given) and a reviewer (user `grace`, minted here and made an editor through Neo4j,
 * NEO4J_URI, as graphctl does) work on a project `order-service`: protection rules, a
 * change request with an anchored comment, a reply, changes requested, a blocked merge,
 * an approval and a merge; a rebase with a conflict and its resolution; node history;
 * the feed as a page and as an SSE stream; a webhook delivering to a receiver this tool
 * runs on loopback. It needs a fresh service (the project name is fixed, so that a rerun
 * changes only ids and timestamps in the document). Keys and the webhook's secret never
 * reach the document: they are shown as `gds_example...` values; the receiver's loopback
 * URL is shown as https://ci.example.com/hooks/graph.
 */
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { loadConfig } from '../../shared/config/config';
import { createLogger } from '../../shared/logging/logger';
import { Executor } from '../../shared/neo4j/executor';
import { addMember, createApiKey } from '../../services/identity';
import { writeExamples } from './documentExamples';
import { Actor, Capture, ExampleSession } from './exampleSession';
import { recordFeed } from './feedScript';
import { recordRebases } from './rebaseScript';
import { recordReviews } from './reviewScript';
import { startStory } from './storySetup';
import { startWebhookReceiver } from './webhookReceiver';

const SHOWN_URL = 'https://ci.example.com/hooks/graph';
const SHOWN_SECRET = 'gds_example_webhook_secret';
const SHOWN_KEY = 'gds_example_api_key';
const REVIEWER = 'grace';

/** Throws unless the service answers and takes the key given. */
async function checkKey(baseUrl: string, token: string): Promise<void> {
  const res = await fetch(`${baseUrl}/v1/projects?limit=1`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  if (res.status !== 200)
    throw new Error(`the key given is refused: ${res.status} ${await res.text()}`);
}

/** Throws when a secret of the session is in what would be written. */
function checkNoSecrets(captures: Capture[], secrets: string[]): void {
  const text = JSON.stringify(captures);
  if (secrets.some((secret) => text.includes(secret)) || /gds_(?!example)/.test(text))
    throw new Error('a secret of the session would reach the document');
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      url: { type: 'string' },
      token: { type: 'string' },
      document: { type: 'string', default: 'openapi/graph-design-service.yaml' },
      'receiver-port': { type: 'string', default: '0' },
    },
  });
  if (!values.url || !values.token)
    throw new Error('usage: recordExamples.ts --url URL --token KEY');
  const baseUrl = values.url.replace(/\/$/, '');
  await checkKey(baseUrl, values.token);
  const owner: Actor = { name: 'owner', token: values.token };
  const config = loadConfig();
  const logger = createLogger({ level: 'warn', name: 'record-examples', toStderr: true });
  const executor = new Executor({ ...config.neo4j, logger });
  const secret = randomBytes(24).toString('hex');
  const receiver = await startWebhookReceiver(secret, Number(values['receiver-port']));
  try {
    const key = await createApiKey(executor, {
      user: REVIEWER,
      scopes: ['graph:write'],
      projects: null,
    });
    const reviewer: Actor = { name: REVIEWER, token: key.token };
    const session = new ExampleSession(baseUrl);
    for (const token of [owner.token, reviewer.token]) session.substitute(token, SHOWN_KEY);
    session.substitute(secret, SHOWN_SECRET);
    session.substitute(receiver.url, SHOWN_URL);
    const story = await startStory({
      session,
      owner,
      reviewer,
      grant: async (projectId, actor, role) => {
        await addMember(executor, { projectId, user: actor.name, role });
      },
      webhookUrl: receiver.url,
      webhookSecret: secret,
    });
    await recordReviews(story);
    await recordRebases(story);
    await recordFeed(story, baseUrl, receiver);
    checkNoSecrets(session.captures, [owner.token, reviewer.token, secret]);
    for (const line of writeExamples(values.document, session.captures))
      process.stdout.write(`${line}\n`);
    process.stdout.write(`recorded ${session.captures.length} examples into ${values.document}\n`);
  } finally {
    await receiver.close();
    await executor.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(
    `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
