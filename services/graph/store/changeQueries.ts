/** Publishing a batch: the branch's version advances and the batch is recorded on its
 * change trail (trailQueries.ts recordChangeCypher). */
import { join } from 'node:path';
import { statementsIn } from '../../../shared/neo4j/statementFiles';
import { recordChangeCypher } from './trailQueries';

const statement = statementsIn(join(__dirname, 'statements'));

/**
 * Advances the branch version by one and records the batch ($change: its parsed deltas
 * as JSON text and that text's size in bytes; $touches: what it touched) and the branch's usage counters after
 * it (graph/branchUsage.ts), in the apply transaction. With it, the kept findings a
 * batch of additions opens (`$findings.opened`, rows of findingRow) and closes
 * (`$findings.closed`, ids) through the write view `$view` (graph/runFindings.ts), so
 * that they cost no statement of their own; both lists are empty when the batch's
 * findings were recomputed (graph/findingRecords.ts refreshFindings).
 */
export const recordBatch = statement('recordBatch');

/**
 * The definition of publishing (statementRules.spec.ts holds recordBatch and
 * lockAndPrefetchAddRun to this text): the clauses that publish a batch on the branch bound to `b`: its version advances by
 * one, its usage counters become `usage` (Cypher expressions), and the batch is recorded
 * at the new version ($now, and the trail's $change and $touches: graph/trail/). recordBatch,
 * and the statement that takes a batch's lock when that statement records the batch too
 * (addRunQueries.ts lockAndPrefetchAddRun).
 */
export function publishBatchCypher(
  b: string,
  usage: { nodes: string; edges: string; bytes: string },
): string {
  return `SET ${b}.version = ${b}.version + 1, ${b}.last_active_at = $now,
       ${b}.node_count = ${usage.nodes}, ${b}.edge_count = ${usage.edges}, ${b}.stored_bytes = ${usage.bytes}
   ${recordChangeCypher(b)}`;
}

export const touchBranch = statement('touchBranch');

/** A branch's version alone (a full read checks that it did not move while it read). */
export const readBranchVersion = statement('readBranchVersion');
