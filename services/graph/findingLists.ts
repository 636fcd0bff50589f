/**
 * Listing the kept findings (findingRecords.ts keeps them): the findings of a view in
 * list order, read from the (branch_id, sort_key) index so the first few cost the same
 * whatever the graph's size, and the findings a merge changed on main. orphan_node is
 * listed only when some node of the view is traced (findingRecords.ts says why).
 */
import type { QueryRunner } from '../../shared/neo4j/namedQuery';
import { capFindings, computeFindings, Finding } from './findings';
import { findingsAreKept, KeptFinding } from './findingRecords';
import { findingChangesAt, orderedFindings } from './store/findingRecordQueries';
import type { View } from './view';

/** The findings of a view, listed as validateDeltas answers them. */
export interface FindingList {
  /** At most `max`, the first in order. */
  findings: Finding[];
  truncated: boolean;
  /** No error finding at all (whether listed or not). */
  valid: boolean;
}

/**
 * The findings of `view`: read from the kept records in list order when the view keeps
 * them (the first max + 1 suffice), else computed whole.
 */
export async function findingsOf(tx: QueryRunner, view: View, max: number): Promise<FindingList> {
  if (!(await findingsAreKept(tx, view))) {
    const all = await computeFindings(tx, view);
    return { ...capFindings(all, max), valid: !all.some((f) => f.severity === 'error') };
  }
  const traced = await viewIsTraced(tx, view);
  // without a traced node orphan_node is not reported: errors only
  const listed = await orderedKept(tx, view, '0', traced ? '9' : '1', max + 1);
  const findings = listed.map(({ code, locator, severity, message }) => ({
    code,
    locator,
    severity,
    message,
  })) as Finding[];
  return {
    ...capFindings(findings, max),
    valid: findings.length === 0 || findings[0].severity !== 'error',
  };
}

/** Whether the view has a traced node (orphan_node findings are reported only then). */
export async function viewIsTraced(tx: QueryRunner, view: View): Promise<boolean> {
  return (await orderedKept(tx, view, '9:traced:', '9:traced;', 1)).length > 0;
}

async function orderedKept(
  tx: QueryRunner,
  view: View,
  from: string,
  to: string,
  limit: number,
): Promise<(KeptFinding & { sort_key: string })[]> {
  const row = await tx.one<{
    own: (KeptFinding & { sort_key: string })[];
    inherited: (KeptFinding & { sort_key: string })[];
  }>(orderedFindings, { view, from, to, limit });
  const merged = [...(row?.own ?? []), ...(row?.inherited ?? [])];
  merged.sort((a, b) => (a.sort_key < b.sort_key ? -1 : a.sort_key > b.sort_key ? 1 : 0));
  return merged.slice(0, limit);
}

/**
 * The findings a merge changed on main, compared by (code, locator): those of main's
 * write view `write` (records written at its version on main's line) against main at
 * `before`, the first `max` of each. Null when main does not keep its findings or the
 * merge changes whether orphan_node is reported (the first traced node, or the last,
 * adds or clears every orphan): the caller then compares the whole lists.
 */
export async function findingChangesOf(
  tx: QueryRunner,
  before: View,
  write: View,
  max: number,
): Promise<{ added: Finding[]; cleared: Finding[]; truncated: boolean } | null> {
  if (!(await findingsAreKept(tx, before))) return null;
  const traced = await viewIsTraced(tx, before);
  if ((await viewIsTraced(tx, write)) !== traced) return null;
  const row = await tx.one<{ added: Finding[]; cleared: Finding[] }>(findingChangesAt, {
    line: write.line,
    w: write.ver,
    to: traced ? '9' : '1',
    limit: max + 1,
  });
  const added = capFindings(row?.added ?? [], max);
  const cleared = capFindings(row?.cleared ?? [], max);
  return {
    added: added.findings,
    cleared: cleared.findings,
    truncated: added.truncated || cleared.truncated,
  };
}
