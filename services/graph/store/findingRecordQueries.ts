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
import { join } from 'node:path';
import { statementsIn } from '../../../shared/neo4j/statementFiles';

const statement = statementsIn(join(__dirname, 'statements'));

/** A kept finding's record id: one record per code and locator. */
export const findingId = (code: string, locator: string): string => `${code}:${locator}`;

/**
 * findingId as a Cypher expression, of a locator given as a Cypher expression: the form
 * every statement names a kept finding's record by (statementRules.spec.ts holds each
 * `'<code>:' + locator` of statements/ to it, with a code of findingRules.ts).
 */
export const findingIdCypher = (code: string, locator: string): string => `'${code}:' + ${locator}`;

/**
 * Whether the findings of view `V` are kept, as a Cypher expression over the rows of its
 * line `b` and of main `m` (either null when missing): see findingsKept. The definition
 * each statement that asks it holds (findingsKept, findingSubjects, prefetchAddRun,
 * lockAndPrefetchAddRun: statementRules.spec.ts).
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
export const findingsKept = statement('findingsKept');

/**
 * What a write reached and the findings of it, in one round trip. The written
 * entities, $written (one map of their id lists, empty or not, so one plan serves every
 * write: paramShapes.ts), reach the input ports wires $written.edgeIds end on (before, in
 * `$prev`, and now), the wires on ports $written.portIds, and those of $written.nodeIds
 * that existed before and changed
 * parent or provenance (`movedNodes`: their subtrees follow, asked of nodeSubjectRows
 * and subjectRecords by the caller). Answers the subjects (`ports`, `edges`), the rules
 * asked of them and of $written.nodeIds, their kept records, and whether the view keeps its
 * findings (as findingsKept; false on a line with no branch yet, a staged import's,
 * whose caller knows better). The rules: `portRows`, unsatisfied_input of the ports (input
 * ports of the view with no incoming wire); `edgeRows`, dangling_wire and type_mismatch of
 * the wires (findingQueries.ts WIRE_RULES, the text wireFindings asks too); `nodeRows`,
 * the nodes $written.nodeIds with their parent, whether they record provenance, and whether their
 * parent is an orphan by its kept orphan_node record (which answers for a parent the
 * write did not reach); `keptRecords`, the kept findings (markers included) of all of them.
 */
export const findingSubjects = statement('findingSubjects');

/** findingSubjects's `nodeRows` of the nodes $ids (the subtrees a write moved), in one row. */
export const nodeSubjectRows = statement('nodeSubjectRows');

/** findingSubjects's `keptRecords` of the subjects $ids (the subtrees a write moved), in one row. */
export const subjectRecords = statement('findingSubjectRecords');

/**
 * The first $limit kept findings of the view with sort_key in [$from, $to), in order:
 * the line's own records, and (on a working branch) main's records at the base that the
 * branch has not shadowed, each read in sort_key order from the (branch_id, sort_key)
 * index; the caller merges the two lists.
 */
export const orderedFindings = statement('orderedFindings');

/**
 * The findings a write at version $w changed on main's line $line (a merge, staged or
 * not): records opened at $w whose key had no record closed at $w (added), and records
 * closed at $w whose key has none opened at $w (cleared), the first $limit of each in
 * order, with sort_key below $to (markers and, when so asked, orphan_node excluded).
 */
export const findingChangesAt = statement('findingChangesAt');
