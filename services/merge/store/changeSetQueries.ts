/**
 * Cypher of change sets and sparse snapshots (changeSets.ts): which entities a line
 * changed, read from the line's own records by the (branch_id, id), (branch_id, vfrom)
 * and (branch_id, vto) indexes, and the state of given ids in a view (services/graph's
 * visibility rule), so a merge, a diff or a preview reads what changed and not the graph.
 */
import { cypher, NamedQuery } from '../../../shared/neo4j/namedQuery';
import { optionalStateOf, seek, statesWhere } from '../../graph';
import type { StateLabel } from '../../graph';

const LABELS: readonly StateLabel[] = ['GNode', 'Port', 'Edge'];

function perLabel(make: (label: StateLabel) => NamedQuery): Record<StateLabel, NamedQuery> {
  return Object.fromEntries(LABELS.map((label) => [label, make(label)])) as Record<
    StateLabel,
    NamedQuery
  >;
}

/**
 * One page of the ids with records on line `$line`, after `$after` in id order: a working
 * branch's line holds exactly the entities it changed (copy-on-write, tombstones for
 * deletions).
 */
export const LINE_IDS = perLabel((label) =>
  cypher(
    `lineIds${label}`,
    `MATCH (s:${label} {branch_id: $line})
     WHERE s.id > $after
     WITH DISTINCT s.id AS id
     ORDER BY id
     LIMIT toInteger($limit)
     RETURN id`,
  ),
);

/**
 * The ids whose state on line `$line` differs between versions `$from` and `$to`
 * (from < to): a record opened or closed in (from, to]. Every change of an entity on a
 * line opens or closes one of its records there.
 */
export const LINE_CHANGED_IDS = perLabel((label) =>
  cypher(
    `lineChangedIds${label}`,
    `CALL () {
       MATCH (s:${label}) ${seek('s', label, ['vfrom'])}
       WHERE s.branch_id = $line AND s.vfrom > $from AND s.vfrom <= $to
       RETURN s.id AS id
       UNION
       MATCH (s:${label}) ${seek('s', label, ['vto'])}
       WHERE s.branch_id = $line AND s.vto > $from AND s.vto <= $to
       RETURN s.id AS id
     }
     RETURN id`,
  ),
);

const NODE = 'n {.*} AS node';
const PORT = `n {.id, .node_id, .channel, .ord, .name, .type, .description, .external,
              .contract_name} AS port`;
const EDGE = 'n {.id, .source_handle, .target_handle} AS edge';
const COLUMN: Record<StateLabel, string> = { GNode: NODE, Port: PORT, Edge: EDGE };

/** The states of the ids `$ids` visible in `$view` (absent ones give no row). */
export const STATES_BY_ID = perLabel((label) =>
  cypher(
    `statesById${label}`,
    `UNWIND $ids AS id
     CALL (id) {
       ${optionalStateOf('n', label, 'id')}
       RETURN n
     }
     WITH n WHERE n IS NOT NULL
     RETURN ${COLUMN[label]}`,
  ),
);

/** The ports of the nodes `$ids` visible in `$view`. */
export const PORTS_OF_NODES = cypher(
  'portsOfNodes',
  `UNWIND $ids AS nodeId
   CALL (nodeId) {
     ${statesWhere('n', 'Port', { node_id: 'nodeId' })}
     RETURN n
   }
   RETURN ${PORT}`,
);

/** The wires into the ports `$ids` visible in `$view` (by target handle). */
export const WIRES_INTO_PORTS = cypher(
  'wiresIntoPorts',
  `UNWIND $ids AS portId
   CALL (portId) {
     ${statesWhere('n', 'Edge', { target_handle: 'portId' })}
     RETURN n
   }
   RETURN ${EDGE}`,
);
