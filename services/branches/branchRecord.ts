/** A branch as stored, and the rules of its name. */
import { RequestValidationError } from '../../shared/errors/domainErrors';
import { characterCount } from '../../shared/text/characters';

export type BranchStatus = 'active' | 'discarded' | 'merged';

export interface BranchRecord {
  id: string;
  project_id: string;
  owner_id: string;
  name: string;
  status: BranchStatus;
  is_main: boolean;
  version: number;
  base_main_version: number;
  /** The bases the branch had before each rebase and the branch version each lasted
   * until (graph/view.ts baseAt); absent on a branch never rebased. */
  prior_bases?: number[] | null;
  prior_base_until?: number[] | null;
  /** The branch version its last rebase produced (rebaseBranch); absent: never rebased. */
  rebased_version?: number | null;
  /** Main's branch id in the same project (main's own id on main): a reader of this
   * branch builds its view with `branchView(branch, branch.main_id, version)`. */
  main_id: string;
  created_at: string;
  last_active_at: string;
  merged_at: string | null;
  /** True while the branch's change request is open: every project member may read it
   * (branchReview.ts); absent or false otherwise. */
  under_review?: boolean | null;
  /** Usage counters for the per-branch quotas (graph/branchUsage.ts); absent on older branches. */
  node_count?: number | null;
  edge_count?: number | null;
  stored_bytes?: number | null;
}

export const MAIN_BRANCH_NAME = 'main';
export const BRANCH_NAME_MAX = 100;

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** Returns the trimmed name or a 422 in the array form (the body field `name`). */
export function checkBranchName(raw: unknown): string {
  const fail = (msg: string, type: string) =>
    new RequestValidationError([{ loc: ['body', 'name'], msg, type, input: raw }]);
  if (typeof raw !== 'string') throw fail('Field required', 'missing');
  const name = raw.trim();
  if (name.length === 0) throw fail('String should have at least 1 character', 'string_too_short');
  if (characterCount(name) > BRANCH_NAME_MAX) {
    throw fail(`String should have at most ${BRANCH_NAME_MAX} characters`, 'string_too_long');
  }
  if (CONTROL.test(name))
    throw fail('Branch names may not contain control characters', 'value_error');
  return name;
}
