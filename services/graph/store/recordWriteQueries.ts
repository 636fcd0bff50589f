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
 *     branch deletes with a tombstone, which shadows main's record.
 */
import { cypher, NamedQuery, pinnedCypher } from '../../../shared/neo4j/namedQuery';
import {
  OPEN_CYPHER,
  optionalStateOf,
  RecordLabel,
  seek,
  stateOf,
  viewImportAfter,
} from './visibility';

const W = 'toInteger($view.ver)';

/**
 * Upserts entities: `$rows` is a list of {id, props, replace}. The new state is the
 * entity's state visible in the view with `props` laid over it (a null value removes
 * the property), or `props` alone when `replace` is true or the entity is new there.
 */
function upsert(label: RecordLabel): NamedQuery {
  return cypher(
    `upsert${label}States`,
    `UNWIND $rows AS row
     CALL (row) {
       ${optionalStateOf('vis', label, 'row.id')}
       RETURN vis
     }
     CALL (row, vis) {
       WITH row, vis WHERE vis IS NOT NULL AND vis.branch_id = $view.line AND vis.vfrom = $view.ver
       FOREACH (_ IN CASE WHEN coalesce(row.replace, false) THEN [1] ELSE [] END |
         SET vis = row.props, vis.branch_id = $view.line, vis.id = row.id,
             vis.vfrom = ${W}, vis.vto = ${OPEN_CYPHER})
       FOREACH (_ IN CASE WHEN coalesce(row.replace, false) THEN [] ELSE [1] END |
         SET vis += row.props)
     }
     CALL (row, vis) {
       WITH row, vis WHERE vis IS NULL OR vis.branch_id <> $view.line OR vis.vfrom < $view.ver
       OPTIONAL MATCH (cur:${label} {branch_id: $view.line, id: row.id}) ${seek('cur', label, ['id'])}
       WHERE cur.vto = ${OPEN_CYPHER}
       FOREACH (c IN CASE WHEN cur IS NULL THEN [] ELSE [cur] END | SET c.vto = ${W})
       WITH row, vis,
            CASE WHEN vis IS NULL OR coalesce(row.replace, false) THEN {} ELSE properties(vis) END AS before
       CREATE (n:${label})
       SET n = before, n += row.props
       SET n.branch_id = $view.line, n.id = row.id, n.vfrom = ${W}, n.vto = ${OPEN_CYPHER}
       REMOVE n.gone
     }
     RETURN count(row) AS written`,
  );
}

/**
 * Writes the first state in the view `V` (a map expression: the parameter `$view`, or a
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
     UNWIND ${rows} AS row
     CREATE (n:${label})
     SET n = row.props, n.branch_id = ${V}.line, n.id = row.id, n.vfrom = ${w},
         n.vto = ${OPEN_CYPHER}
     RETURN count(row) AS ${written}`;
}

/**
 * New nodes, ports and wires in one statement (createStatesBody of each list: `$nodes`,
 * `$ports`, `$edges`, in that order): a batch's run of additions, whose checks found
 * every id unused in the view, costs one statement, not one per label.
 */
export const createGraphStates = pinnedCypher(
  'createGraphStates',
  `CALL () { ${createStatesBody('GNode', '$nodes', 'nodes')} }
   CALL () { ${createStatesBody('Port', '$ports', 'ports')} }
   CALL () { ${createStatesBody('Edge', '$edges', 'edges')} }
   RETURN nodes, ports, edges`,
);

/**
 * Removes the entities listed by `ids` (a list expression) from the view: on main's line
 * the open record is closed at w (dropped when written at w); on a working branch a
 * tombstone is written at w. Answers how many, as `removed`. The body of a statement, or
 * of a `CALL` subquery.
 */
export function removeStatesBody(label: RecordLabel, ids: string, V = '$view'): string {
  const w = `toInteger(${V}.ver)`;
  return `UNWIND ${ids} AS id
     OPTIONAL MATCH (cur:${label} {branch_id: ${V}.line, id: id}) ${seek('cur', label, ['id'])}
     WHERE cur.vto = ${OPEN_CYPHER}
     WITH id, cur, ${V}.line = ${V}.main AS onMain,
          cur IS NOT NULL AND cur.vfrom = ${V}.ver AS sameVersion,
          cur IS NOT NULL AND cur.vfrom < ${V}.ver AS older
     CALL (cur, onMain, older${viewImportAfter(V)}) {
       WITH cur WHERE onMain AND older
       SET cur.vto = ${w}
     }
     CALL (cur, onMain, sameVersion, id${viewImportAfter(V)}) {
       WITH cur, id WHERE NOT onMain AND sameVersion
       SET cur = {branch_id: ${V}.line, id: id, vfrom: ${w}, vto: ${OPEN_CYPHER}, gone: true}
     }
     CALL (cur, onMain, older, id${viewImportAfter(V)}) {
       WITH cur, id WHERE NOT onMain AND (cur IS NULL OR older)
       FOREACH (c IN CASE WHEN cur IS NULL THEN [] ELSE [cur] END | SET c.vto = ${w})
       CREATE (:${label} {branch_id: ${V}.line, id: id, vfrom: ${w}, vto: ${OPEN_CYPHER}, gone: true})
     }
     // last, and decided before any subquery runs: nothing reads a record deleted here
     CALL (cur, onMain, sameVersion) {
       WITH cur WHERE onMain AND sameVersion
       DELETE cur
     }
     RETURN count(id) AS removed`;
}

function remove(label: RecordLabel): NamedQuery {
  return cypher(`remove${label}States`, removeStatesBody(label, '$ids'));
}

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
export const placeNodeStates = cypher(
  'placeNodeStates',
  `UNWIND $positions AS pos
   CALL (pos) {
     ${stateOf('s', 'GNode', 'pos.id')}
     RETURN s
   }
   CALL (s, pos) {
     WITH s, pos WHERE s.branch_id = $view.line
     SET s.x = pos.x, s.y = pos.y
   }
   CALL (s, pos) {
     WITH s, pos WHERE s.branch_id <> $view.line
     CREATE (c:GNode)
     SET c = properties(s), c.branch_id = $view.line, c.vfrom = ${W}, c.vto = ${OPEN_CYPHER},
         c.x = pos.x, c.y = pos.y
   }
   RETURN count(s) AS written`,
);
