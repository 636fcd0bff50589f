/**
 * Cypher of full reads: every node, port and wire visible in one view (`$view`, see
 * view.ts), in three statements. A fixed view cannot tear between them: a write that
 * commits meanwhile writes records of a later version, which the view never sees.
 */
import { cypher } from '../../../shared/neo4j/namedQuery';
import { allStates, optionalStateOf, statesWhere } from './visibility';

export const readBranchNodes = cypher(
  'readBranchNodes',
  `${allStates('n', 'GNode')}
   RETURN n {.*} AS node
   ORDER BY n.id`,
);

/**
 * Every node visible in the view with its ports (by channel, then ord), in id order,
 * one row per node: a streamed full read (graphStream.ts) holds one node's ports at a
 * time, never the whole graph's. `atHead` adds, for a read pinned to an earlier version,
 * the node's position at the head of the same line (`$head`; positions are layout, not
 * history): `head` is null when the node is gone there.
 */
function nodesWithPorts(name: string, atHead: boolean) {
  return cypher(
    name,
    `${allStates('n', 'GNode')}
   WITH n ORDER BY n.id
   CALL (n) {
     ${statesWhere('p', 'Port', { node_id: 'n.id' })}
     WITH p ORDER BY p.channel, p.ord
     RETURN collect(p {.*}) AS ports
   }
   ${
     atHead
       ? `CALL (n) {
     ${optionalStateOf('h', 'GNode', 'n.id', '$head')}
     RETURN CASE WHEN h IS NULL THEN null ELSE {x: h.x, y: h.y} END AS head
   }
   RETURN n {.*} AS node, ports, head`
       : 'RETURN n {.*} AS node, ports'
   }`,
  );
}

export const readNodesWithPorts = nodesWithPorts('readNodesWithPorts', false);
export const readNodesWithPortsAtHead = nodesWithPorts('readNodesWithPortsAtHead', true);

export const readBranchPorts = cypher(
  'readBranchPorts',
  `${allStates('p', 'Port')}
   RETURN p {.*} AS port
   ORDER BY p.node_id, p.channel, p.ord`,
);

/** Wires with their derived endpoints, the nodes of the ports their handles name in
 * the same view: null when a handle is null or dangles. */
export const readBranchEdges = cypher(
  'readBranchEdges',
  `${allStates('e', 'Edge')}
   ${optionalStateOf('sp', 'Port', 'e.source_handle')}
   ${optionalStateOf('tp', 'Port', 'e.target_handle')}
   RETURN e.id AS id, e.source_handle AS source_handle, e.target_handle AS target_handle,
          sp.node_id AS source, tp.node_id AS target
   ORDER BY e.id`,
);
