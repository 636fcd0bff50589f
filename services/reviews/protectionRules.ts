/**
 * Main's protection rules: read (every member; the defaults, none, until the owner sets
 * them), set (the project's owner), and checked against a merge: each rule defined once
 * here, with what it checks and its message, for mergeBranch's gate and the previews.
 */
import type { QueryRunner } from '../../shared/neo4j/namedQuery';
import { findingsOf } from '../graph';
import type { GateInput, RuleCheck } from '../merge';
import { approvalsOf } from './approvals';
import { findRules } from './store/ruleQueries';

export interface ProtectionRules {
  required_approvals: number;
  no_error_findings: boolean;
  require_up_to_date: boolean;
}

export const DEFAULT_RULES: ProtectionRules = {
  required_approvals: 0,
  no_error_findings: false,
  require_up_to_date: false,
};

export interface StoredRules {
  rules: ProtectionRules;
  updatedAt: string | null;
}

export async function rulesOfProject(tx: QueryRunner, projectId: string): Promise<StoredRules> {
  const row = await tx.one<{ rules: ProtectionRules & { updated_at: string } }>(findRules, {
    projectId,
  });
  if (!row) return { rules: DEFAULT_RULES, updatedAt: null };
  const { required_approvals, no_error_findings, require_up_to_date, updated_at } = row.rules;
  return {
    rules: { required_approvals, no_error_findings, require_up_to_date },
    updatedAt: updated_at,
  };
}

/** Each rule the project has set, as merging `branch` into `main` (written at `merged`) meets it. */
export async function checkRules(tx: QueryRunner, input: GateInput): Promise<RuleCheck[]> {
  const { rules } = await rulesOfProject(tx, input.main.project_id);
  const checks: RuleCheck[] = [];
  if (rules.required_approvals > 0) {
    const { current } = await approvalsOf(tx, input.branch);
    const needed = rules.required_approvals;
    checks.push({
      rule: 'required_approvals',
      met: current >= needed,
      message: `${current} of ${needed} required approval${needed === 1 ? '' : 's'} at the branch's current version`,
    });
  }
  if (rules.no_error_findings) {
    // a conflicting merge has no merged graph to check: the rule cannot be met
    const valid = input.merged !== null && (await findingsOf(tx, input.merged, 1)).valid;
    checks.push({
      rule: 'no_error_findings',
      met: valid,
      message: valid
        ? 'the merged main would have no error finding'
        : input.merged === null
          ? 'the merge conflicts: there is no merged main to check'
          : 'the merged main would have error findings',
    });
  }
  if (rules.require_up_to_date) {
    const { base_main_version: base } = input.branch;
    const met = base === input.main.version;
    checks.push({
      rule: 'up_to_date',
      met,
      message: met
        ? `the branch is based on main's current version ${base}`
        : `the branch is based on main's version ${base}; main is at ${input.main.version}`,
    });
  }
  return checks;
}
