/**
 * Main's graph as it was at a branch's base_main_version, rebuilt from current main
 * and the before-images that every merge since then recorded on main's trail: an
 * entity's base image is the one in the earliest such merge that touched it, and
 * an entity no merge touched is as it is now. This is the common ancestor of the
 * three-way comparison in conflict detection. Main's trail is read a
 * page of MERGE_PAGE merges at a time, so only one page of images is parsed at once.
 */
import type { QueryRunner } from '../../shared/neo4j/namedQuery';
import { cloneSnapshot, ENTITY_KINDS, Image, Snapshot } from './graphSnapshot';
import type { BeforeImages } from './snapshotDiff';
import { listMergesSince } from './store/mergeQueries';

/** Merges of main's trail read per page. */
export const MERGE_PAGE = 8;

/** Main at `sinceVersion`: current main with the before-images of every merge since. */
export async function loadBase(
  tx: QueryRunner,
  mainId: string,
  sinceVersion: number,
  main: Snapshot,
): Promise<Snapshot> {
  const base = cloneSnapshot(main);
  const seen = new Set<string>();
  let after = sinceVersion;
  for (;;) {
    const rows = await tx.run<{ version: number; images: string | null }>(listMergesSince, {
      branchId: mainId,
      afterVersion: after,
      limit: MERGE_PAGE,
    });
    const images = rows.map((r) =>
      r.images ? (JSON.parse(r.images) as BeforeImages) : { node: {}, port: {}, edge: {} },
    );
    applyImages(base, seen, images);
    if (rows.length < MERGE_PAGE) return base;
    after = rows[rows.length - 1].version;
  }
}

/** Applies merges' before-images, oldest first; `seen` keeps the earliest image of each entity. */
function applyImages(base: Snapshot, seen: Set<string>, merges: BeforeImages[]): void {
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
}
