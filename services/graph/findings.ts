/** Computes the §2.13 findings of a branch, sorted by severity, code, locator (interpretations). */
import type { components } from '../../shared/api/openapi.generated';
import type { QueryRunner } from '../../shared/neo4j/namedQuery';
import { orphanNodes, unsatisfiedInputs, wireFindings } from './store/findingQueries';

export type Finding = components['schemas']['Finding'];

const SEVERITY_ORDER = { error: 0, warning: 1 } as const;

export function sortFindings(findings: Finding[]): Finding[] {
  return findings.sort(
    (a, b) =>
      SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] ||
      a.code.localeCompare(b.code) ||
      a.locator.localeCompare(b.locator),
  );
}

export async function computeFindings(tx: QueryRunner, branchId: string): Promise<Finding[]> {
  const findings: Finding[] = [];
  for (const row of await tx.run<{ locator: string; name: string }>(unsatisfiedInputs, {
    branchId,
  })) {
    findings.push({
      code: 'unsatisfied_input',
      locator: row.locator,
      severity: 'error',
      message: `input port ${JSON.stringify(row.name ?? '')} has no incoming wire`,
    });
  }
  for (const row of await tx.run<{
    locator: string;
    dangling: boolean;
    sourceType: string;
    targetType: string;
  }>(wireFindings, { branchId })) {
    if (row.dangling) {
      findings.push({
        code: 'dangling_wire',
        locator: row.locator,
        severity: 'error',
        message: 'a handle of this wire names no port on the branch',
      });
    } else {
      findings.push({
        code: 'type_mismatch',
        locator: row.locator,
        severity: 'error',
        message: `wire joins type ${JSON.stringify(row.sourceType)} to ${JSON.stringify(row.targetType)}`,
      });
    }
  }
  for (const row of await tx.run<{ locator: string; name: string }>(orphanNodes, { branchId })) {
    findings.push({
      code: 'orphan_node',
      locator: row.locator,
      severity: 'warning',
      message: `node ${JSON.stringify(row.name ?? '')} traces to no source decision`,
    });
  }
  return sortFindings(findings);
}
