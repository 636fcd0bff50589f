/**
 * Storage model of graph content (graph service). Everything is scoped by branch:
 *   (:GNode {branch_id, id, kind, parent_id, scope, ...NodeData scalars, x, y})
 *     scope = parent_id, or '' at the top level: sibling-name lookups are index seeks
 *   (:GNode)-[:CONTAINS]->(:GNode)               containment tree
 *   (:GNode)-[:HAS_PORT]->(:Port {branch_id, id, node_id, channel, ord, ...})
 *   (:Edge {branch_id, id, source_handle, target_handle})
 * Wires reference ports by handle (a handle may dangle), joined through the
 * (branch_id, id) uniqueness constraints and the handle indexes: every lookup by
 * (branch, id) or (branch, handle) is an index seek.
 */
import { cypher } from '../../../shared/neo4j/namedQuery';

export const graphSchema = [
  cypher(
    'gnodeKey',
    'CREATE CONSTRAINT gnode_key IF NOT EXISTS FOR (n:GNode) REQUIRE (n.branch_id, n.id) IS UNIQUE',
  ),
  cypher(
    'portKey',
    'CREATE CONSTRAINT port_key IF NOT EXISTS FOR (p:Port) REQUIRE (p.branch_id, p.id) IS UNIQUE',
  ),
  cypher(
    'edgeKey',
    'CREATE CONSTRAINT edge_key IF NOT EXISTS FOR (e:Edge) REQUIRE (e.branch_id, e.id) IS UNIQUE',
  ),
  cypher(
    'gnodeBranchOnly',
    'CREATE INDEX gnode_branch IF NOT EXISTS FOR (n:GNode) ON (n.branch_id)',
  ),
  cypher('portBranchOnly', 'CREATE INDEX port_branch IF NOT EXISTS FOR (p:Port) ON (p.branch_id)'),
  cypher('edgeBranchOnly', 'CREATE INDEX edge_branch IF NOT EXISTS FOR (e:Edge) ON (e.branch_id)'),
  cypher(
    'gnodeScopeName',
    'CREATE INDEX gnode_scope_name IF NOT EXISTS FOR (n:GNode) ON (n.branch_id, n.scope, n.name)',
  ),
  cypher(
    'portNode',
    'CREATE INDEX port_node IF NOT EXISTS FOR (p:Port) ON (p.branch_id, p.node_id)',
  ),
  cypher(
    'edgeSource',
    'CREATE INDEX edge_source IF NOT EXISTS FOR (e:Edge) ON (e.branch_id, e.source_handle)',
  ),
  cypher(
    'edgeTarget',
    'CREATE INDEX edge_target IF NOT EXISTS FOR (e:Edge) ON (e.branch_id, e.target_handle)',
  ),
];
