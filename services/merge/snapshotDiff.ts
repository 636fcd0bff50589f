/**
 * Two-way comparison of snapshots by id: what was added, removed and
 * changed (with the changed fields) per entity kind. Serves the branch and main
 * diffs and the preview's counts.
 */
import { changedFields, EntityKind, Image, Snapshot } from './graphSnapshot';

export interface ChangedEntity {
  id: string;
  fields: string[];
}

export interface EntityDiff {
  added: string[];
  removed: string[];
  changed: ChangedEntity[];
}

export type SnapshotDiff = Record<EntityKind, EntityDiff>;

const byId = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export function diffEntities(
  kind: EntityKind,
  before: Map<string, Image>,
  after: Map<string, Image>,
): EntityDiff {
  const diff: EntityDiff = { added: [], removed: [], changed: [] };
  for (const [id, image] of after) {
    const old = before.get(id);
    if (!old) diff.added.push(id);
    else {
      const fields = changedFields(kind, old, image);
      if (fields.length > 0) diff.changed.push({ id, fields });
    }
  }
  for (const id of before.keys()) if (!after.has(id)) diff.removed.push(id);
  diff.added.sort(byId);
  diff.removed.sort(byId);
  diff.changed.sort((a, b) => byId(a.id, b.id));
  return diff;
}

export function diffSnapshots(before: Snapshot, after: Snapshot): SnapshotDiff {
  return {
    node: diffEntities('node', before.node, after.node),
    port: diffEntities('port', before.port, after.port),
    edge: diffEntities('edge', before.edge, after.edge),
  };
}

export function countsOf(diff: SnapshotDiff) {
  const count = (d: EntityDiff) => ({
    added: d.added.length,
    changed: d.changed.length,
    removed: d.removed.length,
  });
  return { nodes: count(diff.node), ports: count(diff.port), edges: count(diff.edge) };
}
