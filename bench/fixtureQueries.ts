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

/** The bare-Cypher equivalent of a batch of add_node + add_edge deltas and the version bump. */
export const bareBatch = cypher(
  'bench.bareBatch',
  `MATCH (br:Branch {id: $branchId})
   SET br.lock_seq = coalesce(br.lock_seq, 0) + 1
   WITH br
   UNWIND $nodes AS row
   MATCH (b:GNode {branch_id: $branchId, id: row.parent})
   CREATE (b)-[:CONTAINS]->(n:GNode {branch_id: $branchId, id: row.id, kind: 'behavior', parent_id: row.parent,
                    scope: row.parent, name: row.name, description: '', status: 'idle', x: 0.0, y: 0.0})
   CREATE (n)-[:HAS_PORT]->(:Port {branch_id: $branchId, id: row.input, node_id: row.id, channel: 'inputs', ord: 0, name: 'in', type: 'int'})
   WITH DISTINCT br
   UNWIND $edges AS e
   CREATE (:Edge {branch_id: $branchId, id: e.id, source_handle: e.source, target_handle: e.target})
   WITH DISTINCT br
   SET br.version = br.version + 1
   RETURN br.version AS version`,
);

export const bareFullRead = cypher(
  'bench.bareFullRead',
  `MATCH (n:GNode {branch_id: $branchId}) RETURN count(n) AS nodes`,
);
