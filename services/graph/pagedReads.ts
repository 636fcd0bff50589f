/**
 * Reads of a whole view a page at a time, each page in a read transaction of its own at
 * the same fixed view: a write that commits between two pages writes records of a later
 * version, which the view does not see, so the pages add up to one version's graph, and
 * no transaction lasts longer than a page, whatever the graph's size. Each page's rows
 * are handed on once its transaction has ended (a transient failure retries the page
 * before anything of it was handed on), and the next page is read only once they have
 * been taken: a slow writer of what is read slows the read instead of filling memory.
 * The full read (graphStream.ts) and the graph-file export read through these.
 */
import type { Executor } from '../../shared/neo4j/executor';
import type { NamedQuery, Row } from '../../shared/neo4j/namedQuery';
import { CHANNELS } from '../../shared/model/nodeModel';
import type { EdgeRecord, NodeRecord, NodeWithPorts, PortRecord } from './graphRecords';
import {
  readEdgesPage,
  readLeafKindNodesWithPorts,
  readNodesWithPortsByIds,
  readParentKindNodeIds,
} from './store/graphReadQueries';
import type { View } from './view';

/** Rows per page of a full read: each page is read in a transaction of its own. */
export const FULL_READ_PAGE = 2000;

/**
 * Runs the paged statement `query` (`$after`, `$limit`: statesPage) page after page,
 * each in a read transaction of its own, and hands each page's rows to `each` once its
 * transaction has ended; stops after a page shorter than `pageSize`. The next page
 * starts past the page's greatest id.
 */
export async function eachPage<R extends Row>(
  executor: Executor,
  query: NamedQuery,
  params: Record<string, unknown>,
  pageSize: number,
  idOf: (row: R) => string,
  each: (row: R) => Promise<void>,
): Promise<void> {
  let after = '';
  for (;;) {
    const rows = await executor.readTx((tx) =>
      tx.run<R>(query, { ...params, after, limit: pageSize }),
    );
    for (const row of rows) {
      await each(row);
      const id = idOf(row);
      if (id > after) after = id;
    }
    if (rows.length < pageSize) return;
  }
}

/** A node row with its ports (by channel, then ord) grouped by channel. */
export function withPorts(node: NodeRecord, ports: PortRecord[]): NodeWithPorts {
  const grouped: NodeWithPorts = { node, ports: { inputs: [], outputs: [], config: [] } };
  for (const port of ports) grouped.ports[port.channel]?.push(port);
  for (const channel of CHANNELS) grouped.ports[channel].sort((a, b) => a.ord - b.ord);
  return grouped;
}

type NodeRow = { node: NodeRecord; ports: PortRecord[] } & Row;

/** Every wire `view` sees, with its derived endpoints, in id order. */
export async function eachEdge(
  executor: Executor,
  view: View,
  each: (edge: EdgeRecord) => Promise<void>,
  pageSize = FULL_READ_PAGE,
): Promise<void> {
  await eachPage<EdgeRecord & Row>(
    executor,
    readEdgesPage,
    { view },
    pageSize,
    (edge) => edge.id,
    each,
  );
}

/** A node's id and its parent's, all a parents-first order needs of it. */
export interface NodeRef {
  id: string;
  parent_id: string | null;
}

/**
 * The ids of `refs` with every parent before its children: by depth (a node whose
 * parent is not among them is at depth 0), then by id, so the order is the same on
 * every read of the same graph.
 */
export function parentsFirst(refs: readonly NodeRef[]): string[] {
  const parentOf = new Map(refs.map((ref) => [ref.id, ref.parent_id]));
  const depth = new Map<string, number>();
  const depthOf = (id: string): number => {
    // up to a node of known depth or a root; a cycle (never stored) ends the walk too
    const chain: string[] = [];
    let above = -1;
    for (let at: string | null = id; at !== null && parentOf.has(at);) {
      const known = depth.get(at);
      if (known !== undefined) {
        above = known;
        break;
      }
      if (chain.includes(at)) break;
      chain.push(at);
      at = parentOf.get(at) ?? null;
    }
    for (const node of chain.reverse()) depth.set(node, ++above);
    return depth.get(id) ?? 0;
  };
  return refs
    .map((ref) => ({ id: ref.id, depth: depthOf(ref.id) }))
    .sort((a, b) => a.depth - b.depth || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((ref) => ref.id);
}

/**
 * Every node `view` sees, with its ports, parents before their children. Only nodes of
 * a parent kind (parentKindCypher) may hold children, so they come first, parents-first
 * (parentsFirst), and then the nodes of every other kind in id order. What is held
 * meanwhile is the id and parent of each node of a parent kind, far less than the graph;
 * their rows are read afterwards a page of ids at a time, and the others a page at a
 * time like the full read's.
 */
export async function eachNodeParentsFirst(
  executor: Executor,
  view: View,
  each: (node: NodeWithPorts) => Promise<void>,
  pageSize = FULL_READ_PAGE,
): Promise<void> {
  const parents: NodeRef[] = [];
  await eachPage<NodeRef & Row>(
    executor,
    readParentKindNodeIds,
    { view },
    pageSize,
    (ref) => ref.id,
    async (ref) => {
      parents.push({ id: ref.id, parent_id: ref.parent_id ?? null });
    },
  );
  const ordered = parentsFirst(parents);
  for (let start = 0; start < ordered.length; start += pageSize) {
    const ids = ordered.slice(start, start + pageSize);
    const rows = await executor.readTx((tx) =>
      tx.run<NodeRow>(readNodesWithPortsByIds, { view, ids }),
    );
    for (const row of rows) await each(withPorts(row.node, row.ports));
  }
  await eachPage<NodeRow>(
    executor,
    readLeafKindNodesWithPorts,
    { view },
    pageSize,
    (row) => row.node.id,
    (row) => each(withPorts(row.node, row.ports)),
  );
}
