/**
 * Collects merge conflicts (MergeConflict) with their dotted paths
 * (the node's path, or `path:port_name` for a port) and the branch delta
 * that made the branch-side change. One conflict per (reason, entity); a second
 * finding for the same pair only adds its fields.
 */
import type { components } from '../../../shared/api/openapi.generated';
import { chainProblem, renderPath } from '../../graph';
import type { BranchWrites, DeltaRef } from '../branchHistory';
import type { EntityKind, Snapshot } from '../graphSnapshot';
import type { SideChange } from './mergeSide';

export type MergeConflict = components['schemas']['MergeConflict'];

export interface ConflictInput {
  reason: string;
  kind: EntityKind | null;
  id: string | null;
  fields?: string[];
  branch: SideChange | null;
  main: SideChange | null;
  /** Replay errors carry their own delta; otherwise the branch's last delta naming the entity. */
  ref?: DeltaRef | null;
  error?: string | null;
}

const MAX_DEPTH = 10_000;

export class ConflictList {
  private readonly byKey = new Map<string, MergeConflict>();

  /** `snapshots`: where to look an entity up for its path, in order of preference. */
  constructor(
    private readonly snapshots: Snapshot[],
    private readonly writes: BranchWrites | null,
  ) {}

  get size(): number {
    return this.byKey.size;
  }

  add(input: ConflictInput): void {
    const key = `${input.reason}:${input.kind ?? ''}:${input.id ?? ''}`;
    const fields = [...new Set(input.fields ?? [])].sort();
    const existing = this.byKey.get(key);
    if (existing) {
      existing.fields = [...new Set([...existing.fields, ...fields])].sort();
      return;
    }
    const ref =
      input.ref !== undefined ? input.ref : this.refOf(input.kind, input.id, input.branch);
    this.byKey.set(key, {
      reason: input.reason,
      error: input.error ?? null,
      entity_id: input.id,
      entity_kind: input.id === null ? null : input.kind,
      path: this.pathOf(input.kind, input.id),
      fields,
      branch_change: input.branch,
      main_change: input.main,
      delta_index: ref?.deltaIndex ?? null,
      batch_version: ref?.batchVersion ?? null,
    });
  }

  /** Conflicts in a stable order: entity kind, then path or id, then reason. */
  list(): MergeConflict[] {
    const order = { node: 0, port: 1, edge: 2 } as const;
    return [...this.byKey.values()].sort(
      (a, b) =>
        (a.entity_kind ? order[a.entity_kind] : 3) - (b.entity_kind ? order[b.entity_kind] : 3) ||
        (a.path ?? a.entity_id ?? '').localeCompare(b.path ?? b.entity_id ?? '') ||
        (a.entity_id ?? '').localeCompare(b.entity_id ?? '') ||
        a.reason.localeCompare(b.reason),
    );
  }

  private refOf(
    kind: EntityKind | null,
    id: string | null,
    branch: SideChange | null,
  ): DeltaRef | null {
    if (!this.writes || id === null || branch === null) return null;
    const direct = this.writes.lastTouch.get(id);
    if (direct || kind !== 'port') return direct ?? null;
    const port = this.snapshots.map((s) => s.port.get(id)).find((p) => p !== undefined);
    return port ? (this.writes.lastTouch.get(port.node_id) ?? null) : null;
  }

  private pathOf(kind: EntityKind | null, id: string | null): string | null {
    if (id === null || kind === 'edge' || kind === null) return null;
    if (kind === 'node') return this.nodePath(id);
    const port = this.snapshots.map((s) => s.port.get(id)).find((p) => p !== undefined);
    if (!port || port.name === '') return null;
    const nodePath = this.nodePath(port.node_id);
    return nodePath === null ? null : `${nodePath}:${port.name}`;
  }

  private nodePath(id: string): string | null {
    const snap = this.snapshots.find((s) => s.node.has(id));
    if (!snap) return null;
    const names: string[] = [];
    let current = snap.node.get(id);
    const seen = new Set<string>();
    while (current && !seen.has(current.id) && names.length < MAX_DEPTH) {
      seen.add(current.id);
      names.unshift(current.name);
      current = current.parent_id ? snap.node.get(current.parent_id) : undefined;
    }
    return chainProblem(names) ? null : renderPath(names);
  }
}
