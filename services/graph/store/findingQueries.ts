/**
 * Coherence findings (the Finding schema) over the graph one view sees (`$view`, see
 * view.ts), in Cypher: scans of the view's records (allStates), joins by seeks in the
 * same view. Names and types come back cut to a few characters more than a finding
 * quotes (CLIP_LENGTH), so a long port type is never copied into every finding that
 * mentions it.
 */
import { join } from 'node:path';
import { statementsIn } from '../../../shared/neo4j/statementFiles';
import { optionalStateOf } from './visibility';

const statement = statementsIn(join(__dirname, 'statements'));

/** Input ports with no incoming wire. */
export const unsatisfiedInputs = statement('unsatisfiedInputs');

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
export const wireFindings = statement('wireFindings');

/** Whether any node of the view records provenance (orphan_node applies only then). */
export const anyProvenance = statement('anyProvenance');

/**
 * Every node with its parent and whether it records provenance: the containment
 * tree in one scan, so orphan_node is decided in one pass over it (findings.ts)
 * instead of a walk up from every node.
 */
export const provenanceTree = statement('provenanceTree');
