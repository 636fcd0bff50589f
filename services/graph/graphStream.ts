/**
 * The full read of a view streamed as its JSON answer (GraphResponse): wires, then
 * nodes with their ports, a page at a time (pagedReads.ts), each row presented and
 * written in pieces (shared/http/operation.ts Pieces). The read holds one page at a time, and a slow reader slows the
 * read instead of filling memory (BodyWriter waits before the next page is read). A read
 * pinned to an earlier version streams the same way and shows each node at its position
 * at the line's head (positions are layout, not history), read beside the node.
 */
import type { Executor } from '../../shared/neo4j/executor';
import type { Row } from '../../shared/neo4j/namedQuery';
import { BodyWriter, Pieces } from '../../shared/http/operation';
import type { NodeRecord, PortRecord } from './graphRecords';
import { eachEdge, eachPage, FULL_READ_PAGE, withPorts } from './pagedReads';
import { readNodesWithPorts, readNodesWithPortsAtHead } from './store/graphReadQueries';
import type { View } from './view';
import { presentEdge, presentNode } from './wirePresenter';

/** The parts of the answer that are not the graph itself, in the answer's key order. */
export interface GraphEnvelope {
  branch: unknown;
  project_id: string;
  version: string;
}

interface NodeRow {
  node: NodeRecord;
  ports: PortRecord[];
  /** The node's position at the head, on a pinned read (null: gone there). */
  head?: { x: number; y: number } | null;
}

/**
 * Writes the graph `view` sees as the answer's JSON; `head`, on a read pinned to an
 * earlier version, is the line's head, whose positions it shows. Wires, then nodes, are
 * read a page at a time (`pageSize` rows past the last id of the page before), each page
 * in a read transaction of its own at the same fixed view (pagedReads.ts eachPage), so
 * the pages add up to one version's graph whatever its size.
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
  await eachEdge(
    executor,
    view,
    async (edge) => {
      await json.add(separator + JSON.stringify(presentEdge(edge)));
      separator = ',';
    },
    pageSize,
  );
  await json.add('],"nodes":[');
  separator = '';
  const [nodes, params] = head
    ? [readNodesWithPortsAtHead, { view, head }]
    : [readNodesWithPorts, { view }];
  await eachPage<NodeRow & Row>(
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
