/**
 * The full read of a view streamed as its JSON answer (GraphResponse): wires, then
 * nodes with their ports, a page at a time, each row presented and written in pieces of
 * about PIECE characters. The read holds one page at a time, and a slow reader slows the
 * read instead of filling memory (BodyWriter waits before the next page is read). A read
 * pinned to an earlier version streams the same way and shows each node at its position
 * at the line's head (positions are layout, not history), read beside the node.
 */
import type { Executor } from '../../shared/neo4j/executor';
import type { NamedQuery, Row } from '../../shared/neo4j/namedQuery';
import type { BodyWriter } from '../../shared/http/operation';
import { CHANNELS } from '../../shared/model/nodeModel';
import type { EdgeRecord, NodeRecord, NodeWithPorts, PortRecord } from './graphRecords';
import {
  readEdgesPage,
  readNodesWithPorts,
  readNodesWithPortsAtHead,
} from './store/graphReadQueries';
import type { View } from './view';
import { presentEdge, presentNode } from './wirePresenter';

const PIECE = 64 * 1024;

/** Text gathered into pieces of about PIECE characters before it is written. */
class Pieces {
  private pending = '';

  constructor(private readonly out: BodyWriter) {}

  async add(text: string): Promise<void> {
    this.pending += text;
    if (this.pending.length >= PIECE) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.pending === '') return;
    const piece = this.pending;
    this.pending = '';
    await this.out.write(piece);
  }
}

/** The parts of the answer that are not the graph itself, in the answer's key order. */
export interface GraphEnvelope {
  branch: unknown;
  project_id: string;
  version: string;
}

function withPorts(node: NodeRecord, ports: PortRecord[]): NodeWithPorts {
  const grouped: NodeWithPorts = { node, ports: { inputs: [], outputs: [], config: [] } };
  for (const port of ports) grouped.ports[port.channel]?.push(port);
  for (const channel of CHANNELS) grouped.ports[channel].sort((a, b) => a.ord - b.ord);
  return grouped;
}

interface NodeRow {
  node: NodeRecord;
  ports: PortRecord[];
  /** The node's position at the head, on a pinned read (null: gone there). */
  head?: { x: number; y: number } | null;
}

/** Rows per page of a full read: each page is read in a transaction of its own. */
export const FULL_READ_PAGE = 2000;

/**
 * Writes the graph `view` sees as the answer's JSON; `head`, on a read pinned to an
 * earlier version, is the line's head, whose positions it shows. Wires, then nodes, are
 * read a page at a time (`pageSize` rows past the last id of the page before), each page
 * in a read transaction of its own at the same fixed view: a write that commits between
 * two pages writes records of a later version, which the view does not see, so the pages
 * add up to one version's graph, and no transaction lasts longer than a page, whatever
 * the graph's size. A page is written out once its transaction has ended (a transient
 * failure retries the page before anything of it went out).
 */
export async function writeGraphStream(
  executor: Executor,
  view: View,
  envelope: GraphEnvelope,
  out: BodyWriter,
  head?: View,
  pageSize = FULL_READ_PAGE,
): Promise<void> {
  const json = new Pieces(out);
  await json.add(`{"branch":${JSON.stringify(envelope.branch)},"edges":[`);
  let separator = '';
  await eachPage<EdgeRecord & Record<string, unknown>>(
    executor,
    readEdgesPage,
    { view },
    pageSize,
    (edge) => edge.id,
    async (edge) => {
      await json.add(separator + JSON.stringify(presentEdge(edge)));
      separator = ',';
    },
  );
  await json.add('],"nodes":[');
  separator = '';
  const [nodes, params] = head
    ? [readNodesWithPortsAtHead, { view, head }]
    : [readNodesWithPorts, { view }];
  await eachPage<NodeRow & Record<string, unknown>>(
    executor,
    nodes,
    params,
    pageSize,
    (row) => row.node.id,
    async (row) => {
      // a position never set reads as absent (presented as 0) at the head too
      if (row.head) Object.assign(row.node, { x: row.head.x, y: row.head.y });
      await json.add(separator + JSON.stringify(presentNode(withPorts(row.node, row.ports))));
      separator = ',';
    },
  );
  await json.add(
    `],"project_id":${JSON.stringify(envelope.project_id)},"version":${JSON.stringify(envelope.version)}}`,
  );
  await json.flush();
}

/**
 * Runs the paged statement `query` (`$after`, `$limit`: statesPage) page after page,
 * each in a read transaction of its own, and hands each page's rows to `each` once its
 * transaction has ended; stops after a page shorter than `pageSize`. The next page
 * starts past the page's greatest id.
 */
async function eachPage<R extends Row>(
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
