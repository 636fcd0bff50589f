/**
 * Cypher of revertBranch (commands/revertBatch.ts). A working branch's line holds a
 * record of every entity a batch wrote, opened at the version the batch produced
 * (deletions as tombstones), so the entities batch K wrote are the line's records
 * with `vfrom = K` (or closed at K), found through the (branch_id, vfrom) and
 * (branch_id, vto) indexes; their states before and after K are read through the
 * views at K - 1 and K (store/visibility.ts).
 */
import { cypher, NamedQuery } from '../../../shared/neo4j/namedQuery';
import { recordChangeCypher } from './trailQueries';
import { StateLabel, statesWhere, stateOf, optionalStateOf, seek, wiresOnPort } from './visibility';

const LABELS: readonly StateLabel[] = ['GNode', 'Port', 'Edge'];

/** Ids of the entities batch $k wrote on line $line, with their label. */
export const entitiesWrittenAt = cypher(
  'revertEntitiesWrittenAt',
  `CALL () {
     ${LABELS.map(
       (label) => `MATCH (s:${label} {branch_id: $line}) ${seek('s', label, ['vfrom'])}
     WHERE s.vfrom = toInteger($k)
     RETURN '${label}' AS label, s.id AS id
     UNION
     MATCH (s:${label} {branch_id: $line}) ${seek('s', label, ['vto'])}
     WHERE s.vto = toInteger($k)
     RETURN '${label}' AS label, s.id AS id`,
     ).join('\n     UNION\n     ')}
   }
   RETURN label, id`,
);

/** Of the entities `$ids`, those with a record on line $line from a version above $k:
 * the first such version of each. */
function laterWrites(label: StateLabel): NamedQuery {
  return cypher(
    `revertLater${label}Writes`,
    `UNWIND $ids AS id
     MATCH (s:${label} {branch_id: $line, id: id}) ${seek('s', label, ['id'])}
     WHERE s.vfrom > toInteger($k)
     RETURN id, min(s.vfrom) AS version`,
  );
}

/** The states of the entities `$ids` in $view (`state` null where the entity does not
 * exist there), every stored property included. */
function statesAt(label: StateLabel): NamedQuery {
  return cypher(
    `revert${label}StatesAt`,
    `UNWIND $ids AS id
     CALL (id) {
       ${optionalStateOf('s', label, 'id')}
       RETURN s
     }
     RETURN id, CASE WHEN s IS NULL THEN null ELSE properties(s) END AS state`,
  );
}

export const LATER_WRITES = {
  GNode: laterWrites('GNode'),
  Port: laterWrites('Port'),
  Edge: laterWrites('Edge'),
};
export const STATES_AT = {
  GNode: statesAt('GNode'),
  Port: statesAt('Port'),
  Edge: statesAt('Edge'),
};

/** Every port of the nodes `$nodeIds` in $view. */
export const portsOfNodesAt = cypher(
  'revertPortsOfNodesAt',
  `UNWIND $nodeIds AS nid
   CALL (nid) {
     ${statesWhere('p', 'Port', { node_id: 'nid' })}
     RETURN p
   }
   RETURN properties(p) AS port`,
);

/**
 * What the revert's writes would leave broken, read through its write view after
 * writing: a node or port still on a removed node, a wire still on a removed port, a
 * written node whose parent is gone or whose name a sibling now has, a written port
 * whose node is gone, a written wire on a port that is gone. Each row names the
 * entity in the way (kind `node`, `port` or `edge`).
 */
export const revertBlockers = cypher(
  'revertBlockers',
  `CALL () {
     UNWIND $removedNodes AS r
     CALL (r) {
       ${statesWhere('c', 'GNode', { parent_id: 'r' })}
       RETURN 'node' AS kind, c.id AS id
       UNION
       ${statesWhere('p', 'Port', { node_id: 'r' })}
       RETURN 'port' AS kind, p.id AS id
     }
     RETURN kind, id
     UNION
     UNWIND $removedPorts AS r
     CALL (r) {
       ${wiresOnPort('e', 'r', "'edge' AS kind, e.id AS id")}
     }
     RETURN kind, id
     UNION
     UNWIND $writtenNodes AS nid
     ${stateOf('n', 'GNode', 'nid')}
     CALL (n) {
       WITH n WHERE n.parent_id IS NOT NULL
         AND NOT EXISTS { ${stateOf('pp', 'GNode', 'n.parent_id')} }
       RETURN 'node' AS kind, n.parent_id AS id
       UNION
       WITH n WHERE coalesce(n.name, '') <> ''
       ${statesWhere('o', 'GNode', { scope: 'n.scope', name: 'n.name' })} AND o.id <> n.id
       RETURN 'node' AS kind, o.id AS id
     }
     RETURN kind, id
     UNION
     UNWIND $writtenPorts AS pid
     ${stateOf('q', 'Port', 'pid')}
       AND NOT EXISTS { ${stateOf('qn', 'GNode', 'q.node_id')} }
     RETURN 'node' AS kind, q.node_id AS id
     UNION
     UNWIND $writtenEdges AS eid
     ${stateOf('w', 'Edge', 'eid')}
     UNWIND [w.source_handle, w.target_handle] AS handle
     WITH handle WHERE handle IS NOT NULL
       AND NOT EXISTS { ${stateOf('hp', 'Port', 'handle')} }
     RETURN 'port' AS kind, handle AS id
   }
   RETURN DISTINCT kind, id`,
);

/** The latest version below $below that wrote each entity on line $line (null: none). */
export const latestWrites = cypher(
  'revertLatestWrites',
  `UNWIND $entities AS e
   CALL (e) {
     OPTIONAL MATCH (s:GNode {branch_id: $line, id: e.id}) ${seek('s', 'GNode', ['id'])}
     WHERE e.kind = 'node' AND s.vfrom < toInteger($below)
     RETURN max(s.vfrom) AS v
     UNION ALL
     OPTIONAL MATCH (s:Port {branch_id: $line, id: e.id}) ${seek('s', 'Port', ['id'])}
     WHERE e.kind = 'port' AND s.vfrom < toInteger($below)
     RETURN max(s.vfrom) AS v
     UNION ALL
     OPTIONAL MATCH (s:Edge {branch_id: $line, id: e.id}) ${seek('s', 'Edge', ['id'])}
     WHERE e.kind = 'edge' AND s.vfrom < toInteger($below)
     RETURN max(s.vfrom) AS v
   }
   RETURN e.kind AS kind, e.id AS id, max(v) AS version`,
);

/**
 * Advances the branch version by one and records the revert on the change trail
 * ($change: kind `revert`, the reverted version, the inverse as deltas so that a merge
 * replays it like any batch; $touches) with the branch's usage counters after it.
 */
export const recordRevert = cypher(
  'recordRevert',
  `MATCH (b:Branch {id: $branchId})
   SET b.version = b.version + 1, b.last_active_at = $now,
       b.node_count = $nodes, b.edge_count = $edges, b.stored_bytes = $bytes
   ${recordChangeCypher('b')}
   RETURN b.version AS version`,
);
