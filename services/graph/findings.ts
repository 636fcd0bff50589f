/** Computes the Finding list of the graph a view sees (a branch or main at a version,
 * or a write view with a batch applied but not committed), sorted by severity (errors
 * first), code, locator. */
import type { components } from '../../shared/api/openapi.generated';
import type { QueryRunner } from '../../shared/neo4j/namedQuery';
import { CLIP_LENGTH } from '../../shared/text/clip';
import {
  danglingWireFinding,
  orphanNodeFinding,
  typeMismatchFinding,
  unsatisfiedInputFinding,
} from './findingRules';
import {
  anyProvenance,
  provenanceTree,
  unsatisfiedInputs,
  wireFindings,
} from './store/findingQueries';
import type { View } from './view';

export type Finding = components['schemas']['Finding'];

const SEVERITY_ORDER = { error: 0, warning: 1 } as const;
/** Characters of a name or type the queries return: one more than is quoted, so quote() marks the cut. */
export const QUOTED = CLIP_LENGTH + 1;

/** Code-point order of two strings (the order the kept findings' sort_key index gives). */
const byCodePoint = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Severity (errors first), then code, then locator, each in code-point order: the order
 * of the kept findings (findingRecords.ts), so both ways of listing agree. */
export function sortFindings(findings: Finding[]): Finding[] {
  return findings.sort(
    (a, b) =>
      SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] ||
      byCodePoint(a.code, b.code) ||
      byCodePoint(a.locator, b.locator),
  );
}

/** At most `max` findings (the first in order), and whether some were left out. */
export function capFindings(
  findings: Finding[],
  max: number,
): { findings: Finding[]; truncated: boolean } {
  return { findings: findings.slice(0, max), truncated: findings.length > max };
}

type TreeRow = {
  id: string;
  parentId: string | null;
  traced: boolean;
  name: string;
};

/**
 * Nodes whose own list and whose ancestors' lists are all empty, in one pass: each
 * node's answer is found by walking up only until a node already decided, and the
 * walk's nodes are decided on the way back, so every node is visited a bounded
 * number of times whatever the nesting depth.
 */
export function orphansOf(rows: TreeRow[]): TreeRow[] {
  const byId = new Map(rows.map((r) => [r.id, r]));
  const covered = new Map<string, boolean>();
  for (const row of rows) {
    const chain: string[] = [];
    const onChain = new Set<string>();
    let current: TreeRow | undefined = row;
    let answer = false;
    while (current) {
      const known = covered.get(current.id);
      if (known !== undefined) {
        answer = known;
        break;
      }
      if (current.traced) {
        answer = true;
        covered.set(current.id, true);
        break;
      }
      chain.push(current.id);
      onChain.add(current.id);
      current = current.parentId ? byId.get(current.parentId) : undefined;
      // a containment cycle cannot be stored; stop rather than loop if one were
      if (current && onChain.has(current.id)) break;
    }
    for (const id of chain) covered.set(id, answer);
  }
  return rows.filter((r) => covered.get(r.id) === false);
}

export async function computeFindings(tx: QueryRunner, view: View): Promise<Finding[]> {
  const findings: Finding[] = [];
  const params = { view, quoted: QUOTED };
  for (const row of await tx.run<{ locator: string; name: string }>(unsatisfiedInputs, params))
    findings.push(unsatisfiedInputFinding({ id: row.locator, name: row.name }));
  for (const row of await tx.run<{
    locator: string;
    dangling: boolean;
    sourceType: string;
    targetType: string;
  }>(wireFindings, params)) {
    const wire = { id: row.locator, sourceType: row.sourceType, targetType: row.targetType };
    findings.push(row.dangling ? danglingWireFinding(wire) : typeMismatchFinding(wire));
  }
  if (await tx.one(anyProvenance, { view })) {
    for (const row of orphansOf(await tx.run<TreeRow>(provenanceTree, params)))
      findings.push(orphanNodeFinding(row));
  }
  return sortFindings(findings);
}
