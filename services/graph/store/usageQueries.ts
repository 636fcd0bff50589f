/**
 * A branch's usage counters (node_count, edge_count, stored_bytes on the Branch),
 * kept by every write so the per-branch quotas are checked without a scan.
 */
import { join } from 'node:path';
import { statementsIn } from '../../../shared/neo4j/statementFiles';

const statement = statementsIn(join(__dirname, 'statements'));

/** Counts the nodes and wires a view sees (for a branch written before the counters existed). */
export const measureBranch = statement('measureBranch');

export const setBranchUsage = statement('setBranchUsage');
