/**
 * Cypher of a rebase's publication (rebaseBranch, through trail/trail.ts appendRebase):
 * the branch's version advances, its base moves to main's version, the base it leaves
 * is kept with the version it lasted until (view.ts baseAt: a read pinned before the
 * rebase still sees main at that base), and the change is recorded on the trail.
 */
import { join } from 'node:path';
import { statementsIn } from '../../../shared/neo4j/statementFiles';

const statement = statementsIn(join(__dirname, 'statements'));

/** Publishes a rebase of $branchId onto main's version $base (expected at $expected). */
export const recordRebase = statement('recordRebase');
