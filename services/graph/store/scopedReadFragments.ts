/**
 * The definitions of the clauses the scoped reads (store/scopedReadQueries.ts, kept whole
 * in statements/) share: statementRules.spec.ts holds each statement that applies one to
 * its text here (the view of a branch row, the descent of each depth). Each
 * reads graph content through the view held in the query variable `view` (VIEW_OF),
 * with the visibility rule of store/visibility.ts: every step is a seek on an index
 * keyed by (branch_id, ...) once per line of the view, so the cost follows the answer,
 * not the branch.
 *
 * Containment is the property join GNode.parent_id and port ownership Port.node_id.
 * Cypher cannot repeat a join of properties a variable number of times, so walks are
 * unrolled: one step per level, down (children by parent_id, up to the depth asked for)
 * or up (the parent by id, up to the deepest nesting the service allows). A step past
 * the end of a walk seeks nothing (a null id matches no record) and costs next to
 * nothing.
 */
import { WIRE_END_CHANNELS } from '../../../shared/model/nodeModel';
import { optionalStateOf, stateOf, statesWhere, viewFieldsOf, visible } from './visibility';

/** The view variable every fragment reads through. */
const V = 'view';

/**
 * The view of branch `b` as a map (view.ts View): at `$at.version` when given, else
 * (null) at the branch's head; a working branch reads main (`main_id`) at its base
 * beneath its own records, main reads itself. Computed in the statement, so a scoped read stays
 * one round trip; the caller checks the version against the branch row it gets back
 * (viewResolver.ts) before using the answer. `head`: the view of the line's head when
 * the read is pinned to an earlier version (NODE_MAP reads positions there), else null.
 * The version comes inside the map `$at` (readAt): a parameter that is null on one call
 * and a number on the next would make Neo4j plan the read once for each (paramShapes.ts).
 */
export const VIEW_OF = (b: string) =>
  `{${viewFieldsOf(b, `coalesce(toInteger($at.version), ${b}.version)`)},
    head: CASE WHEN $at.version IS NULL OR toInteger($at.version) = ${b}.version THEN null
               ELSE {${viewFieldsOf(b, `${b}.version`)}} END}`;

/**
 * Node record `n` as a map. Positions are layout, not history: the store moves x and y
 * in place (recordWrites.ts placeNodes), so an older record may hold a position a later
 * version replaced. A read pinned to an earlier version therefore shows each node at the
 * position it has at the line's head, looked up in the same statement (one seek per
 * node); a node gone since keeps the position of the record read. At the head it is
 * the record as it is, and so is a record of the line still current at its head (most
 * of a pinned read's nodes): no seek.
 */
export const NODE_MAP = (n: string) =>
  `CASE WHEN ${V}.head IS NULL OR (${n}.branch_id = ${V}.head.line AND ${V}.head.ver < ${n}.vto)
        THEN ${n} {.*}
        ELSE coalesce(head(COLLECT { ${stateOf('hp', 'GNode', `${n}.id`, `${V}.head`)}
                                    RETURN ${n} {.*, x: hp.x, y: hp.y} AS atHead }), ${n} {.*}) END`;

/** The state of the node `id` in the view, bound to `n` (no row when absent). */
export const NODE_AT = (n: string, id: string) => stateOf(n, 'GNode', id, V);

/** `n`'s ports in the view, as a list of maps (ordered per channel by the caller). */
export const PORTS_OF = (n: string) =>
  `COLLECT { ${statesWhere('pt', 'Port', { node_id: `${n}.id` }, V)} RETURN pt {.*} }`;

/** Whether node `n` has a child in the view. */
export const HAS_CHILD = (n: string) =>
  `EXISTS { ${statesWhere('ch', 'GNode', { parent_id: `${n}.id` }, V)} }`;

/**
 * How many levels a statement walks up a chain, or down below a boundary, before it
 * hands the rest of the walk back to its caller (scopedLoader.ts completes it with
 * the same fragments, CHAIN_STEPS levels per round trip). Planning cost grows faster
 * than the number of unrolled steps, so a statement unrolls only as many as most
 * graphs need: a deeper chain costs one more round trip per CHAIN_STEPS levels.
 */
export const CHAIN_STEPS = 8;

/**
 * A node's containment chain from the top level down to itself, as the list `alias`
 * of `value`s (an expression of each node `x` on it: its name unless given), with `n` itself unless `withSelf` is false, and `${alias}Rest`:
 * the id of the next ancestor up when the chain goes on above the CHAIN_STEPS parent
 * steps walked here (null when it reached the top level).
 */
export function chainOf(
  n: string,
  alias: string,
  options: { value?: string; withSelf?: boolean } = {},
): string {
  const { value = 'x.name', withSelf = true } = options;
  const steps: string[] = [];
  const names: string[] = [];
  let below = n;
  for (let i = 1; i <= CHAIN_STEPS; i += 1) {
    const a = `a${i}`;
    steps.push(optionalStateOf(a, 'GNode', `${below}.parent_id`, V));
    names.push(a);
    below = a;
  }
  const walk = withSelf ? [n, ...names] : names;
  return `CALL (${n}, ${V}) {
     ${steps.join('\n     ')}
     RETURN reverse([x IN [${walk.join(', ')}] WHERE x IS NOT NULL | ${value}]) AS ${alias},
            ${below}.parent_id AS ${alias}Rest
   }`;
}

/**
 * The descendants of `root` down to `depth` levels, as the list `alias` of
 * {n, names, level}: `names` are the names on the walk below the root, `level` the
 * distance from it. One step per level, each seeking the children of the level above.
 */
export function descendantsOf(root: string, alias: string, depth: number): string {
  const levels: string[] = [];
  for (let level = 1; level <= depth; level += 1) {
    const above = `f${level - 1}`;
    levels.push(`CALL (${above}, ${V}) {
       UNWIND ${above} AS x
       ${statesWhere('c', 'GNode', { parent_id: 'x.n.id' }, V)}
       RETURN collect({n: c, names: x.names + c.name, level: ${level}}) AS f${level}
     }`);
  }
  const found = Array.from({ length: depth }, (_, i) => `f${i + 1}`).join(' + ');
  return `CALL (${root}, ${V}) {
     WITH [{n: ${root}, names: [], level: 0}] AS f0, ${V}
     ${levels.join('\n     ')}
     RETURN ${found} AS ${alias}
   }`;
}

/**
 * The ids of the nodes below the nodes of the list `start` (ids), CHAIN_STEPS levels
 * down, as the list `alias`, and `${alias}Frontier`: the ids at the last level walked
 * (when not empty, the walk may go on below them).
 */
export function descendantIdsOf(start: string, alias: string): string {
  const levels: string[] = [];
  for (let level = 1; level <= CHAIN_STEPS; level += 1) {
    const above = `f${level - 1}`;
    levels.push(`CALL (${above}, ${V}) {
       UNWIND ${above} AS x
       ${statesWhere('c', 'GNode', { parent_id: 'x' }, V)}
       RETURN collect(c.id) AS f${level}
     }`);
  }
  const found = Array.from({ length: CHAIN_STEPS }, (_, i) => `f${i + 1}`).join(' + ');
  return `CALL (${start}, ${V}) {
     WITH ${start} AS f0, ${V}
     ${levels.join('\n     ')}
     RETURN ${found} AS ${alias}, f${CHAIN_STEPS} AS ${alias}Frontier
   }`;
}

/**
 * The wires on port `p` (a record, or a map with its id and channel) in the view, each
 * once per handle it has there. A wire leaves an output port and enters an input port
 * (invalid_endpoint: every way of writing, a revert included, refuses any other wire),
 * so an output port's wires are sought by their source handle and an input port's by
 * their target handle: one seek a port, where seeking both handles of every port took
 * two. A config port holds no wire and seeks nothing (a null key matches no record).
 */
export const WIRES_ON_PORT = `CALL (p, ${V}) {
     ${statesWhere('e', 'Edge', { source_handle: `CASE WHEN p.channel = '${WIRE_END_CHANNELS.source}' THEN p.id END` }, V)}
     RETURN e
     UNION ALL
     ${statesWhere('e', 'Edge', { target_handle: `CASE WHEN p.channel = '${WIRE_END_CHANNELS.target}' THEN p.id END` }, V)}
     RETURN e
   }`;

/** Wire rows (bound `e`, `inside`) collected as the list `edges`, ordered by id;
 * `source`/`target` are the nodes of the ports the handles name in the view (null when
 * a handle is null or dangles). */
export const COLLECT_EDGE_ROWS = `${optionalStateOf('sp', 'Port', 'e.source_handle', V)}
     ${optionalStateOf('tp', 'Port', 'e.target_handle', V)}
     WITH e, inside, sp, tp ORDER BY e.id
     RETURN collect({id: e.id, source_handle: e.source_handle, target_handle: e.target_handle,
                     source: sp.node_id, target: tp.node_id, inside: inside}) AS edges`;

/**
 * The wires on the ports of the nodes in the list variable `ids`, as the list `edges`
 * ordered by id, each with `inside` = how many of its endpoints are among those nodes.
 */
export const EDGES_AT = (ids: string) => `CALL (${ids}, ${V}) {
     UNWIND ${ids} AS id
     ${statesWhere('p', 'Port', { node_id: 'id' }, V)}
     ${WIRES_ON_PORT}
     WITH e, count(*) AS inside, ${V}
     ${COLLECT_EDGE_ROWS}
   }`;

/** Whether record `n` is visible in the view (for filters after a seek of its own). */
export const VISIBLE_NODE = (n: string) => visible(n, 'GNode', V);

/** The `$at` parameter of a read that starts with VIEW_OF: the version read, null at the head. */
export const readAt = (version?: number | null) => ({ version: version ?? null });
