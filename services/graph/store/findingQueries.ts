/**
 * Coherence findings (the Finding schema) over the graph one view sees (`$view`, see
 * view.ts), in Cypher: scans of the view's records (allStates), joins by seeks in the
 * same view. Names and types come back cut to a few characters more than a finding
 * quotes (CLIP_LENGTH), so a long port type is never copied into every finding that
 * mentions it.
 */
import { cypher } from '../../../shared/neo4j/namedQuery';
import { allStates, optionalStateOf, statesWhere } from './visibility';

/** Input ports with no incoming wire. */
export const unsatisfiedInputs = cypher(
  'unsatisfiedInputs',
  `${allStates('p', 'Port', '$view', "p.channel = 'inputs'")}
   WITH p WHERE NOT EXISTS { ${statesWhere('e', 'Edge', { target_handle: 'p.id' })} }
   RETURN p.id AS locator, left(coalesce(p.name, ''), $quoted) AS name`,
);

/**
 * The wire rules of wire `e` (bound before): a non-null handle that names no port
 * (dangling), or ports of different types at its ends; one row per broken wire. Shared
 * with the kept findings' recomputation of given wires (findingRecordQueries.ts).
 */
export const WIRE_RULES = `${optionalStateOf('sp', 'Port', 'e.source_handle')}
   ${optionalStateOf('tp', 'Port', 'e.target_handle')}
   WITH e, sp, tp,
        (e.source_handle IS NOT NULL AND sp IS NULL) OR (e.target_handle IS NOT NULL AND tp IS NULL) AS dangling
   WHERE dangling OR (sp IS NOT NULL AND tp IS NOT NULL AND sp.type <> tp.type)
   RETURN e.id AS locator, dangling,
          left(coalesce(sp.type, ''), $quoted) AS sourceType,
          left(coalesce(tp.type, ''), $quoted) AS targetType`;

/** Wires with a non-null handle that names no port, and wires joining different types. */
export const wireFindings = cypher('wireFindings', `${allStates('e', 'Edge')} ${WIRE_RULES}`);

/** Whether any node of the view records provenance (orphan_node applies only then). */
export const anyProvenance = cypher(
  'anyProvenance',
  `${allStates('n', 'GNode', '$view', 'size(coalesce(n.source_decisions, [])) > 0')}
   RETURN n.id AS id LIMIT 1`,
);

/**
 * Every node with its parent and whether it records provenance: the containment
 * tree in one scan, so orphan_node is decided in one pass over it (findings.ts)
 * instead of a walk up from every node.
 */
export const provenanceTree = cypher(
  'provenanceTree',
  `${allStates('n', 'GNode')}
   RETURN n.id AS id, n.parent_id AS parentId,
          size(coalesce(n.source_decisions, [])) > 0 AS traced,
          left(coalesce(n.name, ''), $quoted) AS name`,
);
