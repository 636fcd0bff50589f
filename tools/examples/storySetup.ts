/**
 * The start of the recorded session: the owner creates the project, seeds main with the
 * order graph (a branch merged before any rule exists), makes the reviewer an editor,
 * registers the CI webhook against the recorder's receiver, sets main's protection rules,
 * and forks the three branches the rest of the session works on, each with one batch.
 * Recorded here: createWebhook (and its 422), listWebhooks, setProtectionRules,
 * getProtectionRules.
 */
import { randomUUID } from 'node:crypto';
import type { Actor, ExampleSession } from './exampleSession';
import { edge, node, orderGraph, rename, Story } from './orderStory';

export const PROJECT_NAME = 'order-service';
export const RULES = { required_approvals: 1, no_error_findings: true, require_up_to_date: true };

export interface Cast {
  session: ExampleSession;
  owner: Actor;
  reviewer: Actor;
  /** Grants `actor` a role on the project (an operator's command: graphctl members add). */
  grant(projectId: string, actor: Actor, role: 'editor' | 'viewer'): Promise<void>;
  webhookUrl: string;
  webhookSecret: string;
}

/** Forks `name` and applies one batch at version 0; returns the branch id. */
async function forkWith(
  session: ExampleSession,
  owner: Actor,
  projectId: string,
  name: string,
  deltas: unknown[],
): Promise<string> {
  const fork = await session.send<{ branch: { id: string } }>(
    owner,
    'POST',
    `/v1/projects/${projectId}/branches`,
    { name },
    201,
  );
  const id = fork.body.branch.id;
  await session.send(
    owner,
    'POST',
    `/v1/branches/${id}/deltas`,
    { expected_version: 0, deltas },
    200,
  );
  return id;
}

export async function startStory(cast: Cast): Promise<Story> {
  const { session, owner, reviewer } = cast;
  const created = await session.send<{ project: { id: string }; main_branch: { id: string } }>(
    owner,
    'POST',
    '/v1/projects',
    { name: PROJECT_NAME },
    201,
  );
  const projectId = created.body.project.id;
  const mainId = created.body.main_branch.id;
  const { ids: graph, deltas } = orderGraph();
  const seed = await forkWith(session, owner, projectId, 'initial-layout', deltas);
  await session.send(owner, 'POST', `/v1/branches/${seed}/merge`, { expected_version: 1 }, 200);
  await cast.grant(projectId, reviewer, 'editor');

  const hooks = `/v1/projects/${projectId}/webhooks`;
  const webhook = await session.send<{ webhook: { id: string } }>(
    owner,
    'POST',
    hooks,
    { url: cast.webhookUrl, secret: cast.webhookSecret },
    201,
    {
      operationId: 'createWebhook',
      name: 'ciReceiver',
      summary: "a CI receiver registered by the project's owner",
    },
  );
  await session.send(
    owner,
    'POST',
    hooks,
    { url: 'ftp://ci.example.com/hooks/graph', secret: cast.webhookSecret },
    422,
    {
      operationId: 'createWebhook',
      name: 'notHttp',
      summary: 'a URL that is neither http nor https',
    },
  );
  await session.send(owner, 'GET', hooks, undefined, 200, {
    operationId: 'listWebhooks',
    name: 'oneWebhook',
    summary: "the project's one webhook, without its secret",
  });

  const rules = `/v1/projects/${projectId}/protection-rules`;
  await session.send(owner, 'PUT', rules, RULES, 200, {
    operationId: 'setProtectionRules',
    name: 'reviewedAndUpToDate',
    summary: "one approval, no error finding, based on main's current version",
  });
  await session.send(reviewer, 'GET', rules, undefined, 200, {
    operationId: 'getProtectionRules',
    name: 'setByTheOwner',
    summary: 'the rules the owner set, as a reviewer reads them',
  });

  const storeOrders = randomUUID();
  const storeIn = randomUUID();
  const reviewed = await forkWith(session, owner, projectId, 'add-order-storage', [
    node(storeOrders, 'behavior', graph.orders, {
      name: 'storeOrders',
      description: 'Writes orders to the order table.',
      inputs: [{ id: storeIn, name: 'orders', type: 'OrderList' }],
    }),
    edge(graph.readOrdersOut, storeIn),
  ]);
  const conflicting = await forkWith(session, owner, projectId, 'rename-read-step', [
    rename(graph.readOrders, 'fetchOrders'),
  ]);
  const paymentsNode = randomUUID();
  const behind = await forkWith(session, owner, projectId, 'add-payments', [
    node(paymentsNode, 'boundary', null, { name: 'payments', description: 'Charging customers.' }),
  ]);
  return {
    session,
    owner,
    reviewer,
    projectId,
    mainId,
    graph,
    reviewed,
    conflicting,
    behind,
    paymentsNode,
    webhookId: webhook.body.webhook.id,
  };
}
