/**
 * Bench fixtures: bulk-load a synthetic graph onto main's line with UNWIND, in the
 * versioned store's model (services/graph/store/graphSchema.ts, view.ts), far faster
 * than building it through the API. Every record is a state valid from version 0 on
 * main's line (`vfrom: 0, vto: OPEN`); containment and port ownership are the
 * properties parent_id and node_id (no relationships). Each node has one input and one
 * output port; nodes sit ten to a boundary; every node's input is wired from its
 * predecessor's output.
 */
import { OPEN_CYPHER } from '../services/graph';
import { cypher } from '../shared/neo4j/namedQuery';

/** The fields of a node record the bulk load does not vary. */
const NODE_FIELDS = `description: 'bench node', aliases: [], constraints: [], verifications: '[]',
  is_test_node: false, status: 'idle', path_prefix: null, language: null, is_external: false,
  external_kind: null, protocol: null, documentation_url: null, source_decisions: [], x: 0.0, y: 0.0`;

/** A state record of main's line valid from version 0 on. */
const AT_ZERO = `branch_id: $line, vfrom: 0, vto: ${OPEN_CYPHER}`;

export const createBoundaries = cypher(
  'bench.createBoundaries',
  `UNWIND $rows AS row
   CREATE (:GNode {${AT_ZERO}, id: row.id, kind: 'boundary', parent_id: null, scope: '',
                   name: row.name, name_key: toLower(row.name), user_kind: 'module', ${NODE_FIELDS}})`,
);

/** Nodes with their two ports each (`$rows`: id, parent, name, input, output). */
export const createNodes = cypher(
  'bench.createNodes',
  `UNWIND $rows AS row
   CREATE (:GNode {${AT_ZERO}, id: row.id, kind: coalesce(row.kind, 'behavior'),
                   parent_id: row.parent, scope: coalesce(row.parent, ''), name: row.name,
                   name_key: toLower(row.name),
                   user_kind: row.userKind, ${NODE_FIELDS}})
   CREATE (:Port {${AT_ZERO}, id: row.input, node_id: row.id,
                  node_kind: coalesce(row.kind, 'behavior'), channel: 'inputs', ord: 0,
                  name: 'in', type: 'int', description: '', external: false, contract_name: null})
   CREATE (:Port {${AT_ZERO}, id: row.output, node_id: row.id,
                  node_kind: coalesce(row.kind, 'behavior'), channel: 'outputs', ord: 0,
                  name: 'out', type: 'int', description: '', external: false, contract_name: null})`,
);

export const createEdges = cypher(
  'bench.createEdges',
  `UNWIND $rows AS row
   CREATE (:Edge {${AT_ZERO}, id: row.id, source_handle: row.source, target_handle: row.target})`,
);

/** Publishes version $version of a line written directly (main's history in the fixture). */
export const setLineVersion = cypher(
  'bench.setLineVersion',
  `MATCH (b:Branch {id: $line}) SET b.version = toInteger($version) RETURN b.version AS version`,
);

/**
 * The bare-Cypher equivalent of a batch of add_node + add_edge deltas on a working
 * branch: one statement making the writes the API makes for it (the branch's write
 * lock; each node and its ports as records of the branch's line at the next version;
 * the wires; the kept findings the batch opens, `$findings`, as finding records of the
 * same version, and closes, `$closed` (ids of open finding records of the branch's
 * line, closed at that version as a batch closes the findings it clears); the version
 * bump, the branch's counters and last activity; the batch's Change record with the
 * deltas' text and the Touch records of what it touched).
 */
export const bareBatch = cypher(
  'bench.bareBatch',
  `MATCH (br:Branch {id: $branchId})
   SET br.lock_seq = coalesce(br.lock_seq, 0) + 1
   WITH br, toInteger(br.version + 1) AS w
   CALL (br, w) {
     UNWIND $nodes AS row
     CREATE (n:GNode)
     SET n = row.props, n.branch_id = br.id, n.vfrom = w, n.vto = ${OPEN_CYPHER}
     WITH row
     UNWIND row.ports AS port
     CREATE (p:Port)
     SET p = port, p.branch_id = br.id, p.vfrom = w, p.vto = ${OPEN_CYPHER}
   }
   CALL (br, w) {
     UNWIND $edges AS e
     CREATE (x:Edge)
     SET x = e, x.branch_id = br.id, x.vfrom = w, x.vto = ${OPEN_CYPHER}
   }
   CALL (br, w) {
     UNWIND $findings AS f
     CREATE (g:GFinding)
     SET g = f.props, g.branch_id = br.id, g.id = f.id, g.vfrom = w, g.vto = ${OPEN_CYPHER}
   }
   CALL (br, w) {
     UNWIND $closed AS id
     MATCH (g:GFinding {branch_id: br.id, id: id})
     WHERE g.vto = ${OPEN_CYPHER}
     SET g.vto = w
   }
   SET br.version = w, br.last_active_at = $now,
       br.node_count = coalesce(br.node_count, 0) + size($nodes),
       br.edge_count = coalesce(br.edge_count, 0) + size($edges),
       br.stored_bytes = coalesce(br.stored_bytes, 0) + size($deltas)
   CREATE (:Change {branch_id: br.id, version: w, kind: 'batch', actor_id: $actorId,
                    created_at: $now, deltas: $deltas, deltas_bytes: size($deltas), touched: true})
   FOREACH (t IN $touches |
     CREATE (:Touch {branch_id: br.id, version: w, key: t.key, entity: t.entity, entity_id: t.id,
                     action: t.action, fields: t.fields, ports: t.ports, wires: t.wires}))
   RETURN br.version AS version`,
);

/** Node, port and wire records stored on the lines `$lines` (history and tombstones included). */
export const countRecords = cypher(
  'bench.countRecords',
  `CALL () { MATCH (s:GNode) WHERE s.branch_id IN $lines RETURN count(s) AS c
     UNION ALL MATCH (s:Port) WHERE s.branch_id IN $lines RETURN count(s) AS c
     UNION ALL MATCH (s:Edge) WHERE s.branch_id IN $lines RETURN count(s) AS c }
   RETURN sum(c) AS records`,
);

/** What a view of a branch is built from (services/graph view.ts branchView). */
export const branchRow = cypher(
  'bench.branchRow',
  `MATCH (b:Branch {id: $branchId})
   RETURN b.id AS id, b.version AS version, b.base_main_version AS base_main_version,
          b.main_id AS main_id`,
);

/**
 * A branch's trail written in bulk (nodeHistoryBench.ts), as the trail records a batch
 * (services/graph/store/trailQueries.ts recordChangeCypher): for each version $from to
 * $to a Change record and the Touch record of one new node; every version that is a
 * multiple of $step also touches node $nodeId (its description). The branch then stands
 * at version $to.
 */
export const syntheticTrail = cypher(
  'bench.syntheticTrail',
  `MATCH (b:Branch {id: $branchId})
   CALL (b) {
     UNWIND range(toInteger($from), toInteger($to)) AS v
     CREATE (:Change {branch_id: b.id, version: v, kind: 'batch', actor_id: $actorId,
                      created_at: $now, deltas: '[]', deltas_bytes: 2, touched: true})
     WITH v, randomUUID() AS other
     CREATE (:Touch {branch_id: b.id, version: v, key: other, entity: 'node', entity_id: other,
                     action: 'added', fields: ['kind', 'parent_id', 'name'], ports: []})
     FOREACH (_ IN CASE WHEN v % toInteger($step) = 0 THEN [1] ELSE [] END |
       CREATE (:Touch {branch_id: b.id, version: v, key: $nodeId, entity: 'node',
                       entity_id: $nodeId, action: 'changed', fields: ['description'], ports: []}))
   }
   SET b.version = toInteger($to)
   RETURN b.version AS version`,
);
