/**
 * Cypher of staged merges (stagedMerge.ts): the lease a staging holds on main's Branch
 * (stage_id, stage_until in epoch ms, stage_version = the version being written), and the
 * removal of an abandoned staging's records. Records a staging writes carry vfrom = the
 * staged version and stay invisible to every reader until main's version is moved to it;
 * records it closes carry vto = that version and stay visible below it.
 */
import { join } from 'node:path';
import { statementsIn } from '../../../shared/neo4j/statementFiles';
import type { NamedQuery } from '../../../shared/neo4j/namedQuery';
import type { RecordLabel } from '../../graph';

const statement = statementsIn(join(__dirname, 'statements'));

/** Takes the lease on main (under main's lock, taken earlier in the transaction). */
export const openLease = statement('openMergeLease');

/**
 * Locks main, checks the lease is still this staging's and extends it; no row when
 * the lease was lost (taken over by the sweep after it ran out).
 */
export const holdLease = statement('holdMergeLease');

/** Ends the lease (publish or abort), when it is still this staging's. */
export const clearLease = statement('clearMergeLease');

/** Main branches whose staging lease ran out before `$before` (abandoned stagings). */
export const findAbandonedStagings = statement('findAbandonedMergeStagings');

/**
 * Takes an ended lease over for removal (under main's lock): no row when it was
 * renewed or ended meanwhile, or main's version already reached the staged one.
 */
export const takeOverLease = statement('takeOverMergeLease');

const dropStaged = (label: RecordLabel): NamedQuery => statement(`dropStaged${label}`);

const reopenClosed = (label: RecordLabel): NamedQuery => statement(`reopenStaged${label}`);

/** Content and its kept findings: a staging writes both at its version. */
const LABELS: readonly RecordLabel[] = ['GNode', 'Port', 'Edge', 'GFinding'];

/**
 * Removal of a staging of version `$version` on line `$line`, each an auto-commit
 * statement in batches: records it opened are deleted, records it closed reopened. Exact
 * because the record writes never close at a version a record they opened at it
 * (such a record is changed or deleted in place).
 */
export const ABORT_STAGING: readonly NamedQuery[] = [
  ...LABELS.map(dropStaged),
  ...LABELS.map(reopenClosed),
];
