/**
 * Bench fixtures: bulk-load a synthetic graph onto a branch with UNWIND, in the
 * service's storage model (services/graph/store/graphSchema.ts), far faster than
 * building it through the API. Each node has one input and one output port; nodes
 * sit ten to a boundary; every node's input is wired from its predecessor's output.
 */
import { cypher } from '../shared/neo4j/namedQuery';

export const createBoundaries = cypher(
  'bench.createBoundaries',
  `UNWIND $rows AS row
   CREATE (b:GNode {branch_id: $branchId, id: row.id, kind: 'boundary', parent_id: null, scope: '',
                    name: row.name, description: '', aliases: [], constraints: [], verifications: '[]',
                    is_test_node: false, status: 'idle', user_kind: 'module', path_prefix: null,
                    language: null, is_external: false, external_kind: null, protocol: null,
                    documentation_url: null, source_decisions: [], x: 0.0, y: 0.0})`,
);

export const createNodes = cypher(
  'bench.createNodes',
  `UNWIND $rows AS row
   MATCH (b:GNode {branch_id: $branchId, id: row.parent})
   CREATE (b)-[:CONTAINS]->(n:GNode {branch_id: $branchId, id: row.id, kind: 'behavior', parent_id: row.parent,
                    scope: row.parent, name: row.name, description: 'bench node', aliases: [],
                    constraints: [], verifications: '[]', is_test_node: false, status: 'idle',
                    user_kind: null, path_prefix: null, language: null, is_external: false,
                    external_kind: null, protocol: null, documentation_url: null, source_decisions: [],
                    x: 0.0, y: 0.0})
   CREATE (n)-[:HAS_PORT]->(:Port {branch_id: $branchId, id: row.input, node_id: row.id, channel: 'inputs',
                    ord: 0, name: 'in', type: 'int', description: '', external: false, contract_name: null})
   CREATE (n)-[:HAS_PORT]->(:Port {branch_id: $branchId, id: row.output, node_id: row.id, channel: 'outputs',
                    ord: 0, name: 'out', type: 'int', description: '', external: false, contract_name: null})`,
);

export const createEdges = cypher(
  'bench.createEdges',
  `UNWIND $rows AS row
   CREATE (:Edge {branch_id: $branchId, id: row.id, source_handle: row.source, target_handle: row.target})`,
);

/**
 * The bare-Cypher equivalent of a batch of add_node + add_edge deltas: one statement
 * making the writes the API makes for it (the branch's write lock; each node with
 * every property, its port and its containment link; the wires; the version bump, the
 * branch's counters and last activity; the batch's Change record with the deltas' text).
 */
export const bareBatch = cypher(
  'bench.bareBatch',
  `MATCH (br:Branch {id: $branchId})
   SET br.lock_seq = coalesce(br.lock_seq, 0) + 1
   WITH br
   CALL (br) {
     UNWIND $nodes AS row
     MATCH (b:GNode {branch_id: $branchId, id: row.parent})
     CREATE (b)-[:CONTAINS]->(n:GNode)
     SET n = row.props
     CREATE (n)-[:HAS_PORT]->(p:Port)
     SET p = row.port
   }
   CALL (br) {
     UNWIND $edges AS e
     CREATE (x:Edge)
     SET x = e
   }
   SET br.version = br.version + 1, br.last_active_at = $now,
       br.node_count = coalesce(br.node_count, 0) + size($nodes),
       br.edge_count = coalesce(br.edge_count, 0) + size($edges),
       br.stored_bytes = coalesce(br.stored_bytes, 0) + size($deltas)
   CREATE (:Change {branch_id: br.id, version: br.version, kind: 'batch', actor_id: $actorId,
                    created_at: $now, deltas: $deltas, deltas_bytes: size($deltas)})
   RETURN br.version AS version`,
);

export const bareFullRead = cypher(
  'bench.bareFullRead',
  `MATCH (n:GNode {branch_id: $branchId}) RETURN count(n) AS nodes`,
);
