/**
 * A wire may be committed before its port exists: a handle that names no port is
 * kept and reported as a dangling_wire finding. When a port with that id
 * appears later (further on in the same batch, or in a later batch), the wire stops
 * dangling and from then on must obey what add_edge checks (invariants.ts wireRefusal):
 * the source handle names an output port, the target handle an input port
 * (invalid_endpoint), and a wire with a state or io node joins it to exactly one behavior
 * node (forbidden_edge). Both ends resolve against the graph as the write leaves it: read after an update_node_data writes its ports, derived for a
 * run of additions from what its facts read before it and what it creates (wiresAfterRun). A
 * broken wire is blamed on the delta that created its port.
 */
import type { QueryRunner } from '../../../shared/neo4j/namedQuery';
import type { NodeKind } from '../graphRecords';
import { findWiresOnPorts } from '../store/deltaQueries';
import type { View } from '../view';
import { wireRefusal } from './invariants';
import { deltaError } from './deltaErrors';
import type { Delta } from './deltaTypes';

/** A port created by a delta of the batch, with that delta and the field that carried it. */
export interface NewPort {
  id: string;
  delta: Delta;
  field: string;
}

export interface WireRow {
  id: string;
  source: string | null;
  target: string | null;
  sourceChannel: string | null;
  sourceKind: NodeKind | null;
  targetChannel: string | null;
  targetKind: NodeKind | null;
}

/** Reads the wires on the new ports in the view with their ends (findWiresOnPorts), then checks them. */
export async function checkWiresOnNewPorts(
  tx: QueryRunner,
  view: View,
  ports: NewPort[],
): Promise<void> {
  if (ports.length === 0) return;
  const row = await tx.one<{ wires: WireRow[] }>(findWiresOnPorts, {
    view,
    portIds: ports.map((p) => p.id),
  });
  checkWires(row?.wires ?? [], ports);
}

/** A wire's handles. */
export interface WireRef {
  id: string;
  source: string | null;
  target: string | null;
}

/** What is at a wire's end: a port's channel and its node's kind. */
export interface PortEnd {
  channel: string;
  kind: NodeKind;
}

/**
 * The wires on a run of additions' new ports with both ends as they stand once the run
 * is written (what findWiresOnPorts would read then), from what was read before it:
 * `before`, the wires the view already had on those port ids, with their ends as they
 * were; `added`, the run's own wires that its add_edge could not check whole (a handle
 * named no port yet). An end is the run's new port of that id (`created`), else the port
 * there before (`before`'s own ends, `existing` for the run's wires). Ordered by id.
 */
export function wiresAfterRun(
  before: readonly WireRow[],
  added: readonly WireRef[],
  created: ReadonlyMap<string, PortEnd>,
  existing: (handle: string) => PortEnd | undefined,
): WireRow[] {
  const row = (w: WireRef, was: (handle: string) => PortEnd | undefined): WireRow => {
    const end = (handle: string | null) =>
      handle === null ? undefined : (created.get(handle) ?? was(handle));
    const source = end(w.source);
    const target = end(w.target);
    return {
      id: w.id,
      source: w.source,
      target: w.target,
      sourceChannel: source?.channel ?? null,
      sourceKind: source?.kind ?? null,
      targetChannel: target?.channel ?? null,
      targetKind: target?.kind ?? null,
    };
  };
  const endOf = (channel: string | null, kind: NodeKind | null) =>
    channel !== null && kind !== null ? { channel, kind } : undefined;
  const onNewPort = (w: WireRef) =>
    (w.source !== null && created.has(w.source)) || (w.target !== null && created.has(w.target));
  const rows = [
    ...before.map((w) =>
      row(w, (handle) =>
        handle === w.source
          ? endOf(w.sourceChannel, w.sourceKind)
          : endOf(w.targetChannel, w.targetKind),
      ),
    ),
    ...added.filter(onNewPort).map((w) => row(w, existing)),
  ];
  return rows.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/**
 * Throws the delta error of the first wire (by id) that breaks a rule (invariants.ts
 * wireRefusal, as add_edge asks it: addRunChecker.ts checkAddedWire); `wires` touch `ports`.
 */
export function checkWires(wires: WireRow[], ports: NewPort[]): void {
  const byId = new Map(ports.map((p) => [p.id, p]));
  for (const w of wires) {
    const atSource = byId.get(w.source ?? '');
    const atTarget = byId.get(w.target ?? '');
    const fail = (error: string, message: string, port?: NewPort): never => {
      // the delta that created the offending port, else the later of the two (it completed the wire)
      const blame = (port ??
        [atSource, atTarget]
          .filter((p): p is NewPort => p !== undefined)
          .sort((a, b) => b.delta.index - a.delta.index)[0]) as NewPort;
      throw deltaError({
        error,
        message,
        field: `deltas[${blame.delta.index}].${blame.field}`,
        index: blame.delta.index,
        type: blame.delta.type,
        entityId: w.id,
      });
    };
    const refusal = wireRefusal(
      { channel: w.sourceChannel, kind: w.sourceKind },
      { channel: w.targetChannel, kind: w.targetKind },
    );
    if (refusal?.error === 'invalid_endpoint') {
      const [handle, kind, port] =
        refusal.end === 'source'
          ? [w.source, 'an output', atSource]
          : [w.target, 'an input', atTarget];
      fail(
        'invalid_endpoint',
        `port ${handle} is the ${refusal.end}_handle of wire ${w.id}, so it must be ${kind} port (it is a ${refusal.channel} port)`,
        port,
      );
    }
    if (refusal?.error === 'forbidden_edge')
      fail(
        'forbidden_edge',
        `wire ${w.id} would join a ${refusal.source} node to a ${refusal.target} node: an edge with a state or io node must join exactly one behavior node and one state-or-io node`,
      );
  }
}
