/**
 * Main's graph as it was at a branch's base_main_version, rebuilt from current main
 * and the before-images that every merge since then recorded on main's trail: an
 * entity's base image is the one in the earliest such merge that touched it, and
 * an entity no merge touched is as it is now. This is the common ancestor of the
 * three-way comparison in conflict detection (issue 5 §2).
 */
import type { QueryRunner } from '../../shared/neo4j/namedQuery';
import { cloneSnapshot, ENTITY_KINDS, Image, Snapshot } from './graphSnapshot';
import type { BeforeImages } from './snapshotDiff';
import { listMergesSince } from './store/mergeQueries';

/** The before-images of main's merges after `sinceVersion`, oldest first. */
export async function loadMergeImages(
  tx: QueryRunner,
  mainId: string,
  sinceVersion: number,
): Promise<BeforeImages[]> {
  const rows = await tx.run<{ version: number; images: string | null }>(listMergesSince, {
    mainId,
    sinceVersion,
  });
  return rows.map((r) =>
    r.images ? (JSON.parse(r.images) as BeforeImages) : { node: {}, port: {}, edge: {} },
  );
}

export function reconstructBase(main: Snapshot, merges: BeforeImages[]): Snapshot {
  const base = cloneSnapshot(main);
  const seen = new Set<string>();
  for (const images of merges) {
    for (const kind of ENTITY_KINDS) {
      const target = base[kind] as Map<string, Image>;
      for (const [id, image] of Object.entries(images[kind] ?? {})) {
        const key = `${kind}:${id}`;
        if (seen.has(key)) continue;
        seen.add(key);
        if (image === null) target.delete(id);
        else target.set(id, image);
      }
    }
  }
  return base;
}
