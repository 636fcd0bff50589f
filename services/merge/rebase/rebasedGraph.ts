/**
 * The graph a rebase produces, on the ids a merge's three-way view holds (the change
 * sets of both sides since the branch's base and their context, threeWaySnapshots.ts):
 * main's current graph with the branch's changes on top. An entity only one side
 * changed takes that side's state; one both changed takes main's state with the fields
 * the branch changed or wrote (a replay writes them again) set to the branch's; each
 * conflict takes its resolution. What is left without its container (a node under a
 * removed node, a port of a removed node, a wire on a removed port) goes with it.
 *
 * Also the branch as the rebase finds it at its next version (`start`): its own
 * records where it has any (its line), main's current graph beneath them elsewhere.
 */
import { CHANNELS } from '../../../shared/model/nodeModel';
import type { Channel } from '../../../shared/model/nodeModel';
import type { IdSets } from '../changeSets';
import type { MergeAnalysis } from '../conflicts/mergeAnalysis';
import {
  EdgeImage,
  emptySnapshot,
  ENTITY_KINDS,
  EntityKind,
  FIELDS,
  Image,
  NodeImage,
  PortImage,
  Snapshot,
} from '../graphSnapshot';
import { Chosen, invalidResolution, parsed } from './resolutions';

export interface RebasedGraph {
  /** The branch at its next version before the rebase writes: its records over main now. */
  start: Snapshot;
  /** The rebased graph. */
  target: Snapshot;
}

type Maps = Pick<Snapshot, EntityKind>;
const get = (snap: Maps, kind: EntityKind, id: string) =>
  (snap[kind] as Map<string, Image>).get(id);
const put = (snap: Maps, kind: EntityKind, id: string, image: Image | undefined) => {
  if (image) (snap[kind] as Map<string, Image>).set(id, image);
  else (snap[kind] as Map<string, Image>).delete(id);
};

class Rebase {
  readonly start: Snapshot = emptySnapshot();
  readonly target: Snapshot = emptySnapshot();
  private readonly loaded: Record<EntityKind, Set<string>>;
  /** Entities of delete conflicts kept as main has them, and as the branch has them. */
  private readonly keptOfMain = new Set<string>();
  private readonly keptOfBranch = new Set<string>();

  constructor(
    private readonly a: MergeAnalysis,
    private readonly onLine: IdSets,
    private readonly chosen: Map<string, Chosen>,
  ) {
    this.loaded = {
      node: new Set([
        ...a.base.node.keys(),
        ...a.main.snap.node.keys(),
        ...a.branch.snap.node.keys(),
      ]),
      port: new Set([
        ...a.base.port.keys(),
        ...a.main.snap.port.keys(),
        ...a.branch.snap.port.keys(),
      ]),
      edge: new Set([
        ...a.base.edge.keys(),
        ...a.main.snap.edge.keys(),
        ...a.branch.snap.edge.keys(),
      ]),
    };
  }

  private keptBy(): void {
    for (const chosen of this.chosen.values()) {
      const { reason, entity_id: id } = chosen.unit.conflict;
      if (id === null) continue;
      if (reason === 'deleted_on_branch_modified_on_main' && this.keeps(chosen, 'main'))
        this.keptOfMain.add(id);
      if (reason === 'deleted_on_main' && this.keeps(chosen, 'branch')) this.keptOfBranch.add(id);
    }
  }

  build(): RebasedGraph {
    this.keptBy();
    for (const kind of ENTITY_KINDS) {
      for (const id of this.loaded[kind]) {
        const side = this.onLine[kind].has(id) ? this.a.branch.snap : this.a.main.snap;
        put(this.start, kind, id, get(side, kind, id));
        put(this.target, kind, id, this.merged(kind, id));
      }
    }
    for (const [id, pos] of this.a.branch.snap.positions) this.target.positions.set(id, pos);
    for (const { unit, resolution, index } of this.chosen.values()) {
      const c = unit.conflict;
      if (c.entity_kind === null || c.entity_id === null) continue;
      const chosen = { unit, resolution, index };
      if (c.reason === 'rewired_on_both') this.rewire(c.entity_id, chosen);
      else if (c.entity_kind === 'node' && CHANNELS.includes(unit.field as Channel))
        this.portList(c.entity_id, unit.field as Channel, chosen);
      else if (unit.field !== null) this.field(c.entity_kind, c.entity_id, unit.field, chosen);
    }
    this.dropOrphans();
    return { start: this.start, target: this.target };
  }

  /** Both sides' states merged, the delete conflicts resolved. */
  private merged(kind: EntityKind, id: string): Image | undefined {
    const main = get(this.a.main.snap, kind, id);
    const branch = get(this.a.branch.snap, kind, id);
    const bc = this.a.branch.change(kind, id);
    const mc = this.a.main.change(kind, id);
    if (!bc) {
      // removed with a node main deleted and the rebase keeps as the branch has it
      if (mc?.status === 'removed' && this.inside(this.keptOfBranch, kind, id, this.a.branch.snap))
        return branch;
      return main;
    }
    if (!mc) {
      // removed with a node the branch deleted and the rebase keeps as main has it
      if (bc.status === 'removed' && this.inside(this.keptOfMain, kind, id, this.a.main.snap))
        return main;
      return branch;
    }
    if (bc.status === 'removed') return this.keptOfMain.has(id) ? main : undefined;
    if (mc.status === 'removed') return this.keptOfBranch.has(id) ? branch : undefined;
    if (!main || !branch) return main ?? branch;
    const out: Image = { ...main };
    for (const f of bc.fields) if (FIELDS[kind].includes(f)) out[f] = branch[f];
    return out;
  }

  /** Whether the entity is one of `nodes`, inside one (a node's ancestors), on one (a
   * port), or a wire at a port on one, as `snap` has it. */
  private inside(nodes: Set<string>, kind: EntityKind, id: string, snap: Snapshot): boolean {
    if (nodes.size === 0) return false;
    if (kind === 'edge') {
      const edge = snap.edge.get(id);
      return [edge?.source_handle, edge?.target_handle].some(
        (h) => typeof h === 'string' && this.inside(nodes, 'port', h, snap),
      );
    }
    let node = kind === 'port' ? (snap.port.get(id)?.node_id ?? null) : id;
    const seen = new Set<string>();
    while (node !== null && !seen.has(node)) {
      if (nodes.has(node)) return true;
      seen.add(node);
      node = snap.node.get(node)?.parent_id ?? null;
    }
    return false;
  }

  /** Whether a delete conflict's resolution keeps the entity (`keeper`: the side that has it). */
  private keeps(chosen: Chosen, keeper: 'main' | 'branch'): boolean {
    const { choice, value } = chosen.resolution;
    if (choice === 'value') {
      if (value !== 'keep' && value !== 'drop')
        throw invalidResolution(
          chosen.index,
          'the value of a delete conflict is "keep" or "drop"',
          '.value',
        );
      return value === 'keep';
    }
    return choice === keeper;
  }

  private field(kind: EntityKind, id: string, field: string, chosen: Chosen): void {
    const now = get(this.target, kind, id);
    if (!now) return;
    const main = get(this.a.main.snap, kind, id) ?? get(this.a.base, kind, id);
    const branch = get(this.a.branch.snap, kind, id);
    const { choice, value } = chosen.resolution;
    let next: unknown;
    if (choice === 'main') next = main ? main[field] : now[field];
    else if (choice === 'branch') next = branch ? branch[field] : now[field];
    else next = this.checked(kind, now, field, value, chosen);
    put(this.target, kind, id, { ...now, [field]: next });
  }

  /** A resolution's value for `field` of `image`, as the node model parses it. */
  private checked(kind: EntityKind, image: Image, field: string, value: unknown, chosen: Chosen) {
    if (kind === 'node' && field === 'parent_id') {
      return parsed(
        chosen,
        { type: 'reparent_node', node_id: image.id, parent_id: value },
        (d: { parent_id: string | null }) => d.parent_id,
      );
    }
    if (kind === 'node') {
      return parsed(
        chosen,
        { type: 'update_node_data', node_id: image.id, after: { [field]: value } },
        (d: { after: Record<string, unknown> }) => d.after[field],
      );
    }
    if (kind === 'port') {
      const port = image as PortImage;
      const after = { [port.channel]: [{ id: port.id, [field]: value }] };
      return parsed(
        chosen,
        { type: 'update_node_data', node_id: port.node_id, after },
        (d: { after: Record<string, { [k: string]: unknown }[]> }) =>
          d.after[port.channel][0][field],
      );
    }
    throw invalidResolution(chosen.index, `an ${kind} has no field ${field}`, '.field');
  }

  /** A port list conflict: the channel's ports as main has them, as the branch has them, or as given. */
  private portList(nodeId: string, channel: Channel, chosen: Chosen): void {
    const inChannel = (snap: Snapshot) =>
      [...snap.port.values()].filter((p) => p.node_id === nodeId && p.channel === channel);
    for (const port of inChannel(this.target)) this.target.port.delete(port.id);
    const { choice, value } = chosen.resolution;
    if (choice !== 'value') {
      const side = choice === 'main' ? this.a.main.snap : this.a.branch.snap;
      for (const port of inChannel(side)) this.target.port.set(port.id, port);
      return;
    }
    const given = parsed(
      chosen,
      { type: 'update_node_data', node_id: nodeId, after: { [channel]: value } },
      (d: { after: Record<string, { id: string }[] | undefined> }) => d.after[channel] ?? [],
    ) as ({ id: string } & Record<string, unknown>)[];
    given.forEach((p, ord) => {
      const known = this.a.main.snap.port.get(p.id) ?? this.a.branch.snap.port.get(p.id);
      const image = { ...(known ?? {}), ...p, node_id: nodeId, channel, ord } as PortImage;
      this.loaded.port.add(p.id);
      this.target.port.set(p.id, image);
    });
  }

  /** rewired_on_both: the wires into the port as main has them, as the branch has them, or the one given. */
  private rewire(portId: string, chosen: Chosen): void {
    const into = (snap: Snapshot) =>
      [...snap.edge.values()].filter((e) => e.target_handle === portId);
    const candidates = new Map<string, EdgeImage>();
    for (const e of [...into(this.a.main.snap), ...into(this.a.branch.snap)])
      candidates.set(e.id, e);
    for (const e of into(this.target)) this.target.edge.delete(e.id);
    const { choice, value } = chosen.resolution;
    if (choice === 'value') {
      const edge = typeof value === 'string' ? candidates.get(value.toLowerCase()) : undefined;
      if (!edge) {
        throw invalidResolution(
          chosen.index,
          `the value names no wire into port ${portId} on either side (one of: ${[...candidates.keys()].sort().join(', ')})`,
          '.value',
        );
      }
      this.target.edge.set(edge.id, edge);
      return;
    }
    for (const e of into(choice === 'main' ? this.a.main.snap : this.a.branch.snap))
      this.target.edge.set(e.id, e);
  }

  /** What lost its container goes with it: nodes under a removed node, their ports, wires on removed ports. */
  private dropOrphans(): void {
    const gone = (kind: EntityKind, id: string | null) =>
      id !== null && this.loaded[kind].has(id) && !get(this.target, kind, id);
    for (let changed = true; changed;) {
      changed = false;
      for (const node of [...this.target.node.values()] as NodeImage[]) {
        if (gone('node', node.parent_id)) {
          this.target.node.delete(node.id);
          changed = true;
        }
      }
    }
    for (const port of [...this.target.port.values()]) {
      if (gone('node', port.node_id)) this.target.port.delete(port.id);
    }
    for (const edge of [...this.target.edge.values()]) {
      if (gone('port', edge.source_handle) || gone('port', edge.target_handle))
        this.target.edge.delete(edge.id);
    }
  }
}

export function rebasedGraph(
  analysis: MergeAnalysis,
  onLine: IdSets,
  chosen: Map<string, Chosen>,
): RebasedGraph {
  return new Rebase(analysis, onLine, chosen).build();
}
