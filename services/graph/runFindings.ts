/**
 * The kept findings of a batch that is one run of additions, derived without a read after
 * its write. What findingRecords.ts recomputes for any write (the written entities, the
 * input ports their wires end on, the wires on their ports) is known here from the run
 * itself and from the facts its checks read before it (prefetchAddRun):
 *   - the ports, wires and nodes the run creates have no kept finding yet: their ids were
 *     unused in the view, and an entity's records go when it goes;
 *   - an existing input port a wire of the run ends on now has an incoming wire, so its
 *     kept unsatisfied_input finding (the facts say whether there is one) goes;
 *   - a new node is an orphan unless it or an ancestor records provenance: a parent the
 *     run did not create answers through its kept orphan_node finding, as there.
 * The facts also carry the wires already on the run's new ports (committed before their
 * ports); a run with any falls back to the general recomputation, which reads them.
 * The records a run opens and closes are written by the statement that records the batch.
 * The same rules build the findings (nodeFindings, unsatisfiedInput, wireFinding), so the
 * two ways agree finding for finding (the kept-findings tests hold both to the whole
 * computation).
 */
import type { QueryRunner } from '../../shared/neo4j/namedQuery';
import {
  findingRow,
  KeptFinding,
  keyOf,
  NodeRow,
  nodeFindings,
  unsatisfiedInput,
  wireFinding,
} from './findingRecords';
import { isDangling, isTypeMismatch, isUnsatisfiedInput, UNSATISFIED_INPUT } from './findingRules';
import type { NewRow } from './recordWrites';
import type { View } from './view';
import { takeWritten } from './writtenEntities';

/** A port as the findings see it: its channel, name and type. */
export interface FindingPort {
  channel: string;
  name: string;
  type: string | null;
}

/** What a run of additions created, and what its facts say of the store around it. */
export interface RunFindingInput {
  /** Whether the view keeps its findings as records (else nothing is written). */
  kept: boolean;
  nodes: { id: string; parentId: string | null; traced: boolean; name: string }[];
  /** The run's ports, by id. */
  ports: ReadonlyMap<string, FindingPort>;
  /** The existing ports its wires name, by id, with whether an unsatisfied_input finding is kept. */
  named: ReadonlyMap<string, FindingPort & { unsatisfiedKept: boolean }>;
  /** The existing parents of its nodes, by id: whether their orphan_node finding is kept. */
  parentOrphans: ReadonlyMap<string, boolean>;
  wires: { id: string; source: string | null; target: string | null }[];
}

/** The findings a run opens (every one new) and the kept ones it closes. */
export function runFindingChanges(input: RunFindingInput): {
  opened: KeptFinding[];
  closed: string[];
} {
  const { ports, named, wires } = input;
  const targets = wireTargets(wires);
  const opened = unsatisfiedNewInputs(ports, targets);
  const portAt = (handle: string | null) =>
    handle === null ? undefined : (ports.get(handle) ?? named.get(handle));
  for (const w of wires) {
    const found = wireFindingAt(w, portAt(w.source), portAt(w.target));
    if (found) opened.push(found);
  }
  const rows: NodeRow[] = input.nodes.map((n) => ({
    parentOrphan: n.parentId !== null && input.parentOrphans.get(n.parentId) === true,
    ...n,
  }));
  // one at a time: a spread of a large import's findings would pass the call stack's limit
  for (const f of nodeFindings(rows)) opened.push(f);
  const closed = [...targets]
    .filter((id) => named.get(id)?.unsatisfiedKept === true)
    .map(unsatisfiedKey);
  return { opened, closed };
}

/** The ports the run's wires end on. */
export function wireTargets(wires: RunFindingInput['wires']): Set<string> {
  const targets = new Set<string>();
  for (const w of wires) if (w.target !== null) targets.add(w.target);
  return targets;
}

/** The unsatisfied_input findings of the run's input ports that none of its wires ends on. */
export function unsatisfiedNewInputs(
  ports: RunFindingInput['ports'],
  targets: ReadonlySet<string>,
): KeptFinding[] {
  const opened: KeptFinding[] = [];
  for (const [id, port] of ports)
    if (isUnsatisfiedInput(port.channel, targets.has(id)))
      opened.push(unsatisfiedInput({ locator: id, name: port.name }));
  return opened;
}

/**
 * The finding of wire `w` whose ends are the ports `source` and `target` (undefined: no
 * port there): dangling when a handle names no port, a type mismatch when both ends
 * are typed differently; null when neither.
 */
export function wireFindingAt(
  w: RunFindingInput['wires'][number],
  source: FindingPort | undefined,
  target: FindingPort | undefined,
): KeptFinding | null {
  const dangling = isDangling(w, source !== undefined, target !== undefined);
  const mismatch = isTypeMismatch(source?.type ?? null, target?.type ?? null);
  if (!dangling && !mismatch) return null;
  return wireFinding({
    locator: w.id,
    dangling,
    sourceType: source?.type ?? '',
    targetType: target?.type ?? '',
  });
}

/** The id of input port `port`'s unsatisfied_input finding. */
export const unsatisfiedKey = (port: string) => keyOf({ code: UNSATISFIED_INPUT, locator: port });

/**
 * What a run writes for its findings: the records it opens and the ids of the kept
 * records it closes (runFindingParams). Nothing when the view does not keep findings.
 */
export function runFindingWrites(input: RunFindingInput): { opened: NewRow[]; closed: string[] } {
  if (!input.kept) return { opened: [], closed: [] };
  const { opened, closed } = runFindingChanges(input);
  return { opened: opened.map(findingRow), closed };
}

/**
 * The parameter of the statement that records a batch (store/changeQueries.ts
 * recordBatch) that names the findings it opens and closes: one map, so that lists empty
 * on one batch and not on the next keep one plan (paramShapes.ts).
 */
export interface FindingParams {
  findings: { opened: readonly NewRow[]; closed: readonly string[] };
}

/** For a batch whose findings were recomputed (findingRecords.ts refreshFindings): none. */
export const NO_FINDING_CHANGES: FindingParams = { findings: { opened: [], closed: [] } };

/**
 * In place of refreshFindings for what the transaction wrote in `view`: the findings a
 * run opens and closes (runFindingWrites), as parameters of the statement that records
 * the batch, which writes them through `view`.
 */
export function runFindingParams(
  tx: QueryRunner,
  view: View,
  changes: { opened: NewRow[]; closed: string[] },
): FindingParams {
  takeWritten(tx, view);
  return { findings: { opened: changes.opened, closed: changes.closed } };
}
