/**
 * The steps of revertBranch (commands/revertBatch.ts) on the store: which entities
 * batch K wrote and their states before and after it (readWritten, refusing with
 * revert_conflict when a later batch wrote one of them), the earlier states written
 * back at the write view (writeBack), what that would leave broken (requireNothingBroken:
 * an entity left without its parent, node or port, a name taken twice, a wire at the
 * wrong end of a port), the usage change, and the inverse as the trail records it
 * (inverseText).
 */
import { RevertConflictEntity, RevertConflictError } from '../../shared/errors/domainErrors';
import type { QueryRunner } from '../../shared/neo4j/namedQuery';
import { parseDeltaBatch } from './deltas/parseDeltas';
import { recordedText } from './deltas/wireDelta';
import { removeStates, upsertStates } from './recordWrites';
import { wireRefusal } from './deltas/invariants';
import type { WireRow } from './deltas/wiresOnNewPorts';
import { findWiresOnPorts } from './store/deltaQueries';
import { inverseDeltas, StatePair, StoredState } from './revertPlan';
import {
  entitiesWrittenAt,
  latestWrites,
  LATER_WRITES,
  portsOfNodesAt,
  revertBlockers,
  STATES_AT,
} from './store/revertQueries';
import type { StateLabel } from './store/visibility';
import type { View } from './view';

const KIND: Record<StateLabel, RevertConflictEntity['kind']> = {
  GNode: 'node',
  Port: 'port',
  Edge: 'edge',
};
const LABELS: readonly StateLabel[] = ['GNode', 'Port', 'Edge'];
/** Record properties that place a state in history rather than describe the entity. */
const RECORD_KEYS = ['branch_id', 'id', 'vfrom', 'vto', 'gone'];

function props(state: StoredState): Record<string, unknown> {
  const out = { ...state };
  for (const key of RECORD_KEYS) delete out[key];
  return out;
}

const same = (a: StoredState | null, b: StoredState | null): boolean => {
  if (a === null || b === null) return a === b;
  const strip = (s: StoredState) => {
    const p = props(s);
    delete p.x;
    delete p.y;
    return JSON.stringify(Object.entries(p).sort(([x], [y]) => x.localeCompare(y)));
  };
  return strip(a) === strip(b);
};

async function statesOf(
  tx: QueryRunner,
  label: StateLabel,
  view: View,
  ids: string[],
): Promise<Map<string, StoredState | null>> {
  if (ids.length === 0) return new Map();
  const rows = await tx.run<{ id: string; state: StoredState | null }>(STATES_AT[label], {
    view,
    ids,
  });
  return new Map(rows.map((r) => [r.id, r.state]));
}

async function portsByNode(
  tx: QueryRunner,
  view: View,
  nodeIds: string[],
): Promise<Map<string, StoredState[]>> {
  const byNode = new Map<string, StoredState[]>(nodeIds.map((id) => [id, []]));
  if (nodeIds.length === 0) return byNode;
  const rows = await tx.run<{ port: StoredState }>(portsOfNodesAt, { view, nodeIds });
  for (const { port } of rows) byNode.get(port.node_id as string)?.push(port);
  return byNode;
}

/** The reverted batch's entities by label, with their states before and after it. */
type Written = Record<StateLabel, Map<string, StatePair>>;

export async function readWritten(
  tx: QueryRunner,
  line: string,
  k: number,
  before: View,
  after: View,
) {
  const rows = await tx.run<{ label: StateLabel; id: string }>(entitiesWrittenAt, { line, k });
  const ids: Record<StateLabel, string[]> = { GNode: [], Port: [], Edge: [] };
  for (const row of rows) ids[row.label].push(row.id);
  const later: RevertConflictEntity[] = [];
  for (const label of LABELS) {
    if (ids[label].length === 0) continue;
    const found = await tx.run<{ id: string; version: number }>(LATER_WRITES[label], {
      line,
      k,
      ids: ids[label],
    });
    for (const f of found) later.push({ kind: KIND[label], id: f.id, version: f.version });
  }
  if (later.length > 0) throw new RevertConflictError(k, later);
  const written = {} as Written;
  for (const label of LABELS) {
    const was = await statesOf(tx, label, before, ids[label]);
    const now = await statesOf(tx, label, after, ids[label]);
    written[label] = new Map(
      ids[label].map((id) => [id, { before: was.get(id) ?? null, after: now.get(id) ?? null }]),
    );
  }
  return written;
}

/** Writes each changed entity's earlier state at the write view; answers what it did. */
export async function writeBack(tx: QueryRunner, view: View, written: Written) {
  const removed: Record<StateLabel, string[]> = { GNode: [], Port: [], Edge: [] };
  const restored: Record<StateLabel, string[]> = { GNode: [], Port: [], Edge: [] };
  for (const label of LABELS) {
    const rows = [];
    for (const [id, { before, after }] of written[label]) {
      if (same(before, after)) continue;
      if (before === null) {
        removed[label].push(id);
        continue;
      }
      const state = props(before);
      if (label === 'GNode' && after !== null && typeof after.x === 'number')
        Object.assign(state, { x: after.x, y: after.y ?? 0 });
      rows.push({ id, props: state, replace: true });
      restored[label].push(id);
    }
    await upsertStates(tx, view, label, rows);
  }
  // wires first, so that a removed port or node is never left under a wire of this write
  for (const label of ['Edge', 'Port', 'GNode'] as const)
    await removeStates(tx, view, label, removed[label]);
  return { removed, restored };
}

type Done = Awaited<ReturnType<typeof writeBack>>;
type Blocker = { kind: RevertConflictEntity['kind']; id: string };

/**
 * Wires the write would leave breaking what add_edge checks (invariants.ts wireRefusal),
 * read through the write view: a port brought back holding a wire written since at the
 * wrong end (a later wire may name a port the batch removed, dangling until the port
 * comes back), or a wire brought back onto a port put there since. Each names the entity
 * in the way: the wire when the revert did not write it, else the port at the refused end.
 */
async function brokenWires(
  tx: QueryRunner,
  view: View,
  written: Written,
  done: Done,
): Promise<Blocker[]> {
  const restoredWires = new Set(done.restored.Edge);
  const restoredPorts = new Set(done.restored.Port);
  const portIds = new Set(restoredPorts);
  for (const id of restoredWires) {
    const state = written.Edge.get(id)?.before;
    for (const handle of [state?.source_handle, state?.target_handle])
      if (typeof handle === 'string') portIds.add(handle);
  }
  if (portIds.size === 0) return [];
  const row = await tx.one<{ wires: WireRow[] }>(findWiresOnPorts, {
    view,
    portIds: [...portIds],
  });
  const blockers: Blocker[] = [];
  for (const w of row?.wires ?? []) {
    const refusal = wireRefusal(
      { channel: w.sourceChannel, kind: w.sourceKind },
      { channel: w.targetChannel, kind: w.targetKind },
    );
    if (refusal === null) continue;
    if (!restoredWires.has(w.id)) {
      blockers.push({ kind: 'edge', id: w.id });
      continue;
    }
    const end =
      refusal.error === 'invalid_endpoint'
        ? refusal.end
        : w.source !== null && !restoredPorts.has(w.source)
          ? 'source'
          : 'target';
    const handle = end === 'source' ? w.source : w.target;
    if (handle !== null) blockers.push({ kind: 'port', id: handle });
  }
  return blockers;
}

export async function requireNothingBroken(
  tx: QueryRunner,
  view: View,
  k: number,
  written: Written,
  done: Done,
): Promise<void> {
  const broken = await tx.run<Blocker>(revertBlockers, {
    view,
    removedNodes: done.removed.GNode,
    removedPorts: done.removed.Port,
    writtenNodes: done.restored.GNode,
    writtenPorts: done.restored.Port,
    writtenEdges: done.restored.Edge,
  });
  // each entity named once, though two rules (or two wires) find it
  const blockers = [
    ...new Map(
      [...broken, ...(await brokenWires(tx, view, written, done))].map((b) => [
        `${b.kind}:${b.id}`,
        b,
      ]),
    ).values(),
  ];
  if (blockers.length === 0) return;
  const versions = await tx.run<{
    kind: RevertConflictEntity['kind'];
    id: string;
    version: number | null;
  }>(latestWrites, {
    line: view.line,
    below: view.ver,
    entities: blockers,
  });
  throw new RevertConflictError(
    k,
    versions.map((v) => ({ kind: v.kind, id: v.id, version: v.version ?? view.ver - 1 })),
  );
}

/** How many nodes and wires the revert adds (negative: removes). */
export function usageChange(written: Written): { nodes: number; edges: number } {
  const net = (m: Map<string, StatePair>) =>
    [...m.values()].reduce(
      (n, { before, after }) => n + (before !== null ? 1 : 0) - (after !== null ? 1 : 0),
      0,
    );
  return { nodes: net(written.GNode), edges: net(written.Edge) };
}

/** The inverse as the trail records it: parsed like a batch, so a merge replays it. */
export async function inverseText(tx: QueryRunner, before: View, after: View, written: Written) {
  const nodeIds = new Set(written.GNode.keys());
  for (const { before: b, after: a } of written.Port.values())
    for (const s of [b, a]) if (s !== null) nodeIds.add(s.node_id as string);
  const ids = [...nodeIds];
  const was = await statesOf(tx, 'GNode', before, ids);
  const now = await statesOf(tx, 'GNode', after, ids);
  const nodes = new Map(
    ids.map((id) => [id, { before: was.get(id) ?? null, after: now.get(id) ?? null }]),
  );
  const deltas = inverseDeltas({
    nodes,
    edges: written.Edge,
    portsBefore: await portsByNode(tx, before, ids),
    portsAfter: await portsByNode(tx, after, ids),
  });
  const parsed = parseDeltaBatch(
    { deltas },
    { maxDeltas: Number.MAX_SAFE_INTEGER, requireVersion: false },
  );
  const text = recordedText(parsed.deltas);
  return { text, bytes: Buffer.byteLength(text), deltas: parsed.deltas };
}
