/**
 * Two-way comparison of snapshots by id: what was added, removed and
 * changed (with the changed fields) per entity kind. Serves the branch diff, the
 * preview's counts, and the before-images a merge records on main's trail.
 */
import { changedFields, ENTITY_KINDS, EntityKind, Image, Snapshot } from './graphSnapshot';

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

/** Images of entities before a change; null = the entity did not exist. */
export type BeforeImages = Record<EntityKind, Record<string, Image | null>>;

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

/** The before-images of everything a diff touched (recorded with each merge on main). */
export function beforeImages(before: Snapshot, diff: SnapshotDiff): BeforeImages {
  const images: BeforeImages = { node: {}, port: {}, edge: {} };
  for (const kind of ENTITY_KINDS) {
    const map = before[kind] as Map<string, Image>;
    for (const id of diff[kind].added) images[kind][id] = null;
    for (const id of diff[kind].removed) images[kind][id] = map.get(id) ?? null;
    for (const { id } of diff[kind].changed) images[kind][id] = map.get(id) ?? null;
  }
  return images;
}

export function countsOf(diff: SnapshotDiff) {
  const count = (d: EntityDiff) => ({
    added: d.added.length,
    changed: d.changed.length,
    removed: d.removed.length,
  });
  return { nodes: count(diff.node), ports: count(diff.port), edges: count(diff.edge) };
}
