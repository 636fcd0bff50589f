/**
 * The full read of a view streamed as its JSON answer (GraphResponse): wires, then
 * nodes with their ports, each presented and written as Neo4j hands it over, in pieces
 * of about PIECE characters. The read holds one row at a time, and a slow reader slows
 * the read instead of filling memory (BodyWriter waits, QueryRunner.each waits). A read
 * pinned to an earlier version streams the same way and shows each node at its position
 * at the line's head (positions are layout, not history), read beside the node.
 */
import type { Executor } from '../../shared/neo4j/executor';
import type { BodyWriter } from '../../shared/http/operation';
import { CHANNELS } from '../../shared/model/nodeModel';
import type { EdgeRecord, NodeRecord, NodeWithPorts, PortRecord } from './graphRecords';
import {
  readBranchEdges,
  readNodesWithPorts,
  readNodesWithPortsAtHead,
} from './store/graphReadQueries';
import type { View } from './view';
import { presentEdge, presentNode } from './wirePresenter';

const PIECE = 64 * 1024;

/** Text gathered into pieces of about PIECE characters before it is written. */
class Pieces {
  private pending = '';
  /** Whether a piece has gone out (a retried read would repeat it). */
  sent = false;

  constructor(private readonly out: BodyWriter) {}

  async add(text: string): Promise<void> {
    this.pending += text;
    if (this.pending.length >= PIECE) await this.flush();
  }

  /** Drops what a failed attempt gathered and never sent. */
  reset(): void {
    this.pending = '';
  }

  async flush(): Promise<void> {
    if (this.pending === '') return;
    const piece = this.pending;
    this.pending = '';
    this.sent = true;
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

/**
 * Writes the graph `view` sees, in one read transaction, as the answer's JSON; `head`,
 * on a read pinned to an earlier version, is the line's head, whose positions it shows.
 */
export async function writeGraphStream(
  executor: Executor,
  view: View,
  envelope: GraphEnvelope,
  out: BodyWriter,
  head?: View,
): Promise<void> {
  const json = new Pieces(out);
  await executor.readTx(async (tx) => {
    // a transient failure retries the transaction: only while nothing has gone out
    if (json.sent) throw new Error('a streamed read failed after its first piece');
    json.reset();
    await json.add(`{"branch":${JSON.stringify(envelope.branch)},"edges":[`);
    let separator = '';
    await tx.each<EdgeRecord & Record<string, unknown>>(readBranchEdges, { view }, (edge) => {
      const text = separator + JSON.stringify(presentEdge(edge));
      separator = ',';
      return json.add(text);
    });
    await json.add('],"nodes":[');
    separator = '';
    const [nodes, params] = head
      ? [readNodesWithPortsAtHead, { view, head }]
      : [readNodesWithPorts, { view }];
    await tx.each<NodeRow & Record<string, unknown>>(nodes, params, (row) => {
      // a position never set reads as absent (presented as 0) at the head too
      if (row.head) Object.assign(row.node, { x: row.head.x, y: row.head.y });
      const text = separator + JSON.stringify(presentNode(withPorts(row.node, row.ports)));
      separator = ',';
      return json.add(text);
    });
  });
  await json.add(
    `],"project_id":${JSON.stringify(envelope.project_id)},"version":${JSON.stringify(envelope.version)}}`,
  );
  await json.flush();
}
