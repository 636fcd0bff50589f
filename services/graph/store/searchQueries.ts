/**
 * Cypher of the name search (searchNodes, searchMainNodes), written whole: no fragment
 * is spliced in, so the text moves to a .cypher file as it is. It therefore writes out
 * three rules defined elsewhere, each checked against its definition by
 * searchQueries.spec.ts:
 *   - the caller's access row of the branch (branches' branchAccessCypher());
 *   - the view of the branch at its head or at $version (scopedReadFragments.ts VIEW_OF,
 *     visibility.ts viewFieldsOf);
 *   - the visibility rule of the versioned store for that view (visibility.ts defines
 *     it: a record of the view's line valid at its version, or a record of main valid
 *     at the branch's base that the branch has not shadowed, never a tombstone).
 *
 * Names are matched on `name_key`, the lower-cased name every node record carries
 * (deltas/nodeState.ts writes it with the name; migration/backfillNameKeys.ts gave it to
 * records written before), against $q, lower-cased by the caller. Two indexes serve it
 * (graphSchema.ts):
 *   - tier 1, names starting with $q: per line of the view, a seek on the RANGE index
 *     (branch_id, name_key) read in the index's order and stopped after $limit + 1
 *     visible records. Its cost follows $limit and the records of the view's lines
 *     skipped on the way (older versions, shadowed ones), not the size of the graph nor
 *     how many names match; other lines and projects are never read.
 *   - tier 2, names containing $q but not starting with it, only when tier 1 did not
 *     fill the answer: the TEXT index on name_key (trigrams, serves CONTAINS), whose
 *     candidates are the records of the whole store containing $q (every line and
 *     version), each kept when it is on the view's lines and visible, then ordered. Its
 *     cost follows how many records contain $q, not the size of the graph: flat for a
 *     selective text, growing with the matches for a broad one that no name starts with.
 * A node is found wherever it sits (inside boundaries never opened); its ancestors are
 * read afterwards at the same view (scopedLoader.ts completeChains).
 */
import { cypher } from '../../../shared/neo4j/namedQuery';

/**
 * Name search on branch $branchId in one statement with the branch's access row (caller
 * $userId), at its head or at $version: the nodes whose lower-cased name contains $q,
 * those starting with it first, each tier ordered by lower-cased name, then name, then
 * id; at most $limit + 1 (the extra one only tells the caller the answer was cut). With
 * no such branch there is no row; on a discarded branch `found` is null.
 */
export const searchNodesOf = cypher(
  'searchNodesOf',
  `MATCH (b:Branch {id: $branchId}) WHERE b.deleted_at IS NULL
   // the caller's access row: the branches service's rule (branchAccessCypher)
   WITH b
   OPTIONAL MATCH (p:Project {id: b.project_id}) WHERE p.deleted_at IS NULL
   OPTIONAL MATCH (:User {id: $userId})-[m:MEMBER_OF]->(p)
   // the view: the branch's line at its head or $version, and main at its base then
   WITH b, p, m, {line: b.id, ver: coalesce(toInteger($version), b.version), main: b.main_id,
   base: CASE WHEN b.id = b.main_id THEN coalesce(toInteger($version), b.version)
              ELSE coalesce(head([i IN range(0, size(coalesce(b.prior_base_until, [])) - 1)
                                  WHERE coalesce(toInteger($version), b.version) < b.prior_base_until[i] | b.prior_bases[i]]),
                            b.base_main_version) END} AS view
   OPTIONAL CALL (b, view) {
     WITH view WHERE b.status <> 'discarded'
     // tier 1: names starting with $q, per line in the order of the (branch_id, name_key)
     // index (branch_id is fixed in each seek), the visibility rule of visibility.ts
     // applied to each record read, at most $limit + 1 per line
     CALL (view) {
       CALL (view) {
         MATCH (n:GNode) USING INDEX SEEK n:GNode(branch_id, name_key)
         WHERE n.branch_id = view.line AND n.name_key STARTS WITH $q
           AND n.vfrom <= view.ver AND view.ver < n.vto AND n.gone IS NULL
         WITH n ORDER BY n.branch_id, n.name_key, n.name, n.id LIMIT toInteger($limit) + 1
         RETURN n
         UNION ALL
         // main's line, on a working branch only: the test stands before the seek, in a
         // subquery of its own, so main's view never reads its line twice
         WITH view WHERE view.line <> view.main
         CALL (view) {
           MATCH (n:GNode) USING INDEX SEEK n:GNode(branch_id, name_key)
           WHERE n.branch_id = view.main AND n.name_key STARTS WITH $q
             AND n.vfrom <= view.base AND view.base < n.vto AND n.gone IS NULL
             AND NOT EXISTS { MATCH (shadow:GNode {branch_id: view.line, id: n.id})
                              USING INDEX SEEK shadow:GNode(branch_id, id)
                              WHERE shadow.vfrom <= view.ver }
           WITH n ORDER BY n.branch_id, n.name_key, n.name, n.id LIMIT toInteger($limit) + 1
           RETURN n
         }
         RETURN n
       }
       WITH n ORDER BY n.name_key, n.name, n.id LIMIT toInteger($limit) + 1
       RETURN collect(n) AS starting
     }
     // tier 2, only when tier 1 left room: names containing $q elsewhere, through the TEXT
     // index, kept when visible in the view (the rule of visibility.ts, both lines)
     // (the test stands before the scan, in a subquery of its own: a full tier 1 never
     // reads the TEXT index)
     CALL (view, starting) {
       WITH view WHERE size(starting) <= toInteger($limit)
       CALL (view) {
         MATCH (n:GNode) USING TEXT INDEX n:GNode(name_key)
         WHERE n.name_key CONTAINS $q AND NOT n.name_key STARTS WITH $q
           AND n.branch_id IN [view.line, view.main] AND n.gone IS NULL
           // as a CASE, so that the shadow test is made for main's records only
           AND CASE WHEN n.branch_id = view.line THEN n.vfrom <= view.ver AND view.ver < n.vto
                    ELSE view.line <> view.main AND n.branch_id = view.main
                         AND n.vfrom <= view.base AND view.base < n.vto
                         AND NOT EXISTS { MATCH (shadow:GNode {branch_id: view.line, id: n.id})
                                          USING INDEX SEEK shadow:GNode(branch_id, id)
                                          WHERE shadow.vfrom <= view.ver } END
         WITH n ORDER BY n.name_key, n.name, n.id LIMIT toInteger($limit) + 1
         RETURN n
       }
       RETURN collect(n) AS containing
     }
     RETURN [n IN (starting + containing)[..toInteger($limit) + 1] |
             {id: n.id, name: n.name, kind: n.kind, parent_id: n.parent_id}] AS found
   }
   RETURN b {.*} AS branch, p {.*} AS project, m.role AS role, found`,
);
