/**
 * Cypher of the merge service (mergeBranch, previewMerge): the merge's own writes on
 * main and on the merged branch. The trails it reads and records are graph's
 * (graph/trail/).
 */
import { cypher } from '../../../shared/neo4j/namedQuery';

const BRANCH = 'b {.*} AS branch';

/**
 * Advances main by one, publishing the records the merge wrote at that version, in the
 * merge transaction; the merge is then recorded on main's trail (graph's appendMerge).
 */
export const advanceMain = cypher(
  'advanceMain',
  `MATCH (b:Branch {id: $mainId})
   SET b.version = b.version + 1, b.last_active_at = $now
   RETURN ${BRANCH}`,
);
