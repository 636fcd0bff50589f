/**
 * One side of a merge (the branch, or main since base_main_version) as seen from
 * the common base: which entities it added, removed or changed (field by field),
 * and what it did to each entity in words ("touches"), including what it did
 * around an entity: a port added to a node, a wire added to a port, a node added
 * or moved into a boundary. For the branch, fields its deltas wrote
 * without changing count as touched too (a replay writes them again).
 */
import { quote } from '../../../shared/text/clip';
import type { components } from '../../../shared/api/openapi.generated';
import type { BranchWrites } from '../branchHistory';
import {
  EntityKind,
  ENTITY_KINDS,
  Image,
  PortImage,
  Snapshot,
  SnapshotIndex,
} from '../graphSnapshot';
import { diffSnapshots } from '../snapshotDiff';

export type SideChange = components['schemas']['MergeSideChange'];
export type Action = SideChange['action'];

export interface EntityChange {
  status: 'added' | 'removed' | 'changed';
  /** Changed fields, plus (branch) fields written without a change. */
  fields: Set<string>;
}

interface Touch {
  action: Action;
  summary: string;
  /** A removal around the entity: shown, but not a change the other side could lose. */
  weak: boolean;
}

const short = (id: string) => id.slice(0, 8);

export class MergeSide {
  readonly changes: Record<EntityKind, Map<string, EntityChange>> = {
    node: new Map(),
    port: new Map(),
    edge: new Map(),
  };
  readonly index: SnapshotIndex;
  private readonly touches = new Map<string, Touch[]>();

  constructor(
    readonly name: 'branch' | 'main',
    readonly base: Snapshot,
    readonly snap: Snapshot,
    writes?: BranchWrites,
  ) {
    this.index = new SnapshotIndex(snap);
    const diff = diffSnapshots(base, snap);
    for (const kind of ENTITY_KINDS) {
      const changes = this.changes[kind];
      for (const id of diff[kind].added) changes.set(id, { status: 'added', fields: new Set() });
      for (const id of diff[kind].removed)
        changes.set(id, { status: 'removed', fields: new Set() });
      for (const c of diff[kind].changed)
        changes.set(c.id, { status: 'changed', fields: new Set(c.fields) });
    }
    if (writes) {
      this.addWritten('node', writes.nodeFields);
      this.addWritten('port', writes.portFields);
    }
    this.describeNodes();
    this.describePorts();
    this.describeEdges();
  }

  image(kind: EntityKind, id: string): Image | undefined {
    return (this.snap[kind] as Map<string, Image>).get(id);
  }

  change(kind: EntityKind, id: string): EntityChange | undefined {
    return this.changes[kind].get(id);
  }

  /** The entity existed at the base and this side removed it. */
  deleted(kind: EntityKind, id: string): boolean {
    return this.changes[kind].get(id)?.status === 'removed';
  }

  touched(id: string): boolean {
    return (this.touches.get(id) ?? []).some((t) => !t.weak);
  }

  /** What this side did to an entity, with its resulting values of `fields`. */
  describe(kind: EntityKind, id: string, fields: string[], action?: Action): SideChange {
    const image = this.image(kind, id);
    const touches = this.touches.get(id) ?? [];
    const lines = touches.map((t) => t.summary);
    const summary =
      lines.length === 0
        ? 'no change'
        : lines.slice(0, 4).join('; ') + (lines.length > 4 ? `; and ${lines.length - 4} more` : '');
    const shown = fields.length > 0 ? fields : [...(this.change(kind, id)?.fields ?? [])];
    return {
      action: action ?? (image ? (touches[0]?.action ?? 'modified') : 'deleted'),
      summary,
      values: image ? Object.fromEntries(shown.sort().map((f) => [f, image[f] ?? null])) : null,
    };
  }

  private touch(id: string | null, action: Action, summary: string, weak = false): void {
    if (id === null) return;
    const list = this.touches.get(id);
    if (list) list.push({ action, summary, weak });
    else this.touches.set(id, [{ action, summary, weak }]);
  }

  private addWritten(kind: EntityKind, written: Map<string, Set<string>>): void {
    for (const [id, fields] of written) {
      const existing = this.changes[kind].get(id);
      if (existing) {
        if (existing.status === 'changed') for (const f of fields) existing.fields.add(f);
        continue;
      }
      if (!this.image(kind, id) || !(this.base[kind] as Map<string, Image>).has(id)) continue;
      this.changes[kind].set(id, { status: 'changed', fields: new Set(fields) });
    }
  }

  private port(id: string): PortImage | undefined {
    return this.snap.port.get(id) ?? this.base.port.get(id);
  }

  private describeNodes(): void {
    for (const [id, change] of this.changes.node) {
      const node = this.snap.node.get(id) ?? this.base.node.get(id);
      const label = quote(node?.name);
      if (change.status === 'added') {
        this.touch(id, 'added', `added ${node?.kind ?? ''} node ${label}`);
        this.touch(node?.parent_id ?? null, 'modified', `added node ${label} inside it`);
      } else if (change.status === 'removed') {
        this.touch(id, 'deleted', 'deleted the node', true);
      } else {
        const fields = [...change.fields].sort();
        if (fields.includes('parent_id')) {
          const parent = node?.parent_id ?? null;
          this.touch(id, 'reparented', `moved it under ${parent ?? 'the top level'}`);
          this.touch(parent, 'modified', `moved node ${label} into it`);
        }
        const rest = fields.filter((f) => f !== 'parent_id');
        if (rest.includes('name')) this.touch(id, 'modified', `renamed it to ${label}`);
        if (rest.length > 0) this.touch(id, 'modified', `changed ${rest.join(', ')}`);
      }
    }
  }

  private describePorts(): void {
    for (const [id, change] of this.changes.port) {
      const port = this.port(id);
      const label = quote(port?.name);
      const nodeId = port?.node_id ?? null;
      if (change.status === 'added') {
        this.touch(id, 'added', `added port ${label}`);
        this.touch(nodeId, 'modified', `added port ${label}`);
      } else if (change.status === 'removed') {
        this.touch(id, 'deleted', 'deleted the port', true);
        this.touch(nodeId, 'modified', `removed port ${label}`, true);
      } else {
        const fields = [...change.fields].sort().join(', ');
        this.touch(id, 'modified', `changed ${fields}`);
        this.touch(nodeId, 'modified', `changed ${fields} of port ${label}`);
      }
    }
  }

  private describeEdges(): void {
    for (const [id, change] of this.changes.edge) {
      // only new wires count: a removed wire is lost by nobody
      if (change.status === 'removed') continue;
      const edge = this.snap.edge.get(id);
      const verb = 'wired';
      for (const handle of [edge?.source_handle ?? null, edge?.target_handle ?? null]) {
        if (handle === null) continue;
        const port = this.port(handle);
        this.touch(handle, 'rewired', `${verb} edge ${short(id)}`);
        if (port)
          this.touch(
            port.node_id,
            'modified',
            `${verb} edge ${short(id)} at port ${quote(port.name)}`,
          );
      }
    }
  }
}
