/**
 * Cypher of the kept findings (findingRecords.ts): `GFinding` records under the
 * visibility rule, one per finding (id = `code:locator`), with
 *   subject   the entity it is recomputed with (the locator: a port, a wire, a node)
 *   code, locator, severity, message
 *   sort_key  `<0 error | 1 warning | 9 marker>:<code>:<locator>`, the order findings
 *             are listed in (code-point order of severity, code, locator)
 * A node that records provenance has a `traced` marker (sort_key `9:traced:<id>`),
 * never listed: whether orphan_node findings are reported depends on one existing.
 * The rules themselves are those of findingQueries.ts, asked of given subjects.
 */
import { cypher, pinnedCypher } from '../../../shared/neo4j/namedQuery';
import { ORPHAN_NODE } from '../findingRules';
import { WIRE_RULES } from './findingQueries';
import { optionalStateOf, seek, stateOf, statesWhere, visible, wiresOnPort } from './visibility';

/** A kept finding's record id: one record per code and locator. */
export const findingId = (code: string, locator: string): string => `${code}:${locator}`;

/** findingId as a Cypher expression, of a locator given as a Cypher expression. */
export const findingIdCypher = (code: string, locator: string): string => `'${code}:' + ${locator}`;

/**
 * Whether the findings of view `V` are kept, as a Cypher expression over the rows of its
 * line `b` and of main `m` (either null when missing): see findingsKept.
 */
export const keptThrough = (b: string, m: string, V = '$view') =>
  `(coalesce(${b}.findings_from <= ${V}.ver, false)
    AND (${V}.line = ${V}.main OR coalesce(${m}.findings_from <= ${V}.base, false)))`;

/**
 * Whether the findings of `$view` are kept as records: its line keeps them from a
 * version at or below the view's and, on a working branch, main keeps them from a
 * version at or below the branch's base. Stores written before findings were kept have
 * no `findings_from`; their findings are computed whole (findings.ts).
 */
export const findingsKept = cypher(
  'findingsKept',
  `OPTIONAL MATCH (b:Branch {id: $view.line})
   OPTIONAL MATCH (m:Branch {id: $view.main})
   RETURN ${keptThrough('b', 'm')} AS kept`,
);

/** unsatisfied_input of the ports listed in `ids`: input ports of the view with no incoming wire. */
const PORT_RULE = (ids: string) => `UNWIND ${ids} AS id
   ${stateOf('p', 'Port', 'id')} AND p.channel = 'inputs'
     AND NOT EXISTS { ${statesWhere('e', 'Edge', { target_handle: 'p.id' })} }
   RETURN collect({locator: p.id, name: left(coalesce(p.name, ''), $quoted)}) AS portRows`;

/** dangling_wire and type_mismatch of the wires listed in `ids`. */
const WIRE_RULE = (ids: string) => `CALL (${ids}) {
     UNWIND ${ids} AS id
     ${stateOf('e', 'Edge', 'id')}
     ${WIRE_RULES}
   }
   RETURN collect({locator: locator, dangling: dangling, sourceType: sourceType,
                   targetType: targetType}) AS edgeRows`;

/**
 * The nodes listed in `ids` with their parent, whether they record provenance, and
 * whether their parent is an orphan by its kept orphan_node record (which answers for a
 * parent the write did not reach).
 */
const NODE_ROWS = (ids: string) => `UNWIND ${ids} AS id
   ${stateOf('n', 'GNode', 'id')}
   CALL (n) {
     ${optionalStateOf('f', 'GFinding', findingIdCypher(ORPHAN_NODE, 'n.parent_id'))}
     RETURN f IS NOT NULL AS parentOrphan
   }
   RETURN collect({id: n.id, parentId: n.parent_id,
                   traced: size(coalesce(n.source_decisions, [])) > 0,
                   name: left(coalesce(n.name, ''), $quoted), parentOrphan: parentOrphan}) AS nodeRows`;

/** The kept findings (markers included) of the subjects listed in `ids`. */
const KEPT_OF = (ids: string) => `UNWIND ${ids} AS sid
   ${statesWhere('f', 'GFinding', { subject: 'sid' })}
   RETURN collect({id: f.id, code: f.code, locator: f.locator, severity: f.severity,
                   message: f.message}) AS keptRecords`;

/**
 * What a write reached and the findings of it, in one round trip. The written
 * entities reach the input ports wires $edgeIds end on (before, in `$prev`, and now),
 * the wires on ports $portIds, and those of $nodeIds that existed before and changed
 * parent or provenance (`movedNodes`: their subtrees follow, asked of nodeSubjectRows
 * and subjectRecords by the caller). Answers the subjects (`ports`, `edges`), the rules
 * asked of them and of $nodeIds, their kept records, and whether the view keeps its
 * findings (as findingsKept; false on a line with no branch yet, a staged import's,
 * whose caller knows better).
 */
export const findingSubjects = pinnedCypher(
  'findingSubjects',
  `CALL () {
     UNWIND $edgeIds AS id
     CALL (id) {
       ${optionalStateOf('e', 'Edge', 'id')}
       ${optionalStateOf('o', 'Edge', 'id', '$prev')}
       RETURN [e.target_handle, o.target_handle] AS ends
     }
     UNWIND ends AS pid
     WITH pid WHERE pid IS NOT NULL
     RETURN collect(DISTINCT pid) AS endPorts
   }
   CALL () {
     UNWIND $portIds AS pid
     CALL (pid) {
       ${wiresOnPort('e', 'pid', 'e.id AS eid')}
     }
     RETURN collect(DISTINCT eid) AS portEdges
   }
   CALL () {
     UNWIND $nodeIds AS id
     CALL (id) {
       ${optionalStateOf('n', 'GNode', 'id')}
       ${optionalStateOf('o', 'GNode', 'id', '$prev')}
       RETURN n IS NOT NULL AND o IS NOT NULL
              AND (coalesce(n.parent_id, '') <> coalesce(o.parent_id, '')
                   OR coalesce(n.source_decisions, []) <> coalesce(o.source_decisions, [])) AS moved
     }
     WITH id WHERE moved
     RETURN collect(id) AS movedNodes
   }
   WITH movedNodes,
        COLLECT { UNWIND $portIds + endPorts AS x RETURN DISTINCT x } AS ports,
        COLLECT { UNWIND $edgeIds + portEdges AS x RETURN DISTINCT x } AS edges
   CALL (ports) { ${PORT_RULE('ports')} }
   CALL (edges) { ${WIRE_RULE('edges')} }
   CALL () { ${NODE_ROWS('$nodeIds')} }
   CALL (ports, edges) { ${KEPT_OF('ports + edges + $nodeIds')} }
   OPTIONAL MATCH (b:Branch {id: $view.line})
   OPTIONAL MATCH (m:Branch {id: $view.main})
   RETURN ports, edges, movedNodes, portRows, edgeRows, nodeRows, keptRecords,
          ${keptThrough('b', 'm')} AS kept`,
);

/** NODE_ROWS of the nodes $ids (the subtrees a write moved), in one row. */
export const nodeSubjectRows = cypher('nodeSubjectRows', NODE_ROWS('$ids'));

/** KEPT_OF the subjects $ids (the subtrees a write moved), in one row. */
export const subjectRecords = cypher('findingSubjectRecords', KEPT_OF('$ids'));

/**
 * The first $limit kept findings of the view with sort_key in [$from, $to), in order:
 * the line's own records, and (on a working branch) main's records at the base that the
 * branch has not shadowed, each read in sort_key order from the (branch_id, sort_key)
 * index; the caller merges the two lists.
 */
export const orderedFindings = cypher(
  'orderedFindings',
  `CALL () {
     MATCH (f:GFinding) ${seek('f', 'GFinding', ['sort_key'])}
     WHERE f.branch_id = $view.line AND f.sort_key >= $from AND f.sort_key < $to
       AND f.vfrom <= $view.ver AND $view.ver < f.vto AND f.gone IS NULL
     WITH f ORDER BY f.sort_key LIMIT toInteger($limit)
     RETURN collect(f {.sort_key, .code, .locator, .severity, .message}) AS own
   }
   CALL () {
     MATCH (f:GFinding) ${seek('f', 'GFinding', ['sort_key'])}
     WHERE $view.line <> $view.main AND f.branch_id = $view.main
       AND f.sort_key >= $from AND f.sort_key < $to
       AND ${visible('f', 'GFinding')}
     WITH f ORDER BY f.sort_key LIMIT toInteger($limit)
     RETURN collect(f {.sort_key, .code, .locator, .severity, .message}) AS inherited
   }
   RETURN own, inherited`,
);

/**
 * The findings a write at version $w changed on main's line $line (a merge, staged or
 * not): records opened at $w whose key had no record closed at $w (added), and records
 * closed at $w whose key has none opened at $w (cleared), the first $limit of each in
 * order, with sort_key below $to (markers and, when so asked, orphan_node excluded).
 */
export const findingChangesAt = cypher(
  'findingChangesAt',
  `CALL () {
     MATCH (f:GFinding) ${seek('f', 'GFinding', ['vfrom'])}
     WHERE f.branch_id = $line AND f.vfrom = $w AND f.sort_key < $to
       AND NOT EXISTS { MATCH (g:GFinding {branch_id: $line, id: f.id})
                        ${seek('g', 'GFinding', ['id'])} WHERE g.vto = $w }
     WITH f ORDER BY f.sort_key LIMIT toInteger($limit)
     RETURN collect(f {.code, .locator, .severity, .message}) AS added
   }
   CALL () {
     MATCH (f:GFinding) ${seek('f', 'GFinding', ['vto'])}
     WHERE f.branch_id = $line AND f.vto = $w AND f.sort_key < $to
       AND NOT EXISTS { MATCH (g:GFinding {branch_id: $line, id: f.id})
                        ${seek('g', 'GFinding', ['id'])} WHERE g.vfrom = $w }
     WITH f ORDER BY f.sort_key LIMIT toInteger($limit)
     RETURN collect(f {.code, .locator, .severity, .message}) AS cleared
   }
   RETURN added, cleared`,
);
