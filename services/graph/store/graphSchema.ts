/**
 * Storage model of graph content (graph service): the versioned store. Every node,
 * port and wire is kept as state records, one per version range of one line:
 *   (:GNode {branch_id, id, vfrom, vto, gone?, kind, parent_id, scope, ...NodeData,
 *            name_key, x, y})
 *     scope = parent_id, or '' at the top level: sibling-name lookups are index seeks
 *     name_key = the name lower-cased (deltas/nodeState.ts): the name search's key
 *   (:Port  {branch_id, id, vfrom, vto, gone?, node_id, channel, ord, ...Port fields})
 *   (:Edge  {branch_id, id, vfrom, vto, gone?, source_handle, target_handle})
 * `branch_id` is the line a record was written on: main's line keeps main's history,
 * a working branch's line only what the branch changed (view.ts, store/visibility.ts).
 * Containment (parent_id), port ownership (node_id) and wiring (handles) are property
 * joins; every index is keyed by branch_id first, so a view's lookup is one seek per
 * line it reads. (branch_id, id) is not unique: a line has one record per version
 * range of an entity. Node, port and wire records are also indexed by id alone: a batch
 * asks whether each id it adds is in use, and such an id is usually in use nowhere, so
 * one seek across every line answers what would take a seek per line.
 *   (:GFinding {branch_id, id, vfrom, vto, gone?, subject, code, locator, severity,
 *               message, sort_key})  the kept findings of each version (findingRecords.ts)
 */
import { cypher } from '../../../shared/neo4j/namedQuery';

const LABELS = ['GNode', 'Port', 'Edge'] as const;
const SHORT = { GNode: 'gnode', Port: 'port', Edge: 'edge', GFinding: 'gfinding' } as const;

/** The uniqueness constraints of the store before versioning, dropped at start-up
 * (a line now holds several records of one entity). */
const dropUnversionedKeys = LABELS.map((label) =>
  cypher(`drop${label}UnversionedKey`, `DROP CONSTRAINT ${SHORT[label]}_key IF EXISTS`),
);

const perLabel = [...LABELS, 'GFinding' as const].flatMap((label) => [
  cypher(
    `${SHORT[label]}LineId`,
    `CREATE INDEX ${SHORT[label]}_line_id IF NOT EXISTS FOR (s:${label}) ON (s.branch_id, s.id)`,
  ),
  cypher(
    `${SHORT[label]}LineTo`,
    `CREATE INDEX ${SHORT[label]}_line_to IF NOT EXISTS FOR (s:${label}) ON (s.branch_id, s.vto)`,
  ),
  cypher(
    `${SHORT[label]}LineFrom`,
    `CREATE INDEX ${SHORT[label]}_line_from IF NOT EXISTS FOR (s:${label}) ON (s.branch_id, s.vfrom)`,
  ),
]);

/**
 * The (branch_id) index each label had, dropped at start-up: only a purge of a whole line
 * read it, and that purge seeks (branch_id, vfrom) for every record of the line instead
 * (every record has a vfrom). Every index costs each record written an entry, and index
 * upkeep is most of what Neo4j spends writing records: four fewer indexes make each
 * node, port, wire and finding written cost one index entry less.
 */
const dropBranchOnly = [...LABELS, 'GFinding' as const].map((label) =>
  cypher(`drop${label}BranchOnly`, `DROP INDEX ${SHORT[label]}_branch IF EXISTS`),
);

/**
 * The (id) index of each label, for a batch's lookups of ids on every line at once
 * (visibility.ts statesWithIds): the ids it adds, its parents, the ports its wires name.
 */
const byIdAlone = LABELS.map((label) =>
  cypher(
    `${SHORT[label]}IdAlone`,
    `CREATE INDEX ${SHORT[label]}_id IF NOT EXISTS FOR (s:${label}) ON (s.id)`,
  ),
);

export const graphSchema = [
  ...dropUnversionedKeys,
  ...dropBranchOnly,
  ...perLabel,
  ...byIdAlone,
  cypher(
    'gnodeScopeName',
    'CREATE INDEX gnode_scope_name IF NOT EXISTS FOR (n:GNode) ON (n.branch_id, n.scope, n.name)',
  ),
  // the name search (searchQueries.ts): names starting with a text, per line in order,
  // and names containing it anywhere (trigrams), on the lower-cased name
  cypher(
    'gnodeLineNameKey',
    'CREATE INDEX gnode_line_name_key IF NOT EXISTS FOR (n:GNode) ON (n.branch_id, n.name_key)',
  ),
  cypher(
    'gnodeNameKeyText',
    'CREATE TEXT INDEX gnode_name_key_text IF NOT EXISTS FOR (n:GNode) ON (n.name_key)',
  ),
  cypher(
    'gnodeParent',
    'CREATE INDEX gnode_parent IF NOT EXISTS FOR (n:GNode) ON (n.branch_id, n.parent_id)',
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
    'gfindingSubject',
    'CREATE INDEX gfinding_subject IF NOT EXISTS FOR (f:GFinding) ON (f.branch_id, f.subject)',
  ),
  cypher(
    'gfindingOrder',
    'CREATE INDEX gfinding_order IF NOT EXISTS FOR (f:GFinding) ON (f.branch_id, f.sort_key)',
  ),
  cypher(
    'edgeTarget',
    'CREATE INDEX edge_target IF NOT EXISTS FOR (e:Edge) ON (e.branch_id, e.target_handle)',
  ),
];
