/**
 * Hand-written Cypher beside the API's reads, for `make bench`, through the versioned
 * store's visibility rule (services/graph/store/visibility.ts) with the view as `$view`:
 *   - the minimal scoped reads: fewer rows than the API reads (no access row, no
 *     containment chains, only the wires leaving a port, no order), for reference; the
 *     scoped reads' baseline ("bare Cypher") is the very statement the API runs
 *     (readBench.ts);
 *   - the full read's baseline: the three statements that return every node, port and
 *     wire record the API's full read answers with, run straight through the executor.
 */
import { allStates, stateOf, statesWhere } from '../services/graph';
import { cypher } from '../shared/neo4j/namedQuery';

const portsOf = (n: string) =>
  `COLLECT { ${statesWhere('x', 'Port', { node_id: `${n}.id` })} RETURN x {.*} }`;

/** One level of children below the list `above`, collected as `below`. */
const childrenOf = (above: string, below: string) =>
  `CALL (${above}) {
     UNWIND ${above} AS up
     ${statesWhere('c', 'GNode', { parent_id: 'up.id' })}
     RETURN collect(c) AS ${below}
   }`;

export const bareSubtree = cypher(
  'bench.bareSubtree',
  `${stateOf('r', 'GNode', '$nodeId')}
   WITH r, [r] AS l0
   ${childrenOf('l0', 'l1')}
   ${childrenOf('l1', 'l2')}
   ${childrenOf('l2', 'l3')}
   UNWIND l0 + l1 + l2 + l3 AS n
   RETURN n {.*} AS node, ${portsOf('n')} AS ports,
          COLLECT { ${statesWhere('p', 'Port', { node_id: 'n.id' })}
                    ${statesWhere('e', 'Edge', { source_handle: 'p.id' })}
                    RETURN e {.*} } AS edges`,
);

export const bareNeighborhood = cypher(
  'bench.bareNeighborhood',
  `${stateOf('n', 'GNode', '$nodeId')}
   CALL (n) {
     ${statesWhere('p', 'Port', { node_id: 'n.id' })}
     RETURN p
   }
   CALL (p) {
     ${statesWhere('e', 'Edge', { source_handle: 'p.id' })}
     RETURN e, e.target_handle AS other
     UNION ALL
     ${statesWhere('e', 'Edge', { target_handle: 'p.id' })}
     RETURN e, e.source_handle AS other
   }
   ${stateOf('q', 'Port', 'other')}
   ${stateOf('m', 'GNode', 'q.node_id')}
   RETURN e {.*} AS edge, m {.*} AS neighbor, ${portsOf('m')} AS ports`,
);

export const bareBoundary = cypher(
  'bench.bareBoundary',
  `${stateOf('b', 'GNode', '$nodeId')}
   CALL (b) {
     ${statesWhere('c', 'GNode', { parent_id: 'b.id' })}
     RETURN collect(c {.*, ports: ${portsOf('c')}}) AS children
   }
   CALL (children) {
     UNWIND children AS child
     UNWIND child.ports AS p
     ${statesWhere('e', 'Edge', { source_handle: 'p.id' })}
     RETURN collect(e {.*}) AS edges
   }
   RETURN b {.*} AS boundary, children, edges`,
);

/** The full read's rows, one statement per label (the same records the API answers with). */
export const bareFullRead = (['GNode', 'Port', 'Edge'] as const).map((label) =>
  cypher(`bench.bareFullRead${label}`, `${allStates('s', label)} RETURN s {.*} AS record`),
);
