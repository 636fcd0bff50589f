/**
 * Fast path for a run of consecutive add_node / add_edge deltas, the bulk of real
 * batches: every fact the run needs is read in one query (the wires already on the
 * ports it creates included), every delta is checked in order in memory against those
 * facts plus what earlier deltas of the run created, and so are the wires its new
 * ports complete (wiresOnNewPorts.ts wiresAfterRun); then the run is written in one
 * statement (recordWrites.ts createGraph: the checks found every id unused in the
 * view). A batch's leading run is written by the statement that reads its facts
 * (runRows.ts), so it costs that one statement. Since a run only adds, this gives
 * exactly the answers of applying the deltas one by one (BatchApplier), with one or two
 * statements instead of three or four per delta.
 */
import type { QueryRunner } from '../../../shared/neo4j/namedQuery';
import { CHANNELS, NodeKind } from '../../../shared/model/nodeModel';
import { createGraph, noteGraphWritten } from '../recordWrites';
import { sameView, View } from '../view';
import { failDelta } from './deltaErrors';
import { AddEdge, Addition } from './deltaTypes';
import {
  firstUsedId,
  nameIsUnique,
  parentRefusal,
  siblingNameRefusal,
  tooDeep,
  WireEnd,
  wireRefusal,
} from './invariants';
import { checkNodeShape } from './nodeShape';
import { checkWires, NewPort, PortEnd, WireRef, wiresAfterRun } from './wiresOnNewPorts';
import { addedState, recordsOf } from './runRows';
import type { RunRows } from './runRows';
import type { NewRow } from '../recordWrites';
import type { NodeState } from '../../../shared/model/nodeModel';
import { FindingPort, RunFindingInput, runFindingWrites } from '../runFindings';
import { Fact, nameKey, readRunFacts, RunFacts } from './runFacts';

interface PortFact {
  channel: string;
  nodeId: string;
  kind: NodeKind;
}

/** What a run added: the branch's node and wire counts grow by these. */
export interface AddRunCounts {
  nodes: number;
  edges: number;
}

/** What a run adds, known once its deltas are checked, and its write, sent but maybe not answered yet. */
export interface SentAddRun extends AddRunCounts {
  /**
   * When the caller asked for the run's findings to be derived (runFindings.ts): the
   * kept findings it opens and those it closes, for the caller to write (with the
   * batch's record). Null when not asked, or when the view had wires on the ports the
   * run creates (those are recomputed by reading after the write).
   */
  findings: { opened: NewRow[]; closed: string[] } | null;
  /**
   * Settles when the store has answered the write. The caller may send its next
   * statement before awaiting it (batchApplier.ts inOneRoundTrip): the transaction runs
   * statements in the order sent, so both share a round trip. The caller attaches to it
   * at once, before anything else can throw.
   */
  written: Promise<void>;
}

/**
 * Checks the run in memory and sends its write. `known`: the run's facts when already
 * being read (readRunFacts), else they are read here.
 */
export async function applyAddRun(
  tx: QueryRunner,
  view: View,
  run: Addition[],
  maxDepth: number,
  known?: RunFacts,
  deriveFindings = false,
): Promise<SentAddRun> {
  let row = known ?? (await readRunFacts(tx, view, run, maxDepth));
  // facts read through a branch's row hold for that row's view only; a read that also
  // wrote the run was made through the view the batch writes, or the batch is refused
  if (!sameView(row.view, view)) {
    if (row.prewritten) throw new Error('the run was written through another view');
    row = await readRunFacts(tx, view, run, maxDepth);
  }
  const { rows, findings } = checkAddRun(run, maxDepth, row, deriveFindings);
  let written: Promise<void>;
  if (row.prewritten) {
    // the statement that read the facts wrote these same rows (runRows.ts), ahead of the checks
    noteGraphWritten(tx, view, rows);
    written = Promise.resolve();
  } else {
    written = createGraph(tx, view, rows).then(() => undefined);
  }
  return { nodes: rows.nodes.length, edges: rows.edges.length, written, findings };
}

/** A run checked whole: the records it writes and, when asked, its kept findings. */
export interface CheckedRun {
  rows: RunRows;
  findings: { opened: NewRow[]; closed: string[] } | null;
}

/**
 * What a new line holds before its first write: nothing. A line whose id was just
 * chosen (an import's main, staged or not) has these facts without a read.
 */
export function newLineFacts(view: View): RunFacts {
  return {
    facts: [],
    depths: [],
    takenNames: [],
    wires: [],
    findingsKept: true,
    view,
    prewritten: false,
  };
}

/**
 * Checks every delta of `run` in order against the facts `row` (what the view holds
 * under the ids and names the run touches) plus what earlier deltas of the run created,
 * with the answers applying them one by one would give; throws the first refusal.
 * Reads nothing: answers the run's records and, when `deriveFindings`, its findings.
 */
export function checkAddRun(
  run: Addition[],
  maxDepth: number,
  row: RunFacts,
  deriveFindings: boolean,
): CheckedRun {
  // the records built from the deltas for the statement that read the facts, if it had
  // them: their node states passed the shape checks there
  const records = row.records;
  const facts = new Map(row.facts.map((f) => [f.id, f]));
  const depths = new Map(row.depths.map((f) => [f.id, f.depth]));
  const taken = new Set(row.takenNames);

  const createdNodes = new Map<string, NodeKind>();
  const createdDepth = new Map<string, number>();
  const createdPorts = new Map<string, PortFact>();
  const createdIds = new Set<string>();
  /** The state of each add_node delta checked, by its index in the batch. */
  const states = new Map<number, NodeState>();
  const newPorts: NewPort[] = [];
  /** The run's wires that a handle naming no port yet kept from being checked whole. */
  const unchecked: WireRef[] = [];
  const used = (id: string) => facts.has(id) || createdIds.has(id);

  for (const d of run) {
    const fail = (error: string, field: string | null, message: string, entityId?: string) =>
      failDelta(d, error, field, message, entityId);
    if (d.type === 'add_node') {
      const { id, kind, parent_id: parentId } = d.node;
      let state = records?.states.get(d.index);
      if (!state) {
        state = addedState(d);
        checkNodeShape(
          state,
          { index: d.index, type: d.type, entityId: id },
          (f) => `deltas[${d.index}].node.data.${f}`,
        );
      }
      const portIds: string[] = [];
      for (const c of CHANNELS) for (const p of state.ports[c]) portIds.push(p.id);
      if (portIds.includes(id))
        fail('id_collision', 'node.id', 'the node id equals one of its port ids');
      const clash = firstUsedId([id, ...portIds], used);
      if (clash)
        fail(
          'id_collision',
          clash === id ? 'node.id' : 'node.data',
          `id ${clash} is already used on this branch`,
          clash,
        );
      const parentKind =
        parentId === null || parentId === id
          ? undefined
          : (createdNodes.get(parentId) ?? facts.get(parentId)?.nodeKind ?? undefined);
      const refusal = parentRefusal(id, parentId, parentKind);
      if (refusal) fail('invalid_parent', 'node.parent_id', refusal);
      const depth =
        parentId === null ? 1 : (createdDepth.get(parentId) ?? depths.get(parentId) ?? 1) + 1;
      if (tooDeep(depth, maxDepth)) {
        fail(
          'depth_limit_exceeded',
          'node.parent_id',
          `the node would be nested ${depth} deep; containment is at most ${maxDepth} deep`,
        );
      }
      createdDepth.set(id, depth);
      const scope = parentId ?? '';
      if (nameIsUnique(state.name)) {
        const key = nameKey(scope, state.name);
        if (taken.has(key))
          fail('duplicate_name', 'node.data.name', siblingNameRefusal(state.name));
        taken.add(key);
      }
      createdNodes.set(id, kind);
      createdIds.add(id);
      states.set(d.index, state);
      for (const c of CHANNELS)
        for (const p of state.ports[c]) {
          createdIds.add(p.id);
          createdPorts.set(p.id, { channel: c, nodeId: id, kind });
          newPorts.push({ id: p.id, delta: d, field: `node.data.${c}` });
        }
    } else {
      const { id, source_handle: source, target_handle: target } = d.edge;
      if (used(id)) fail('id_collision', 'edge.id', `id ${id} is already used on this branch`);
      const resolve = (handle: string | null): PortFact | undefined => {
        if (handle === null) return undefined;
        const created = createdPorts.get(handle);
        if (created) return created;
        const f = facts.get(handle);
        return f?.portChannel && f.portNode && f.portNodeKind
          ? { channel: f.portChannel, nodeId: f.portNode, kind: f.portNodeKind }
          : undefined;
      };
      const src = resolve(source);
      const dst = resolve(target);
      checkAddedWire(d, src, dst);
      if ((source !== null && !src) || (target !== null && !dst))
        unchecked.push({ id, source, target });
      createdIds.add(id);
    }
  }
  // the wires the new ports complete are checked against the graph as the run leaves it,
  // known without a read: the wires there before, and the run's own (wiresAfterRun)
  const existing = (handle: string): PortEnd | undefined => {
    const f = facts.get(handle);
    return f?.portChannel && f.portNodeKind
      ? { channel: f.portChannel, kind: f.portNodeKind }
      : undefined;
  };
  checkWires(wiresAfterRun(row.wires, unchecked, createdPorts, existing), newPorts);
  // the run's records and shape, from its deltas and the states its checks passed (the
  // statement that read the facts had them when it wrote the run ahead of the checks)
  const { rows, shape } = records ?? recordsOf(run, states);
  const findings =
    deriveFindings && row.wires.length === 0
      ? runFindingWrites(runFindingInput(row, facts, shape.nodes, shape.ports, run))
      : null;
  return { rows, findings };
}

/**
 * The wire rules (invariants.ts wireRefusal) of add_edge delta `d`, whose ends are `src`
 * and `dst` (undefined: no port of that id yet), with add_edge's fields and messages.
 */
export function checkAddedWire(d: AddEdge, src: WireEnd | undefined, dst: WireEnd | undefined) {
  const refusal = wireRefusal(src, dst);
  if (!refusal) return;
  if (refusal.error === 'invalid_endpoint') {
    const kind = refusal.end === 'source' ? 'an output' : 'an input';
    failDelta(
      d,
      'invalid_endpoint',
      `edge.${refusal.end}_handle`,
      `${refusal.end}_handle must name ${kind} port (it names a ${refusal.channel} port)`,
    );
  }
  failDelta(
    d,
    'forbidden_edge',
    'edge',
    `an edge with a state or io node must join exactly one behavior node and one state-or-io node (${refusal.source} -> ${refusal.target})`,
  );
}

/** The run's findings input (runFindings.ts): what it created, and the facts around it. */
function runFindingInput(
  row: RunFacts,
  facts: ReadonlyMap<string, Fact>,
  nodes: RunFindingInput['nodes'],
  ports: ReadonlyMap<string, FindingPort>,
  run: Addition[],
): RunFindingInput {
  const named = new Map<string, FindingPort & { unsatisfiedKept: boolean }>();
  const wires: RunFindingInput['wires'] = [];
  for (const d of run) {
    if (d.type !== 'add_edge') continue;
    const { id, source_handle: source, target_handle: target } = d.edge;
    wires.push({ id, source, target });
    for (const handle of [source, target]) {
      const f = handle === null || ports.has(handle) ? undefined : facts.get(handle);
      if (f?.portChannel)
        named.set(f.id, {
          channel: f.portChannel,
          name: '',
          type: f.portType,
          unsatisfiedKept: f.unsatisfiedKept,
        });
    }
  }
  const parentOrphans = new Map<string, boolean>();
  const created = new Set(nodes.map((n) => n.id));
  for (const n of nodes)
    if (n.parentId !== null && !created.has(n.parentId))
      parentOrphans.set(n.parentId, facts.get(n.parentId)?.orphanKept === true);
  return { kept: row.findingsKept, nodes, ports, named, parentOrphans, wires };
}
