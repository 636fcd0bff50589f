/**
 * Main's protection rules as merge sees them: the shape merge needs of them, defined
 * here and implemented by the reviews service (services/reviews, which owns the rules,
 * change requests and approvals, and sits above merge). The wiring passes it in
 * (mergeRoutes(ctx, { gate })), so merge does not import reviews.
 *
 * Every path into main asks the same gate: mergeBranch (in process or staged) refuses a
 * merge with an unmet rule (409 merge_blocked, each unmet rule listed), and
 * getMergePreview shows each rule as met or not. Main has no other way in: a revert or a
 * batch on main is refused (409 main_not_writable) and importProject only creates a new
 * project (whose main has the default rules: none).
 */
import { ConflictError } from '../../shared/errors/domainErrors';
import type { QueryRunner } from '../../shared/neo4j/namedQuery';
import type { BranchRecord } from '../branches';
import type { View } from '../graph';

export type RuleName = 'required_approvals' | 'no_error_findings' | 'up_to_date';

export interface RuleCheck {
  rule: RuleName;
  met: boolean;
  message: string;
}

export interface GateInput {
  main: BranchRecord;
  branch: BranchRecord;
  /** Main's write view with the merge written, or null when the merge conflicts. */
  merged: View | null;
}

export interface MergeGate {
  /** Each rule main has, as this merge would meet it (none: an empty list). */
  rulesOf(tx: QueryRunner, input: GateInput): Promise<RuleCheck[]>;
  /** In the merge's transaction, once the branch is merged (its change request follows). */
  merged(
    tx: QueryRunner,
    input: { branch: BranchRecord; actorId: string; now: string },
  ): Promise<void>;
}

/** No rules and nothing to follow a merge: what merge does without the reviews service. */
export const OPEN_GATE: MergeGate = {
  rulesOf: async () => [],
  merged: async () => undefined,
};

/** 409 merge_blocked when a rule is unmet; `unmet_rules` lists each. */
export async function requireRulesMet(
  gate: MergeGate,
  tx: QueryRunner,
  input: GateInput,
): Promise<void> {
  const unmet = (await gate.rulesOf(tx, input)).filter((r) => !r.met);
  if (unmet.length === 0) return;
  const n = unmet.length;
  throw new ConflictError(
    'merge_blocked',
    `the merge does not meet ${n} of main's protection rules: ${unmet.map((r) => r.rule).join(', ')}`,
    { unmet_rules: unmet },
  );
}
