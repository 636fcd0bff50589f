/**
 * What an update_node_data delta does to one node, worked out in memory from the
 * node's visible state: the rules that need no read (kind and source_decisions are
 * immutable, the kind's field matrix), the node's next state, and which of its ports
 * go, which are new (their ids must be free in the view) and which change. The
 * BatchApplier reads and writes around it.
 */
import { CHANNELS } from '../../../shared/model/nodeModel';
import { portValues, storedPortProps } from '../../../shared/model/nodeValues';
import type { NodeRecord, PortRecord } from '../graphRecords';
import type { StateRow } from '../recordWrites';
import { entityOf, failDelta } from './deltaErrors';
import type { UpdateNodeData } from './deltaTypes';
import { checkNodeShape, NodeState } from './nodeShape';
import { applyPatch, portProps, stateFromRecord } from './nodeState';

export interface NodeUpdate {
  next: NodeState;
  /** Ports that go (dropped from their channel, or moved to another one). */
  removed: PortRecord[];
  /** Port ids that are new on the node (a moved port counts as new). */
  fresh: string[];
  /** Port states to write: new ones and those whose fields change. */
  portRows: StateRow[];
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

export function planNodeUpdate(
  delta: UpdateNodeData,
  node: NodeRecord,
  ports: PortRecord[],
): NodeUpdate {
  const after = delta.after;
  if (after.kind !== undefined && after.kind !== node.kind) {
    failDelta(
      delta,
      'kind_immutable',
      'after.kind',
      `kind is immutable (the node is a ${node.kind})`,
    );
  }
  const current = stateFromRecord(node, ports);
  if (after.source_decisions !== undefined) {
    const a = new Set(after.source_decisions);
    const b = new Set(current.source_decisions);
    if (a.size !== b.size || [...a].some((x) => !b.has(x))) {
      failDelta(
        delta,
        'source_decisions_immutable',
        'after.source_decisions',
        'source_decisions is server-authoritative; send the current set or omit it',
      );
    }
  }
  const next = applyPatch(current, after);
  checkNodeShape(
    next,
    { index: delta.index, type: delta.type, entityId: entityOf(delta) },
    (f) => `deltas[${delta.index}].after.${f}`,
  );

  // ports: which go, which are new (ids must be free in the view), which change
  const before = new Map(ports.map((p) => [p.id, p]));
  const kept = new Set(CHANNELS.flatMap((c) => next.ports[c].map((p) => p.id)));
  const removed = ports.filter(
    (p) => !kept.has(p.id) || !next.ports[p.channel].some((q) => q.id === p.id),
  );
  const removedIds = new Set(removed.map((p) => p.id));
  const fresh = [...kept].filter((id) => !before.has(id) || removedIds.has(id));
  if (fresh.includes(node.id))
    failDelta(delta, 'id_collision', 'after', 'a port id equals the node id');
  const portRows: StateRow[] = [];
  if (CHANNELS.some((c) => after[c] !== undefined)) {
    for (const props of portProps(node.id, next)) {
      const id = props.id as string;
      const record = fresh.includes(id) ? undefined : before.get(id);
      // copy-on-write: an unchanged port keeps its record (a branch does not copy it);
      // compared as it would be stored now (a record written before defaults were left
      // out holds them)
      const stored = record && { ...record, ...storedPortProps(portValues(record), {}) };
      const changed =
        !stored ||
        Object.entries(props).some(([k, v]) => !same(v, (stored as Record<string, unknown>)[k]));
      if (changed) portRows.push({ id, props });
    }
  }
  return { next, removed, fresh, portRows };
}
