/**
 * The view a read of a branch or of main sees (view.ts): the branch's head, or the
 * version the caller asked for (the `version` query parameter, GraphVersion) when it
 * is still readable. A line is readable from its oldest kept version (`history_floor`
 * on the Branch record, 0 until retention moves it) up to its head (`version`); any
 * other version answers version_not_found naming both ends, so a caller knows what it
 * may ask for.
 */
import { VersionNotFoundError } from '../../shared/errors/domainErrors';
import { branchView, View } from './view';

/** What a view is built from: a Branch record (main or a working branch). */
export interface VersionedBranch {
  id: string;
  /** Main's id (main's own id on main). */
  main_id: string;
  version: number;
  base_main_version: number;
  prior_bases?: number[] | null;
  prior_base_until?: number[] | null;
  history_floor?: number | null;
}

/** The oldest version of the line still readable. */
export function oldestVersion(branch: VersionedBranch): number {
  return branch.history_floor ?? 0;
}

/** Throws VersionNotFoundError unless `version` (absent: the head) is readable on the
 * line: one it had and still keeps. */
export function requireReadable(branch: VersionedBranch, version?: number | null): void {
  if (version === undefined || version === null) return;
  const oldest = oldestVersion(branch);
  if (!Number.isInteger(version) || version < oldest || version > branch.version) {
    throw new VersionNotFoundError(version, oldest, branch.version);
  }
}

/** The view of `branch` at `version` (absent: its head); throws VersionNotFoundError
 * for a version the line never had or no longer keeps. */
export function resolveView(branch: VersionedBranch, version?: number | null): View {
  requireReadable(branch, version);
  return branchView(branch, branch.main_id, version ?? branch.version);
}

/**
 * The view a read of `branch`'s graph reads, or null for a discarded branch: discarding
 * leaves a branch no graph, so its full read and its graph file are empty (its records
 * wait for the purge and are never shown).
 */
export function graphViewOf(branch: { status: string }, view: View): View | null {
  return branch.status === 'discarded' ? null : view;
}

/** The `version` query parameter (GraphVersion) of a read, absent when not sent; the
 * gateway checks it is an integer >= 0, resolveView checks it is readable. */
export function graphVersion(req: { query: Record<string, unknown> }): number | undefined {
  const raw = req.query.version;
  return raw === undefined || raw === null || raw === '' ? undefined : Number(raw);
}
