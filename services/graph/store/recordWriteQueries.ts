/**
 * The copy-on-write primitives of the versioned store: the only Cypher that creates,
 * closes or tombstones state records. Every write goes through a write view
 * (view.ts writeViewOf: `$view.ver` is the version being written, w) and keeps the
 * invariants the visibility rule (visibility.ts) relies on:
 *   - a line has at most one open record (vto = OPEN) per entity;
 *   - a line's records of an entity are contiguous from its first one: writing at w
 *     closes the open record at w and opens the next at w (a record already written at
 *     w, earlier in the same version, is changed in place);
 *   - main's line never holds tombstones (deleting closes the record); a working
 *     branch deletes with a tombstone, which shadows main's record (a kept finding the
 *     branch recorded itself is closed in place: findingClosesInPlace).
 */
import { join } from 'node:path';
import { statementsIn } from '../../../shared/neo4j/statementFiles';
import { OPEN_CYPHER, RecordLabel, seek, viewImportAfter } from './visibility';

const statement = statementsIn(join(__dirname, 'statements'));

/**
 * Upserts entities: `$rows` is a list of {id, props, replace}. The new state is the
 * entity's state visible in the view with `props` laid over it (a null value removes
 * the property), or `props` alone when `replace` is true or the entity is new there.
 * One statement per label (statements/upsert<label>States.cypher).
 */
const upsert = (label: RecordLabel) => statement(`upsert${label}States`);

/**
 * The definition of a first write (statementRules.spec.ts holds every statement that
 * writes one, createGraphStates, recordBatch, lockAndPrefetchAddRun, to this text): it
 * writes the first state in the view `V` (a map expression: the parameter `$view`, or a
 * variable of the statement) of entities it does not have: `rows` (a list expression: a
 * parameter, or a variable of the statement) is a list of {id, props} with distinct ids.
 * There is no visible state to lay the props over; only a record left open on the line
 * (a tombstone) is closed at w, in one pass over the rows before they are created: a
 * lookup per row that finds nothing, not an optional match and a conditional write per
 * row. Answers how many, as `written`. The body of a `CALL` subquery importing `V`,
 * `rows` and `closing` when they are variables.
 *
 * `closing` (a list expression), when given, lists every id of the rows that may have
 * a record left open on the line (the tombstones a read of the same statement found:
 * addRunQueries.ts), and only those rows are looked up.
 */
export function createStatesBody(
  label: RecordLabel,
  rows: string,
  written: string,
  V = '$view',
  closing?: string,
): string {
  const imports = [V, rows, closing ?? '$']
    .filter((x, i, all) => !x.startsWith('$') && all.indexOf(x) === i)
    .join(', ');
  const w = `toInteger(${V}.ver)`;
  const open = closing === undefined ? rows : `[r IN ${rows} WHERE r.id IN ${closing}]`;
  return `CALL (${imports}) {
       UNWIND ${open} AS open
       MATCH (cur:${label} {branch_id: ${V}.line, id: open.id}) ${seek('cur', label, ['id'])}
       WHERE cur.vto = ${OPEN_CYPHER}
       SET cur.vto = ${w}
     }
     ${newLineStatesBody(label, rows, written, V)}`;
}

/**
 * The definition of a first write on a new line, one no record was ever written on (an
 * imported main's, before it is published): the first state of each of `rows` at the
 * view's version, with nothing to close. The second half of every first write
 * (createStatesBody). Answers how many, as `written`.
 *
 * Each record gets all its properties in one SET of one map: Neo4j works out the index
 * entries of a record's properties at each SET (a node is in up to eight indexes), so
 * the row's own properties and then its line, id and versions one by one made it do
 * that five times a record; the profile of a 100k-node import put the difference at
 * about a tenth of Neo4j's time writing it.
 */
export function newLineStatesBody(
  label: RecordLabel,
  rows: string,
  written: string,
  V = '$view',
): string {
  // a view held in a query variable stays in scope past the WITH
  const carried = V.startsWith('$') ? '' : `${V}, `;
  return `UNWIND ${rows} AS row
     WITH ${carried}row.id AS id, row.props AS props
     CREATE (n:${label})
     SET n = props {.*, branch_id: ${V}.line, id: id, vfrom: toInteger(${V}.ver),
         vto: ${OPEN_CYPHER}}
     RETURN count(*) AS ${written}`;
}

/**
 * New nodes, ports and wires in one statement (createStatesBody of each list: `$nodes`,
 * `$ports`, `$edges`, in that order): a batch's run of additions, whose checks found
 * every id unused in the view, costs one statement, not one per label.
 */
export const createGraphStates = statement('createGraphStates');

/**
 * The first content of a new line (newLineStatesBody of `$nodes`, `$ports`, `$edges`
 * and `$findings`, each in a `CALL`): a part of an import, whose line no record was
 * written on before, so nothing is looked up.
 */
export const createNewLineStates = statement('createNewLineStates');

/**
 * The definition of a removal (statementRules.spec.ts holds every statement that removes
 * records to this text): it removes the entities listed by `ids` (a list expression) from
 * the view. The line's own open record is closed at w (dropped when written at w). On a
 * working branch, a node, port or wire then gets a tombstone at w, as does any entity
 * the branch sees through main: merge, rebase and revert read a branch's removals from
 * its tombstones. A finding the branch recorded itself does not (findingClosesInPlace).
 * Answers how many, as `removed`. The body of a statement, or of a `CALL` subquery.
 */
export function removeStatesBody(label: RecordLabel, ids: string, V = '$view'): string {
  const w = `toInteger(${V}.ver)`;
  const view = viewImportAfter(V);
  // the line's own older record is closed: on main always, on a branch only a finding's
  const closeOwn = findingClosesInPlace(label)
    ? { imports: `cur, older${view}`, when: 'older' }
    : { imports: `cur, onMain, older${view}`, when: 'onMain AND older' };
  // a branch's tombstone: for what it sees through main, and (but for a finding) after
  // the record of its own it closes
  const tombstone = findingClosesInPlace(label)
    ? `CALL (cur, onMain, id${view}) {
       WITH id WHERE NOT onMain AND cur IS NULL`
    : `CALL (cur, onMain, older, id${view}) {
       WITH cur, id WHERE NOT onMain AND (cur IS NULL OR older)
       FOREACH (c IN CASE WHEN cur IS NULL THEN [] ELSE [cur] END | SET c.vto = ${w})`;
  return `UNWIND ${ids} AS id
     OPTIONAL MATCH (cur:${label} {branch_id: ${V}.line, id: id}) ${seek('cur', label, ['id'])}
     WHERE cur.vto = ${OPEN_CYPHER}
     WITH id, cur, ${V}.line = ${V}.main AS onMain,
          cur IS NOT NULL AND cur.vfrom = ${V}.ver AS sameVersion,
          cur IS NOT NULL AND cur.vfrom < ${V}.ver AS older
     CALL (${closeOwn.imports}) {
       WITH cur WHERE ${closeOwn.when}
       SET cur.vto = ${w}
     }
     CALL (cur, onMain, sameVersion, id${view}) {
       WITH cur, id WHERE NOT onMain AND sameVersion
       SET cur = {branch_id: ${V}.line, id: id, vfrom: ${w}, vto: ${OPEN_CYPHER}, gone: true}
     }
     ${tombstone}
       CREATE (:${label} {branch_id: ${V}.line, id: id, vfrom: ${w}, vto: ${OPEN_CYPHER}, gone: true})
     }
     // last, and decided before any subquery runs: nothing reads a record deleted here
     CALL (cur, onMain, sameVersion) {
       WITH cur WHERE onMain AND sameVersion
       DELETE cur
     }
     RETURN count(id) AS removed`;
}

/**
 * Whether a working branch removes records of `label` it wrote itself by closing them
 * in place, as main does, without a tombstone after them: kept findings do. A closed
 * record of the branch's line already hides main's record of the same id from every
 * view at or after its start (visibility.ts: main's record shows only while the line has
 * none from before the view), so a tombstone after it would change no answer; and
 * findings are derived, never carried by a merge (main's are recomputed), rebased or
 * reverted record by record (the branch's are recomputed). History retention keeps such
 * a closed record while it is the finding's last (purge's purgeExpiredRecords), so it
 * goes on hiding main's record once no readable version sees it. A batch that clears many
 * findings (a thousand wires satisfying a thousand inputs) writes one record fewer
 * for each, and its commit updates six fewer index entries for each.
 */
function findingClosesInPlace(label: RecordLabel): boolean {
  return label === 'GFinding';
}

/** removeStatesBody of `$ids`, one statement per label (statements/remove<label>States.cypher). */
const remove = (label: RecordLabel) => statement(`remove${label}States`);

export const upsertNodeStates = upsert('GNode');
export const upsertPortStates = upsert('Port');
export const upsertEdgeStates = upsert('Edge');
export const removeNodeStates = remove('GNode');
export const removePortStates = remove('Port');
export const removeEdgeStates = remove('Edge');
export const upsertFindingStates = upsert('GFinding');
export const removeFindingStates = remove('GFinding');

/**
 * Sets the layout (x, y) of nodes visible in the view. Positions are not history: a
 * record of the view's line is changed in place; a node the view sees through main's
 * line gets its first record on the branch's line at the view's version.
 */
export const placeNodeStates = statement('placeNodeStates');
