/**
 * Findings follow the change. Each version's coherence findings are kept as `GFinding`
 * records under the visibility rule (store/findingRecordQueries.ts), so a branch sees
 * main's findings at its base under its own, as it sees main's nodes. A write recomputes
 * only the subjects it reached (refreshFindings): the entities it wrote (writtenEntities.ts),
 * the input ports its wires end on, the wires on its ports, and the subtrees of nodes that
 * changed parent or provenance. Reading the findings of a view (findingsOf) is then a
 * walk of an index in list order, whatever the graph's size (findingLists.ts).
 *
 * orphan_node is kept for every node with no provenance on or above it, and a `traced`
 * marker for every node with provenance: the findings list orphan_node only when some
 * node of the view is traced, so the first traced node does not rewrite every other
 * node's findings.
 */
import type { QueryRunner } from '../../shared/neo4j/namedQuery';
import {
  danglingWireFinding,
  FindingOf,
  orphanNodeFinding,
  SUBJECT_OF_CODE,
  tracedMarker,
  typeMismatchFinding,
  unsatisfiedInputFinding,
} from './findingRules';
import { QUOTED } from './findings';
import { removeFindings, upsertFindings } from './recordWrites';
import { levelBelow } from './store/deltaQueries';
import {
  findingId,
  findingsKept,
  findingSubjects,
  nodeSubjectRows,
  subjectRecords,
} from './store/findingRecordQueries';
import type { View } from './view';
import { takeWritten } from './writtenEntities';
import type { Written } from './writtenEntities';

/** A kept finding, or a `traced` marker (severity 'marker', never listed): findingRules.ts. */
export type KeptFinding = FindingOf;

const RANK: Record<string, string> = { error: '0', warning: '1', marker: '9' };

/** A kept finding's id: one record per code and locator. */
export const keyOf = (f: { code: string; locator: string }) => findingId(f.code, f.locator);
const sortKeyOf = (f: KeptFinding) => `${RANK[f.severity]}:${f.code}:${f.locator}`;

/** The record a kept finding is written as (its state replaced whole). */
export function findingRow(f: KeptFinding) {
  return {
    id: keyOf(f),
    props: {
      code: f.code,
      locator: f.locator,
      severity: f.severity,
      message: f.message,
      subject: f.locator,
      sort_key: sortKeyOf(f),
    },
    replace: true,
  };
}

/** Whether the findings of `view` are kept as records (else they are computed whole). */
export async function findingsAreKept(tx: QueryRunner, view: View): Promise<boolean> {
  const row = await tx.one<{ kept: boolean }>(findingsKept, { view });
  return row?.kept === true;
}

/**
 * Recomputes the findings of what this transaction wrote in `view` (a write view) and
 * writes the difference at the view's version. `kept`: whether the view keeps its
 * findings (asked of the store when not given; a staged import's line has no branch
 * yet and is kept from its first version). Nothing is written when the view does not
 * keep them.
 */
export async function refreshFindings(tx: QueryRunner, view: View, kept?: boolean): Promise<void> {
  await recomputeFindings(tx, view, takeWritten(tx, view), kept);
}

/**
 * refreshFindings for entities written otherwise than through recordWrites.ts (a bulk
 * load): recomputes the findings of `written` and what they reach in `view`. Chunks of a
 * load are recomputed parents first: a node's parent outside its chunk answers for its
 * ancestors through its kept orphan_node record.
 */
export async function recomputeFindings(
  tx: QueryRunner,
  view: View,
  written: Written,
  kept?: boolean,
): Promise<void> {
  const nodeIds = [...written.GNode];
  const portIds = [...written.Port];
  const edgeIds = [...written.Edge];
  if (nodeIds.length + portIds.length + edgeIds.length === 0) return;
  const prev: View = { ...view, ver: view.ver - 1 };
  // what the write reached, the rules asked of it and its kept records: one round trip
  const row = await tx.one<SubjectsRow>(findingSubjects, {
    view,
    prev,
    written: { nodeIds, portIds, edgeIds },
    quoted: QUOTED,
  });
  if (!row || !(kept ?? row.kept)) return;
  const ports = new Set(row.ports);
  const edges = new Set(row.edges);
  const nodes = new Set(nodeIds);
  let { nodeRows, keptRecords } = row;
  // the subtrees of nodes that changed parent or provenance follow them
  const below = (await subtreesBelow(tx, view, row.movedNodes)).filter((id) => !nodes.has(id));
  if (below.length > 0) {
    const [more, moreKept] = await Promise.all([
      tx.one<{ nodeRows: NodeRow[] }>(nodeSubjectRows, { view, ids: below, quoted: QUOTED }),
      tx.one<{ keptRecords: StoredFinding[] }>(subjectRecords, { view, ids: below }),
    ]);
    nodeRows = [...nodeRows, ...(more?.nodeRows ?? [])];
    keptRecords = [...keptRecords, ...(moreKept?.keptRecords ?? [])];
    for (const id of below) nodes.add(id);
  }

  const computed = new Map<string, KeptFinding>();
  const add = (f: KeptFinding) => computed.set(keyOf(f), f);
  for (const r of row.portRows) add(unsatisfiedInput(r));
  for (const r of row.edgeRows) add(wireFinding(r));
  for (const f of nodeFindings(nodeRows)) add(f);

  const SUBJECT_OF: Record<string, Set<string>> = Object.fromEntries(
    Object.entries(SUBJECT_OF_CODE).map(([code, subject]) => [
      code,
      { node: nodes, port: ports, wire: edges }[subject],
    ]),
  );
  // a subject's own codes only: ids are unique within a branch, but a stored record of
  // another kind's code under the same id is never this refresh's to remove
  const mine = keptRecords.filter((f) => (SUBJECT_OF[f.code] ?? nodes).has(f.locator));
  const before = new Map(mine.map((f) => [f.id, f]));
  const gone = mine.filter((f) => !computed.has(f.id));
  const changed = [...computed.entries()].filter(([key, f]) => {
    const old = before.get(key);
    return !old || old.message !== f.message || old.severity !== f.severity;
  });
  await Promise.all([
    removeFindings(
      tx,
      view,
      gone.map((f) => f.id),
    ),
    upsertFindings(
      tx,
      view,
      changed.map(([, f]) => findingRow(f)),
    ),
  ]);
}

/** Every node below `roots` in the view (roots excluded), level by level. */
async function subtreesBelow(tx: QueryRunner, view: View, roots: string[]): Promise<string[]> {
  const seen = new Set(roots);
  const below: string[] = [];
  let level = roots;
  while (level.length > 0) {
    const row = await tx.one<{ childIds: string[] }>(levelBelow, { view, ids: level });
    // a containment cycle cannot be stored; the seen set stops a walk if one were
    level = (row?.childIds ?? []).filter((id) => !seen.has(id));
    for (const id of level) seen.add(id);
    for (const id of level) below.push(id);
  }
  return below;
}

/** A kept finding as stored, with its id (code:locator). */
type StoredFinding = KeptFinding & { id: string };

/** findingSubjects' answer. */
type SubjectsRow = {
  ports: string[];
  edges: string[];
  movedNodes: string[];
  portRows: { locator: string; name: string }[];
  edgeRows: { locator: string; dangling: boolean; sourceType: string; targetType: string }[];
  nodeRows: NodeRow[];
  keptRecords: StoredFinding[];
  kept: boolean;
};

export type NodeRow = {
  id: string;
  parentId: string | null;
  traced: boolean;
  name: string;
  /** The parent's kept orphan_node record exists (read for a parent outside the set). */
  parentOrphan: boolean;
};

/**
 * orphan_node findings and traced markers of the nodes `rows` (nodeSubjectRows): a node
 * is an orphan when neither it nor an ancestor records provenance. Ancestors outside
 * `rows` are unchanged by the write that reached them, so their kept orphan_node record
 * answers for them.
 */
export function nodeFindings(rows: NodeRow[]): KeptFinding[] {
  const byId = new Map(rows.map((r) => [r.id, r]));
  const orphan = new Map<string, boolean>();
  /** Walks up until a node already decided, a traced node or the top; decides the walk. */
  const decide = (start: NodeRow): boolean => {
    const chain = new Set<NodeRow>();
    let current = start;
    let answer: boolean;
    for (;;) {
      const known = orphan.get(current.id);
      if (known !== undefined) {
        answer = known;
        break;
      }
      if (current.traced) {
        answer = false;
        break;
      }
      chain.add(current);
      if (current.parentId === null) {
        answer = true;
        break;
      }
      const parent = byId.get(current.parentId);
      if (!parent) {
        answer = current.parentOrphan;
        break;
      }
      if (chain.has(parent)) {
        answer = true; // a cycle cannot be stored; stop if one were
        break;
      }
      current = parent;
    }
    for (const row of chain) orphan.set(row.id, answer);
    return start.traced ? false : (orphan.get(start.id) ?? answer);
  };
  const found: KeptFinding[] = [];
  for (const row of rows) {
    if (row.traced) found.push(tracedMarker(row));
    else if (decide(row)) found.push(orphanNodeFinding(row));
  }
  return found;
}

export function unsatisfiedInput(row: { locator: string; name: string }): KeptFinding {
  return unsatisfiedInputFinding({ id: row.locator, name: row.name });
}

export function wireFinding(row: {
  locator: string;
  dangling: boolean;
  sourceType: string;
  targetType: string;
}): KeptFinding {
  const wire = { id: row.locator, sourceType: row.sourceType, targetType: row.targetType };
  return row.dangling ? danglingWireFinding(wire) : typeMismatchFinding(wire);
}
