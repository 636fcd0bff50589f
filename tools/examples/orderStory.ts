/**
 * The graph the recorded session works on, and what the session's parts hand each other.
 * A small order service: an `orders` boundary holding `readOrders` and `renderOrders`,
 * fed by the `ordersApi` io node, every input wired (so main has no error finding and
 * the protection rule `no_error_findings` is met). Ids are minted fresh each run, as a
 * client mints them; everything else (names, order of calls) is fixed, so a rerun of the
 * recorder changes only ids and timestamps in the document.
 */
import { randomUUID } from 'node:crypto';
import type { Actor, ExampleSession } from './exampleSession';

/** The ids of the seeded graph. */
export interface OrderGraph {
  orders: string;
  ordersApi: string;
  readOrders: string;
  renderOrders: string;
  /** readOrders' output port (`orders: OrderList`). */
  readOrdersOut: string;
}

/** What the parts of the session share. */
export interface Story {
  session: ExampleSession;
  owner: Actor;
  reviewer: Actor;
  projectId: string;
  mainId: string;
  graph: OrderGraph;
  /** The branch reviewed and merged (add-order-storage). */
  reviewed: string;
  /** A branch that renamed readOrders too: behind main, with a conflict. */
  conflicting: string;
  /** A branch behind main without conflicts. */
  behind: string;
  /** A node only `behind` has. */
  paymentsNode: string;
  webhookId: string;
}

export function orderGraph(): { ids: OrderGraph; deltas: unknown[] } {
  const ids: OrderGraph = {
    orders: randomUUID(),
    ordersApi: randomUUID(),
    readOrders: randomUUID(),
    renderOrders: randomUUID(),
    readOrdersOut: randomUUID(),
  };
  const [apiOut, readIn, renderIn] = [randomUUID(), randomUUID(), randomUUID()];
  const deltas = [
    node(ids.orders, 'boundary', null, {
      name: 'orders',
      description: 'Everything about customer orders.',
      path_prefix: 'src/orders',
    }),
    node(ids.ordersApi, 'io', null, {
      name: 'ordersApi',
      description: 'HTTP requests for orders.',
      outputs: [{ id: apiOut, name: 'request', type: 'HttpRequest' }],
    }),
    node(ids.readOrders, 'behavior', ids.orders, {
      name: 'readOrders',
      description: 'Loads the orders of a customer.',
      inputs: [{ id: readIn, name: 'request', type: 'HttpRequest' }],
      outputs: [{ id: ids.readOrdersOut, name: 'orders', type: 'OrderList' }],
    }),
    node(ids.renderOrders, 'behavior', ids.orders, {
      name: 'renderOrders',
      description: 'Renders the order list.',
      inputs: [{ id: renderIn, name: 'orders', type: 'OrderList' }],
    }),
    edge(apiOut, readIn),
    edge(ids.readOrdersOut, renderIn),
  ];
  return { ids, deltas };
}

export function node(id: string, kind: string, parentId: string | null, data: object) {
  return { type: 'add_node', node: { id, kind, parent_id: parentId, data } };
}

export function edge(source: string, target: string) {
  return {
    type: 'add_edge',
    edge: { id: randomUUID(), source_handle: source, target_handle: target },
  };
}

export function rename(nodeId: string, name: string) {
  return { type: 'update_node_data', node_id: nodeId, after: { name } };
}
