/**
 * What a graph read or write sees: a view of one line (main's or a working branch's)
 * at one version.
 *
 * The store keeps every node, port and wire as state records valid for the versions
 * `vfrom <= v < vto` of the line they were written on (`branch_id` is the line). Main's
 * line holds main's whole history; a working branch's line holds only what the branch
 * changed since it forked (copy-on-write per entity; deletions as tombstones), so a fork
 * writes nothing and a branch reads main as it was at the branch's `base_main_version`
 * beneath its own records.
 *
 * A view is passed to every store query as the map parameter `$view`; the Cypher that
 * applies it is in store/visibility.ts.
 */

/** The open upper bound of a record still current on its line (2^53 - 1, an integer so
 * range indexes serve `vto = OPEN` and `vto > v`). */
export const OPEN = Number.MAX_SAFE_INTEGER;

export interface View {
  /** The line read or written: a branch id (main's id for main). */
  line: string;
  /** The version of `line` seen: a published version for reads, the version being
   * written (published version + 1) for writes. */
  ver: number;
  /** Main's branch id in the same project. */
  main: string;
  /** The main version beneath a working branch (its base_main_version); equal to `ver`
   * on main's own line. */
  base: number;
}

/** Main at version `ver`. */
export function mainView(mainId: string, ver: number): View {
  return { line: mainId, ver, main: mainId, base: ver };
}

/**
 * What a branch's base is built from: its current base, and the bases it had before
 * each rebase (rebaseBranch), `prior_bases[i]` up to (not including) branch version
 * `prior_base_until[i]`, oldest first. Absent on a branch never rebased.
 */
export interface BranchBases {
  id: string;
  base_main_version: number;
  prior_bases?: number[] | null;
  prior_base_until?: number[] | null;
}

/**
 * The main version beneath the branch at its version `ver`: a version before a rebase
 * read main at the base the branch had then, so a read pinned to it answers as it did.
 */
export function baseAt(branch: BranchBases, ver: number): number {
  const until = branch.prior_base_until ?? [];
  const bases = branch.prior_bases ?? [];
  for (let i = 0; i < until.length; i += 1) if (ver < until[i]) return bases[i];
  return branch.base_main_version;
}

/** A working branch at version `ver`, over main at its base at that version. */
export function branchView(branch: BranchBases, mainId: string, ver: number): View {
  if (branch.id === mainId) return mainView(mainId, ver);
  return { line: branch.id, ver, main: mainId, base: baseAt(branch, ver) };
}

/** The view a batch writes through: the next version of the same line. Records it
 * writes carry `vfrom = ver` and stay invisible to readers until the line's version is
 * bumped to it in the same transaction (or, for a staged write, published later). */
export function writeViewOf(view: View): View {
  const ver = view.ver + 1;
  return view.line === view.main ? mainView(view.main, ver) : { ...view, ver };
}

/** The view a write view is written over: the same line at the version before it, as
 * its readers see it until the write is published (the inverse of writeViewOf). */
export function viewBefore(write: View): View {
  const ver = write.ver - 1;
  return write.line === write.main ? mainView(write.main, ver) : { ...write, ver };
}

/** Whether the view reads main's own line (no overlay). */
export function isMainView(view: View): boolean {
  return view.line === view.main;
}

/** Whether two views see the same records. */
export function sameView(a: View, b: View): boolean {
  return a.line === b.line && a.ver === b.ver && a.main === b.main && a.base === b.base;
}
