/**
 * The coherence findings, each defined once: its code, severity, the kind of entity it
 * is about (its subject, whose id is its locator), what it checks, and its message. Every
 * way of finding them builds them here:
 *   - findings.ts computeFindings: the whole graph of a view, computed;
 *   - findingRecords.ts: the kept records of what a write reached, recomputed;
 *   - runFindings.ts / runFindingPlan.ts: a run of additions's, derived from its facts
 *     by the rules' predicates here (isUnsatisfiedInput, isDangling, isTypeMismatch),
 *     and the statement that records such a batch (store/addRunQueries.ts), which names
 *     the kept records it tests by their ids (findingIdCypher of a code here).
 * findings.spec.ts holds each rule's finding to the same text whichever way built it;
 * test/keptFindings.test.ts and test/runFindings.test.ts hold the ways to one another.
 */
import { quote } from '../../shared/text/clip';

/** A finding as built: a listed finding, or a kept record's content. */
export interface FindingOf<Code extends string = string> {
  code: Code;
  locator: string;
  severity: 'error' | 'warning' | 'marker';
  message: string;
}

/** A finding the API lists (not a marker). */
export type ListedFinding = FindingOf & { severity: 'error' | 'warning' };

/** The kind of entity a finding is about: its locator is that entity's id. */
export type FindingSubject = 'node' | 'port' | 'wire';

/**
 * unsatisfied_input: an input port no wire ends on (every input must be fed).
 * Subject: the port.
 */
export const UNSATISFIED_INPUT = 'unsatisfied_input';
/** unsatisfied_input's rule: a port of `channel` that no wire ends on (`fed` false). */
export const isUnsatisfiedInput = (channel: string, fed: boolean) => channel === 'inputs' && !fed;
export function unsatisfiedInputFinding(port: { id: string; name: string }): ListedFinding {
  return {
    code: UNSATISFIED_INPUT,
    locator: port.id,
    severity: 'error',
    message: `input port ${quote(port.name)} has no incoming wire`,
  };
}

/**
 * dangling_wire: a wire whose source or target handle names no port of the view.
 * Subject: the wire.
 */
export const DANGLING_WIRE = 'dangling_wire';
/**
 * dangling_wire's rule, of a wire with handles `source` and `target` (null: none) whose
 * ports were found (`sourceFound`, `targetFound`): a handle names no port.
 */
export const isDangling = (
  wire: { source: string | null; target: string | null },
  sourceFound: boolean,
  targetFound: boolean,
) => (wire.source !== null && !sourceFound) || (wire.target !== null && !targetFound);
export function danglingWireFinding(wire: { id: string }): ListedFinding {
  return {
    code: DANGLING_WIRE,
    locator: wire.id,
    severity: 'error',
    message: 'a handle of this wire names no port on the branch',
  };
}

/**
 * type_mismatch: a wire whose two ends are both typed, with different types (an untyped
 * end fits any type). Subject: the wire.
 */
export const TYPE_MISMATCH = 'type_mismatch';
/** type_mismatch's rule, of the types at a wire's two ends (null: untyped, or no port). */
export const isTypeMismatch = (sourceType: string | null, targetType: string | null) =>
  sourceType !== null && targetType !== null && sourceType !== targetType;
export function typeMismatchFinding(wire: {
  id: string;
  sourceType: string;
  targetType: string;
}): ListedFinding {
  return {
    code: TYPE_MISMATCH,
    locator: wire.id,
    severity: 'error',
    message: `wire joins type ${quote(wire.sourceType)} to ${quote(wire.targetType)}`,
  };
}

/**
 * orphan_node: a node with no source decision recorded on it or on any ancestor. Listed
 * only when some node of the view is traced (else every node would be one). Subject: the
 * node.
 */
export const ORPHAN_NODE = 'orphan_node';
export function orphanNodeFinding(node: { id: string; name: string }): ListedFinding {
  return {
    code: ORPHAN_NODE,
    locator: node.id,
    severity: 'warning',
    message: `node ${quote(node.name)} traces to no source decision`,
  };
}

/**
 * traced: not a finding but a kept marker of a node that records provenance, so that the
 * view knows whether any node is traced without a scan (severity 'marker', never listed).
 */
export const TRACED = 'traced';
export function tracedMarker(node: { id: string }): FindingOf {
  return { code: TRACED, locator: node.id, severity: 'marker', message: '' };
}

/** The subject of each code (a kept record's locator is an id of that kind). */
export const SUBJECT_OF_CODE: Readonly<Record<string, FindingSubject>> = {
  [UNSATISFIED_INPUT]: 'port',
  [DANGLING_WIRE]: 'wire',
  [TYPE_MISMATCH]: 'wire',
  [ORPHAN_NODE]: 'node',
  [TRACED]: 'node',
};
