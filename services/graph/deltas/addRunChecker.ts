/**
 * The checks of a run of add_node / add_edge deltas, in memory: every delta in order
 * against the facts the view holds under the ids and names the run touches (runFacts.ts)
 * plus what earlier deltas of the run created, then the wires the run's new ports
 * complete (wiresOnNewPorts.ts wiresAfterRun); the answers applying the deltas one by one
 * would give. A batch checks its run at once (checkAddRun, addRunApplier.ts); a new
 * line's content of a few hundred thousand deltas is checked a slice at a time
 * (AddRunChecker), so that the process can go on writing its records in between
 * (newLineContent.ts checkNewLineContentInSlices).
 */
import { CHANNELS, NodeKind } from '../../../shared/model/nodeModel';
import type { NodeState } from '../../../shared/model/nodeModel';
import type { NewRow } from '../recordWrites';
import { FindingPort, RunFindingInput, runFindingWrites } from '../runFindings';
import type { View } from '../view';
import { failDelta } from './deltaErrors';
import type { AddEdge, Addition } from './deltaTypes';
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
import { Fact, nameKey, RunFacts } from './runFacts';
import { addedState, recordsOf } from './runRows';
import type { RunRows } from './runRows';
import { checkWires, NewPort, PortEnd, WireRef, wiresAfterRun } from './wiresOnNewPorts';

interface PortFact {
  channel: string;
  nodeId: string;
  kind: NodeKind;
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
 * Checks every delta of `run` in order against the facts `row` plus what earlier deltas
 * of the run created; throws the first refusal. Reads nothing: answers the run's records
 * and, when `deriveFindings`, its findings.
 */
export function checkAddRun(
  run: Addition[],
  maxDepth: number,
  row: RunFacts,
  deriveFindings: boolean,
): CheckedRun {
  const checker = new AddRunChecker(maxDepth, row);
  for (const d of run) checker.check(d);
  return checker.finish(run, deriveFindings);
}

/**
 * The checks of one run, delta by delta (`check`, in the run's order), then whole
 * (`finish`): what checkAddRun does at once, for a caller that checks a long run in
 * slices. Each refusal is thrown by the call that finds it, as checkAddRun throws it.
 */
export class AddRunChecker {
  private readonly facts: Map<string, Fact>;
  private readonly depths: Map<string, number>;
  private readonly taken: Set<string>;
  private readonly createdNodes = new Map<string, NodeKind>();
  private readonly createdDepth = new Map<string, number>();
  private readonly createdPorts = new Map<string, PortFact>();
  private readonly createdIds = new Set<string>();
  /** The state of each add_node delta checked, by its index in the batch. */
  private readonly states = new Map<number, NodeState>();
  private readonly newPorts: NewPort[] = [];
  /** The run's wires that a handle naming no port yet kept from being checked whole. */
  private readonly unchecked: WireRef[] = [];

  constructor(
    private readonly maxDepth: number,
    private readonly row: RunFacts,
  ) {
    this.facts = new Map(row.facts.map((f) => [f.id, f]));
    this.depths = new Map(row.depths.map((f) => [f.id, f.depth]));
    this.taken = new Set(row.takenNames);
  }

  private used(id: string): boolean {
    return this.facts.has(id) || this.createdIds.has(id);
  }

  /** Checks the run's next delta against the facts and the deltas checked before it. */
  check(d: Addition): void {
    if (d.type === 'add_node') this.checkNode(d);
    else this.checkEdge(d);
  }

  private checkNode(d: Extract<Addition, { type: 'add_node' }>): void {
    const fail = (error: string, field: string | null, message: string, entityId?: string) =>
      failDelta(d, error, field, message, entityId);
    const { id, kind, parent_id: parentId } = d.node;
    // the records built from the deltas for the statement that read the facts, if it had
    // them: their node states passed the shape checks there
    let state = this.row.records?.states.get(d.index);
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
    const clash = firstUsedId([id, ...portIds], (used) => this.used(used));
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
        : (this.createdNodes.get(parentId) ?? this.facts.get(parentId)?.nodeKind ?? undefined);
    const refusal = parentRefusal(id, parentId, parentKind);
    if (refusal) fail('invalid_parent', 'node.parent_id', refusal);
    const depth =
      parentId === null
        ? 1
        : (this.createdDepth.get(parentId) ?? this.depths.get(parentId) ?? 1) + 1;
    if (tooDeep(depth, this.maxDepth)) {
      fail(
        'depth_limit_exceeded',
        'node.parent_id',
        `the node would be nested ${depth} deep; containment is at most ${this.maxDepth} deep`,
      );
    }
    this.createdDepth.set(id, depth);
    const scope = parentId ?? '';
    if (nameIsUnique(state.name)) {
      const key = nameKey(scope, state.name);
      if (this.taken.has(key))
        fail('duplicate_name', 'node.data.name', siblingNameRefusal(state.name));
      this.taken.add(key);
    }
    this.createdNodes.set(id, kind);
    this.createdIds.add(id);
    this.states.set(d.index, state);
    for (const c of CHANNELS)
      for (const p of state.ports[c]) {
        this.createdIds.add(p.id);
        this.createdPorts.set(p.id, { channel: c, nodeId: id, kind });
        this.newPorts.push({ id: p.id, delta: d, field: `node.data.${c}` });
      }
  }

  private checkEdge(d: AddEdge): void {
    const { id, source_handle: source, target_handle: target } = d.edge;
    if (this.used(id))
      failDelta(d, 'id_collision', 'edge.id', `id ${id} is already used on this branch`);
    const resolve = (handle: string | null): PortFact | undefined => {
      if (handle === null) return undefined;
      const created = this.createdPorts.get(handle);
      if (created) return created;
      const f = this.facts.get(handle);
      return f?.portChannel && f.portNode && f.portNodeKind
        ? { channel: f.portChannel, nodeId: f.portNode, kind: f.portNodeKind }
        : undefined;
    };
    const src = resolve(source);
    const dst = resolve(target);
    checkAddedWire(d, src, dst);
    if ((source !== null && !src) || (target !== null && !dst))
      this.unchecked.push({ id, source, target });
    this.createdIds.add(id);
  }

  /**
   * After every delta of `run` was checked: the wires its new ports complete, checked
   * against the graph as the run leaves it, known without a read (the wires there
   * before, and the run's own); then its records and, when `deriveFindings`, its
   * findings.
   */
  finish(run: Addition[], deriveFindings: boolean): CheckedRun {
    const existing = (handle: string): PortEnd | undefined => {
      const f = this.facts.get(handle);
      return f?.portChannel && f.portNodeKind
        ? { channel: f.portChannel, kind: f.portNodeKind }
        : undefined;
    };
    checkWires(
      wiresAfterRun(this.row.wires, this.unchecked, this.createdPorts, existing),
      this.newPorts,
    );
    // the run's records and shape, from its deltas and the states its checks passed (the
    // statement that read the facts had them when it wrote the run ahead of the checks)
    const { rows, shape } = this.row.records ?? recordsOf(run, this.states);
    const findings =
      deriveFindings && this.row.wires.length === 0
        ? runFindingWrites(runFindingInput(this.row, this.facts, shape.nodes, shape.ports, run))
        : null;
    return { rows, findings };
  }
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
