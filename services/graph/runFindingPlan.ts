/**
 * The findings of a batch that is one run of additions, planned from its deltas alone, so
 * that the statement that reads the run's facts can also record the batch with them
 * (store/addRunQueries.ts lockAndPrefetchAddRun) instead of a statement of its own after
 * the facts are back. What runFindings.ts derives from the facts, the plan leaves to the
 * statement as choices it makes on the facts it has just read:
 *   - a new node whose nearest untraced ancestors end at an existing parent is an orphan
 *     only when that parent's orphan_node finding is kept (`parent`);
 *   - an existing input port a wire of the run ends on has its unsatisfied_input finding
 *     closed only when one is kept (`closed`);
 *   - nothing is written when the view does not keep findings.
 * Two things the plan does not choose between, it assumes (`ends`): each existing port a
 * wire of the run names is in the view, with a type that fits the run's port at the
 * wire's other end (so the wire is neither dangling nor mismatched). When the facts say
 * otherwise, or the view had wires on the run's new ports, the statement records nothing
 * and the batch is recorded after its checks as before. A run with a wire between two
 * existing ports has no plan.
 *
 * Findings are built by runFindings.ts's rules (unsatisfiedNewInputs, wireFindingAt,
 * nodeFindings); runFindingPlan.spec.ts holds the plan's choices, taken on any facts, to
 * what those rules derive from the same facts, and test/recordAhead.test.ts holds the
 * statement's choices to the whole computation (findingRecords.ts).
 */
import { findingRow, KeptFinding, keyOf, nodeFindings } from './findingRecords';
import type { NewRow } from './recordWrites';
import {
  RunFindingInput,
  unsatisfiedKey,
  unsatisfiedNewInputs,
  wireFindingAt,
  wireTargets,
} from './runFindings';

/** What a run creates, known from its deltas: the part of RunFindingInput the facts do not give. */
export type RunShape = Pick<RunFindingInput, 'nodes' | 'ports' | 'wires'>;

/** A run's findings as choices on the facts its first statement reads. */
export interface RunFindingPlan {
  /** Opened when the view keeps findings: always (`parent` null), or only when existing parent `parent` has its orphan_node finding kept. */
  opened: { parent: string | null; row: NewRow }[];
  /** The unsatisfied_input finding `id` of existing input port `port`: closed when it is kept. */
  closed: { port: string; id: string }[];
  /** The plan holds only when each existing port `port` is in the view with a type that fits `type` (null: any type, or none, fits). */
  ends: { port: string; type: string | null }[];
}

/** The plan of the run shaped `shape`; null when a wire joins two existing ports. */
export function runFindingPlan(shape: RunShape): RunFindingPlan | null {
  const { ports, wires } = shape;
  const targets = wireTargets(wires);
  const always: KeptFinding[] = unsatisfiedNewInputs(ports, targets);
  const ends: RunFindingPlan['ends'] = [];
  const closedPorts = new Set<string>();
  for (const w of wires) {
    const existing = [w.source, w.target].filter((h): h is string => h !== null && !ports.has(h));
    const [source, target] = [w.source, w.target].map((h) =>
      h === null ? undefined : ports.get(h),
    );
    if (existing.length === 2) return null;
    if (existing.length === 1) {
      // the wire is found clean when the existing end fits the run's port (if any) at the other
      ends.push({ port: existing[0], type: (source ?? target)?.type ?? null });
      if (existing[0] === w.target) closedPorts.add(w.target);
      continue;
    }
    const found = wireFindingAt(w, source, target);
    if (found) always.push(found);
  }
  // orphans: with every existing parent's finding taken as not kept, those the run decides
  // alone; taken as kept, also those that hang on an existing parent: the one their chain
  // of new ancestors reaches (orphan findings only grow with the parents' ones)
  const unmarked = nodeFindings(shape.nodes.map((n) => ({ parentOrphan: false, ...n })));
  always.push(...unmarked);
  const decided = new Set(unmarked.map(keyOf));
  const opened: RunFindingPlan['opened'] = always.map((f) => ({
    parent: null,
    row: findingRow(f),
  }));
  const byId = new Map(shape.nodes.map((n) => [n.id, n]));
  const existingParentOf = (id: string): string | null => {
    let parent = byId.get(id)?.parentId ?? null;
    for (let steps = 0; parent !== null && byId.has(parent) && steps <= byId.size; steps++)
      parent = byId.get(parent)?.parentId ?? null;
    return parent !== null && byId.has(parent) ? null : parent;
  };
  const marked = nodeFindings(shape.nodes.map((n) => ({ parentOrphan: true, ...n })));
  for (const f of marked) {
    if (decided.has(keyOf(f))) continue;
    const parent = existingParentOf(f.locator);
    if (parent === null) return null; // not of a new node under an existing parent: unplanned
    opened.push({ parent, row: findingRow(f) });
  }
  const closed = [...closedPorts].map((port) => ({ port, id: unsatisfiedKey(port) }));
  return { opened, closed, ends };
}
