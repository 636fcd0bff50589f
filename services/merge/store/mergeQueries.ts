/**
 * Cypher of the merge service (mergeBranch, previewMerge): the merge's own writes on
 * main and on the merged branch. The trails it reads and records are graph's
 * (graph/trail/).
 */
import { join } from 'node:path';
import { statementsIn } from '../../../shared/neo4j/statementFiles';

const statement = statementsIn(join(__dirname, 'statements'));

/**
 * Advances main by one, publishing the records the merge wrote at that version, in the
 * merge transaction; the merge is then recorded on main's trail (graph's appendMerge).
 */
export const advanceMain = statement('advanceMain');
