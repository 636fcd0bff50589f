/**
 * The visibility rule of the versioned store, defined once here as the Cypher that
 * applies it. The statements are kept whole (each service's store/statements/), and each
 * that applies the rule holds this text: statementRules.spec.ts derives the rule's Cypher
 * from these functions for each record variable, label and view a statement tests, and
 * finds it there exactly (a shadow test that is not the rule's fails it), and checks each
 * index hint against seek(). A query that reads graph content takes the map parameter
 * `$view` ({line, ver, main, base}, built in view.ts), or a view computed in the
 * statement, and keeps only the records this rule admits.
 *
 * Records: `GNode`, `Port` and `Edge` nodes, each one state of an entity, with
 *   branch_id  the line it was written on (main's id, or a working branch's id)
 *   id         the entity's id (unique within a view, not within the store)
 *   vfrom,vto  the versions of that line it is valid for: vfrom <= v < vto
 *              (vto = OPEN while current)
 *   gone       true on a branch's tombstone (the branch deleted an entity main has)
 * Containment and port ownership are property joins (GNode.parent_id, Port.node_id),
 * wires join ports by handle (Edge.source_handle / target_handle); every join is a seek
 * on an index keyed by (branch_id, ...), once per line of the view.
 *
 * A record `s` is visible in a view when
 *   - it is on the view's line and valid at the view's version, or
 *   - the view is a working branch's, `s` is on main's line and valid at the branch's
 *     base, and the branch has no record of the same entity from a version at or below
 *     the view's (shadowing: once a branch writes an entity, its own chain of records
 *     covers every later version of the branch);
 * and it is not a tombstone. At most one record of an entity is visible in a view.
 */

export type StateLabel = 'GNode' | 'Port' | 'Edge';

/**
 * Every label kept under the visibility rule: graph content, and `GFinding`, the
 * coherence findings of each version (findingRecords.ts), keyed by id = code:locator.
 */
export type RecordLabel = StateLabel | 'GFinding';

/**
 * The index of each lookup the fragments make, by label and the properties looked up
 * after branch_id (in the index's order). A lookup names its index in a hint: every
 * label has several indexes keyed by branch_id first, and a plan made while the store
 * is nearly empty (its statistics cannot tell them apart) would otherwise read a
 * line's whole range for each lookup and stay cached once the store grows.
 */
const INDEXED: Record<RecordLabel, readonly (readonly string[])[]> = {
  GNode: [['id'], ['vfrom'], ['vto'], ['parent_id'], ['scope', 'name']],
  Port: [['id'], ['vfrom'], ['vto'], ['node_id']],
  Edge: [['id'], ['vfrom'], ['vto'], ['source_handle'], ['target_handle']],
  GFinding: [['id'], ['vfrom'], ['vto'], ['subject'], ['sort_key']],
};

/**
 * `USING INDEX SEEK` on the (branch_id, ...props) index, or '' when there is none: for
 * a `MATCH (s:label ...)` that has branch_id and each of `props` in its predicates.
 * Each of `props` is given one value (`{id: fid}`), never a list (`s.id IN [...]`): with
 * a list, the hint is also honoured by a seek of branch_id alone that asks `id` only to
 * exist and filters afterwards, a plan the planner picks on a small store and replan=skip
 * keeps; it reads every record of the line. A list of values is looked up one value per
 * row (`UNWIND list AS fid CALL (fid) { MATCH ... }`).
 */
export function seek(s: string, label: RecordLabel, props: readonly string[]): string {
  const index = INDEXED[label].find(
    (keys) => keys.length === props.length && keys.every((key) => props.includes(key)),
  );
  return index ? `USING INDEX SEEK ${s}:${label}(branch_id, ${index.join(', ')})` : '';
}

/** OPEN as a Cypher integer literal (view.ts's OPEN). */
export const OPEN_CYPHER = '9007199254740991';

/**
 * The view (view.ts View) of branch row `b` at version `ver` (Cypher expressions), as
 * the fields of a Cypher map: a working branch reads main (`main_id`) at its base
 * beneath its own records, main reads itself. For statements that derive their view
 * from the branch row they read, in the same round trip as the read.
 */
export const viewFieldsOf = (b: string, ver: string) =>
  `line: ${b}.id, ver: ${ver}, main: ${b}.main_id,
   base: CASE WHEN ${b}.id = ${b}.main_id THEN ${ver}
              ELSE coalesce(head([i IN range(0, size(coalesce(${b}.prior_base_until, [])) - 1)
                                  WHERE ${ver} < ${b}.prior_base_until[i] | ${b}.prior_bases[i]]),
                            ${b}.base_main_version) END`;

/**
 * What a `CALL` subquery imports for view expression `V`: nothing for a parameter
 * (`$view`, seen everywhere), the variable itself otherwise. `after`: the same, as a
 * second import after others (`, view`, or nothing).
 */
export function viewImport(V: string): string {
  return V.startsWith('$') ? '' : V;
}
export function viewImportAfter(V: string): string {
  return V.startsWith('$') ? '' : `, ${V}`;
}

/**
 * The line a shadow test of record `s` seeks (visibleRecord): the view's line for a
 * record of another line (main's, read in a working branch's view), null otherwise.
 */
const shadowLine = (s: string, view: string) =>
  `CASE WHEN ${s}.branch_id <> ${view}.line THEN ${view}.line END`;

/** The lines a view reads, for seeks: `WHERE s.branch_id IN ${VIEW_LINES}`. */
export const VIEW_LINES = '[$view.line, $view.main]';

/**
 * Whether record `s` (a variable bound to a `label` node) is visible in `view` (a
 * map expression, `$view` unless given), tombstones included. `s` must be bound by
 * a seek on its line(s) first; this only filters.
 *
 * Only a record of main read in a working branch's view can be shadowed, so only such
 * a record's shadow test seeks the branch's line: for any other (a record of the view's
 * own line, and every record of a view of main) the test's key is null, which seeks
 * nothing. Neo4j evaluates the test for every row the seek found, before the condition
 * it stands in: keyed on the view's line alone, a read of main sought every record it
 * found a second time (measured on a 100k main's full read: its wire pages about a third
 * shorter, its node pages a quarter).
 */
export function visibleRecord(s: string, label: RecordLabel, view = '$view'): string {
  return `((${s}.branch_id = ${view}.line AND ${s}.vfrom <= ${view}.ver AND ${view}.ver < ${s}.vto)
   OR (${view}.line <> ${view}.main AND ${s}.branch_id = ${view}.main
       AND ${s}.vfrom <= ${view}.base AND ${view}.base < ${s}.vto
       AND NOT EXISTS { MATCH (shadow_${s}:${label} {branch_id: ${shadowLine(s, view)}, id: ${s}.id})
                        ${seek(`shadow_${s}`, label, ['id'])}
                        WHERE shadow_${s}.vfrom <= ${view}.ver }))`;
}

/** Whether record `s` is visible in `view` and not a tombstone: the entity exists there. */
export function visible(s: string, label: RecordLabel, view = '$view'): string {
  return `(${s}.gone IS NULL AND ${visibleRecord(s, label, view)})`;
}

/**
 * `OPTIONAL MATCH` of the state of entity `idExpr` in the view, bound to `s` (null
 * when the entity does not exist there): one seek on (branch_id, id) per line.
 */
export function optionalStateOf(
  s: string,
  label: RecordLabel,
  idExpr: string,
  view = '$view',
): string {
  return `OPTIONAL MATCH (${s}:${label} {id: ${idExpr}}) ${seek(s, label, ['id'])}
   WHERE ${s}.branch_id IN [${view}.line, ${view}.main] AND ${visible(s, label, view)}`;
}

/** `MATCH` of the state of entity `idExpr` in the view (no row when it does not exist). */
export function stateOf(s: string, label: RecordLabel, idExpr: string, view = '$view'): string {
  return `MATCH (${s}:${label} {id: ${idExpr}}) ${seek(s, label, ['id'])}
   WHERE ${s}.branch_id IN [${view}.line, ${view}.main] AND ${visible(s, label, view)}`;
}

/**
 * `MATCH` of the states in the view of the entities whose ids are in the list
 * `idsExpr`, bound to `s`: one seek per id on the label's (id) index (graphSchema.ts),
 * which holds the records of every line: a miss costs one seek, not one per line of the
 * view, and a found id one seek, which also finds the id's records on other lines (the
 * line test drops them). For a list of ids that are usually new (are they in use?), or
 * usually found on main (a batch's parents and the ports its wires name): measured at
 * about two thirds of the time of a seek per line for the ports and parents of a
 * 100-delta batch. A found id's records on every other line are read too (its other
 * branches', and any other project's under the same id), so other lookups keep one seek
 * per line, which reads only the view's lines. `tombstones`: the
 * view's tombstones of those ids too (a working branch's open records with `gone`).
 */
export function statesWithIds(
  s: string,
  label: StateLabel,
  idsExpr: string,
  view = '$view',
  options: { tombstones?: boolean } = {},
): string {
  const admitted = options.tombstones ? visibleRecord(s, label, view) : visible(s, label, view);
  return `MATCH (${s}:${label}) USING INDEX SEEK ${s}:${label}(id)
   WHERE ${s}.id IN ${idsExpr} AND ${s}.branch_id IN [${view}.line, ${view}.main]
     AND ${admitted}`;
}

/**
 * `MATCH` of the states in the view whose property `prop` equals `valueExpr` (a
 * child by parent_id, a port by node_id, a wire by handle, a sibling by scope and
 * name through `extra`): one seek per line on an index keyed by (branch_id, prop).
 */
export function statesWhere(
  s: string,
  label: RecordLabel,
  props: Record<string, string>,
  view = '$view',
): string {
  const inline = Object.entries(props)
    .map(([key, value]) => `${key}: ${value}`)
    .join(', ');
  return `MATCH (${s}:${label} {${inline}}) ${seek(s, label, Object.keys(props))}
   WHERE ${s}.branch_id IN [${view}.line, ${view}.main] AND ${visible(s, label, view)}`;
}

/**
 * Every state visible in the view, bound to `s`, as a `CALL` subquery: the line's
 * own records valid at the version, then (on a working branch) main's records valid
 * at the base that the branch does not shadow. Served by the (branch_id, vto) index
 * (a hint: with the view in a query variable the planner cannot tell it from the
 * (branch_id, vfrom) index, which would read the line's whole history): records
 * closed before the version are never read. `view` may be a variable of the
 * query (it is imported); `where` filters records before the shadow test.
 */
export function allStates(s: string, label: RecordLabel, view = '$view', where = 'true'): string {
  return `CALL (${viewImport(view)}) {
     MATCH (${s}:${label}) USING INDEX ${s}:${label}(branch_id, vto)
     WHERE ${s}.branch_id = ${view}.line AND ${s}.vto > ${view}.ver AND ${s}.vfrom <= ${view}.ver
       AND ${s}.gone IS NULL AND ${where}
     RETURN ${s}
     UNION ALL
     MATCH (${s}:${label}) USING INDEX ${s}:${label}(branch_id, vto)
     WHERE ${view}.line <> ${view}.main AND ${s}.branch_id = ${view}.main
       AND ${s}.vto > ${view}.base AND ${s}.vfrom <= ${view}.base AND ${s}.gone IS NULL
       AND ${where}
       AND NOT EXISTS { MATCH (shadow_${s}:${label} {branch_id: ${view}.line, id: ${s}.id})
                        ${seek(`shadow_${s}`, label, ['id'])}
                        WHERE shadow_${s}.vfrom <= ${view}.ver }
     RETURN ${s}
   }`;
}

/**
 * One page of allStates in id order: the states visible in the view whose id is past
 * `$after` (the last id of the page before; '' for the first), at most `$limit` of them,
 * bound to `s` and ordered by id. Each line is read in the order of its (branch_id, id)
 * index from `$after` on, in the index's order (ORDER BY branch_id, id: the order the
 * index provides, so the read stops at the page's end), and main's part of a view of main
 * itself seeks nothing (its branch_id is null): a page costs its size, not the graph's,
 * and a full read pages through a large graph in transactions of bounded length at one
 * fixed view. Followed
 * by the page's own `ORDER BY s.id LIMIT` (the union of the two lines' pages). `where`
 * keeps only the records it admits, tested in each line's read (a record it drops is
 * not shown, whether or not it is shadowed), so that a page still holds `$limit` of the
 * records kept and only the last page is short.
 */
export function statesPage(s: string, label: RecordLabel, view = '$view', where?: string): string {
  const kept = where === undefined ? '' : ` AND ${where}`;
  return `CALL (${viewImport(view)}) {
     MATCH (${s}:${label}) USING INDEX ${s}:${label}(branch_id, id)
     WHERE ${s}.branch_id = ${view}.line AND ${s}.id > $after
       AND ${s}.vto > ${view}.ver AND ${s}.vfrom <= ${view}.ver AND ${s}.gone IS NULL${kept}
     RETURN ${s} ORDER BY ${s}.branch_id, ${s}.id LIMIT toInteger($limit)
     UNION ALL
     MATCH (${s}:${label}) USING INDEX ${s}:${label}(branch_id, id)
     WHERE ${s}.branch_id = CASE WHEN ${view}.line <> ${view}.main THEN ${view}.main END
       AND ${s}.id > $after AND ${s}.vto > ${view}.base AND ${s}.vfrom <= ${view}.base
       AND ${s}.gone IS NULL${kept}
       AND NOT EXISTS { MATCH (shadow_${s}:${label} {branch_id: ${view}.line, id: ${s}.id})
                        ${seek(`shadow_${s}`, label, ['id'])}
                        WHERE shadow_${s}.vfrom <= ${view}.ver }
     RETURN ${s} ORDER BY ${s}.branch_id, ${s}.id LIMIT toInteger($limit)
   }
   WITH ${s} ORDER BY ${s}.id LIMIT toInteger($limit)`;
}
