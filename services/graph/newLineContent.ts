/**
 * The content of a line that holds nothing yet: an imported project's main, whose id the
 * import chooses, so no reader and no other writer knows the line before the import
 * publishes it. Its facts are known without a read (addRunChecker.ts newLineFacts), so the
 * whole content is checked in memory at once, delta by delta in order, under the same
 * invariants and with the same answers as a batch of additions (checkAddRun), and its
 * kept findings are derived from it (runFindings.ts) instead of being written and then
 * recomputed part by part. What is written is then plain records: nodes (with their
 * positions), ports, wires and findings, in parts of any size, each part in a transaction
 * of the caller's (a staged import writes many; a small one, one). The trail's touches of
 * it are derived from those records (trail/importTouches.ts), not written.
 *
 * The node, port and wire records follow from the deltas alone (runRows.ts runRecords),
 * so a large content can be written while it is checked (recordsFirst): nothing reads the
 * line before it is published, and a refused content's line is removed whole.
 */
import { randomUUID } from 'node:crypto';
import { NotFoundError } from '../../shared/errors/domainErrors';
import type { Executor } from '../../shared/neo4j/executor';
import type { QueryRunner } from '../../shared/neo4j/namedQuery';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { AddRunChecker, checkAddRun, newLineFacts } from './deltas/addRunChecker';
import type { Addition, Delta } from './deltas/deltaTypes';
import { isAddition } from './deltas/deltaTypes';
import { runRecords } from './deltas/runRows';
import type { NodePosition } from './nodeWrites';
import { createNewLineRecords, NewRow } from './recordWrites';
import { mainView } from './view';
import type { View } from './view';

/** What a new line's content writes, record by record, and the counts it adds. */
export interface NewLineContent {
  nodes: NewRow[];
  ports: NewRow[];
  edges: NewRow[];
  findings: NewRow[];
  usage: { nodes: number; edges: number };
}

/** A part of the content: any slice of each of its lists. */
export type NewLineContentPart = Pick<NewLineContent, 'nodes' | 'ports' | 'edges' | 'findings'>;

/**
 * Checks `deltas` (add_node and add_edge only) as the first content of the new line of
 * `view`, nested at most `maxDepth` deep; throws the first refusal (a DeltaError, as a
 * batch answers it). `positions` place the nodes they name (others stay at 0, 0).
 */
export function checkNewLineContent(
  view: View,
  deltas: readonly Delta[],
  maxDepth: number,
  positions: readonly NodePosition[],
): NewLineContent {
  const run = additionsOf(deltas);
  const { rows, findings } = checkAddRun(run, maxDepth, newLineFacts(view), true);
  placeRows(rows.nodes, positions);
  return {
    ...siblingsTogether(rows),
    findings: findings?.opened ?? [],
    usage: { nodes: rows.nodes.length, edges: rows.edges.length },
  };
}

function additionsOf(deltas: readonly Delta[]): Addition[] {
  const run: Addition[] = [];
  for (const d of deltas) {
    if (!isAddition(d)) throw new Error(`a new line's content only adds (got ${d.type})`);
    run.push(d);
  }
  return run;
}

/**
 * A new line's content whose node, port and wire records are known before it is
 * checked: `rest` checks it (when it was not checked yet) and answers the rest of its
 * records, its kept findings, or throws its first refusal.
 */
export interface RecordsFirst {
  rows: Pick<NewLineContentPart, 'nodes' | 'ports' | 'edges'>;
  usage: NewLineContent['usage'];
  rest(): Promise<Pick<NewLineContentPart, 'findings'>>;
}

/** A content checked already, as RecordsFirst: its rest is known. */
export function checkedFirst(content: NewLineContent): RecordsFirst {
  const { findings } = content;
  return { rows: content, usage: content.usage, rest: async () => ({ findings }) };
}

/** Deltas checked between two turns of the event loop by RecordsFirst.rest of recordsFirst. */
const CHECK_SLICE = 1000;

/**
 * The content of `deltas` on the new line of `view`, as checkNewLineContent makes it,
 * with its node, port and wire records built ahead of the check: the same records, in
 * the same order, with the same answers. `rest` runs the check a slice of deltas at a
 * time, letting the event loop turn in between, so a caller can write the records
 * while it runs. Null when a node's data makes no record of its kind's shape: then
 * checkNewLineContent refuses the content before anything is written.
 */
export function recordsFirst(
  view: View,
  deltas: readonly Delta[],
  maxDepth: number,
  positions: readonly NodePosition[],
): RecordsFirst | null {
  const run = additionsOf(deltas);
  const records = runRecords(run);
  if (!records) return null;
  placeRows(records.rows.nodes, positions);
  const { nodes, edges } = records.rows;
  const rest = async () => {
    // the checks take the records' node states instead of building them again
    const checker = new AddRunChecker(maxDepth, { ...newLineFacts(view), records });
    for (let at = 0; at < run.length; at++) {
      checker.check(run[at]);
      if ((at + 1) % CHECK_SLICE === 0) await nextTurn();
    }
    const { findings } = checker.finish(run, true);
    await nextTurn();
    return { findings: findings?.opened ?? [] };
  };
  return {
    rows: siblingsTogether(records.rows),
    usage: { nodes: nodes.length, edges: edges.length },
    rest,
  };
}

/** Sets the node rows' positions (their records carry x and y). */
function placeRows(nodes: NewRow[], positions: readonly NodePosition[]): void {
  if (positions.length === 0) return;
  const at = new Map(positions.map((p) => [p.id, p]));
  for (const row of nodes) {
    const p = at.get(row.id);
    if (p) Object.assign(row.props, { x: p.x, y: p.y });
  }
}

/**
 * The node, port and wire rows in the order they are best written: each parent's
 * children together (in the file's order among them), their ports in the same order,
 * and each wire beside the node of its source port. Neo4j places the records one
 * transaction creates side by side in its store files, so the children of a boundary
 * (read together by a subtree or a boundary view) lie together instead of scattered
 * over the whole import, whatever order the file listed them in (the index seeks of
 * such a read still land apart in a large graph's indexes). Nothing reads the line
 * before it is published, so the order changes nothing else.
 */
function siblingsTogether(rows: Pick<NewLineContent, 'nodes' | 'ports' | 'edges'>) {
  const groupOf = new Map<unknown, number>();
  const group = (row: NewRow) => {
    const parent = row.props.parent_id ?? null;
    let at = groupOf.get(parent);
    if (at === undefined) groupOf.set(parent, (at = groupOf.size));
    return at;
  };
  const nodes = stableSortBy(rows.nodes, group);
  const nodeRank = new Map(nodes.map((row, at) => [row.id, at]));
  const ports = stableSortBy(rows.ports, (row) => nodeRank.get(row.props.node_id as string) ?? -1);
  const portRank = new Map(ports.map((row, at) => [row.id, at]));
  const edges = stableSortBy(
    rows.edges,
    (row) => portRank.get(row.props.source_handle as string) ?? -1,
  );
  return { nodes, ports, edges };
}

/**
 * `rows` ordered by `key` (a whole number from -1, below the number of rows), keeping
 * their order among equal keys: a counting sort, one pass to count each key's rows and
 * one to place them, rather than a comparison sort of an object per row (an import's
 * content is a few hundred thousand rows).
 */
function stableSortBy(rows: NewRow[], key: (row: NewRow) => number): NewRow[] {
  const keys = new Int32Array(rows.length);
  let top = 0;
  for (let at = 0; at < rows.length; at++) {
    const k = key(rows[at]) + 1;
    if (!Number.isInteger(k) || k < 0) throw new Error(`not a rank: ${k - 1}`);
    keys[at] = k;
    if (k > top) top = k;
  }
  // where each key's rows start: the rows of every smaller key before them
  const starts = new Int32Array(top + 2);
  for (const k of keys) starts[k + 1] += 1;
  for (let k = 1; k < starts.length; k++) starts[k] += starts[k - 1];
  const sorted = new Array<NewRow>(rows.length);
  for (let at = 0; at < rows.length; at++) sorted[starts[keys[at]]++] = rows[at];
  return sorted;
}

/**
 * The content (or those of its lists it has) cut into parts of at most `size` records
 * each, in the order they are written: nodes, ports, wires, findings. Nothing reads the
 * line before it is published, so the order only matters to a reader of the progress.
 */
export function* contentParts(
  content: Partial<NewLineContentPart>,
  size: number,
): Generator<NewLineContentPart> {
  const lists = ['nodes', 'ports', 'edges', 'findings'] as const;
  for (const list of lists) {
    const records = content[list] ?? [];
    for (let from = 0; from < records.length; from += size) {
      const part: NewLineContentPart = {
        nodes: [],
        ports: [],
        edges: [],
        findings: [],
      };
      (part[list] as unknown[]) = records.slice(from, from + size);
      yield part;
    }
  }
}

/** How many records a part (or the whole content, or some of its lists) writes. */
export function recordCount(part: Partial<NewLineContentPart>): number {
  return (
    (part.nodes?.length ?? 0) +
    (part.ports?.length ?? 0) +
    (part.edges?.length ?? 0) +
    (part.findings?.length ?? 0)
  );
}

/** Writes a part of a new line's content at the view's version (the line's first). */
export async function writeNewLineContent(
  tx: QueryRunner,
  view: View,
  part: NewLineContentPart,
): Promise<void> {
  await createNewLineRecords(tx, view, part);
}

/**
 * Writes a part of each shape an import writes on a new line no one knows, in one
 * transaction that is then rolled back, so that Neo4j plans the statements of an
 * import's writes before the first import needs them (planWarmup.ts): Neo4j keeps a
 * plan by a statement's text and the types of its parameters, an empty list's among
 * them, and a staged import writes one kind of record per part (contentParts), a small
 * one all at once. Ends in the NotFoundError it rolls back with: nothing is left written.
 */
export async function rehearseNewLineWrites(ctx: { executor: Executor }): Promise<never> {
  const view = mainView(randomUUID(), 0);
  const row = (props: Record<string, unknown>): NewRow => ({ id: randomUUID(), props });
  const node = row({ kind: 'behavior', name: 'plan warm-up', name_key: 'plan warm-up', scope: '' });
  const sample: NewLineContentPart = {
    nodes: [node],
    ports: [row({ node_id: node.id, node_kind: 'behavior', channel: 'inputs', ord: 0 })],
    edges: [row({ source_handle: randomUUID(), target_handle: randomUUID() })],
    findings: [row({ subject: node.id, sort_key: 'plan warm-up' })],
  };
  return ctx.executor.writeTx(async (tx) => {
    for (const part of [...contentParts(sample, 1), sample])
      await writeNewLineContent(tx, view, part);
    throw new NotFoundError('line');
  });
}
