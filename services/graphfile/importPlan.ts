/**
 * Turns a read graph file into the batch an import applies: one add_node delta per node, parents
 * first (a stable topological order by parent_id, so a file may list a child before its parent),
 * then one add_edge delta per edge, parsed by the delta parser exactly like a batch; plus
 * the nodes' positions ({x, y} numbers; absent = {0, 0}); and that batch checked whole as
 * a new main's first content (checkImportContent), or its records built first and checked
 * while a staged import writes them (importRecordsFirst). Pure: no database.
 */
import { DeltaError } from '../../shared/errors/domainErrors';
import type { AddNode, Delta, NewLineContent, RecordsFirst } from '../graph';
import {
  checkedFirst,
  checkNewLineContent,
  mainView,
  parseDeltaBatch,
  recordsFirst,
} from '../graph';
import { fileError, inFileTerms } from './fileErrors';
import type { GraphFileContent } from './graphFileReader';

export interface ImportPlan {
  deltas: Delta[];
  positions: { id: string; x: number; y: number }[];
  nodeCount: number;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/** Parents before children; file order otherwise. A parent outside the file (or a cycle) is left to the applier. */
export function parentsFirst(nodes: AddNode[]): AddNode[] {
  const byId = new Map(nodes.map((d) => [d.node.id, d]));
  const placed = new Set<string>();
  const ordered: AddNode[] = [];
  for (const delta of nodes) {
    const chain: AddNode[] = [];
    const inChain = new Set<string>();
    let current: AddNode | undefined = delta;
    while (current && !placed.has(current.node.id) && !inChain.has(current.node.id)) {
      chain.push(current);
      inChain.add(current.node.id);
      current = current.node.parent_id ? byId.get(current.node.parent_id) : undefined;
    }
    for (const d of chain.reverse()) {
      placed.add(d.node.id);
      ordered.push(d);
    }
  }
  return ordered;
}

function positionsOf(nodes: unknown[], deltas: Delta[]): ImportPlan['positions'] {
  const positions: ImportPlan['positions'] = [];
  nodes.forEach((raw, index) => {
    const position = isObject(raw) ? raw.position : undefined;
    if (position === undefined || position === null) return;
    const { x, y } = isObject(position) ? position : { x: undefined, y: undefined };
    if (
      typeof x !== 'number' ||
      !Number.isFinite(x) ||
      typeof y !== 'number' ||
      !Number.isFinite(y)
    ) {
      const id = (deltas[index] as AddNode).node.id;
      throw fileError(`nodes[${index}].position`, 'a position is an object {x, y} of numbers', {
        index,
        type: 'add_node',
        entityId: id,
      });
    }
    positions.push({ id: (deltas[index] as AddNode).node.id, x, y });
  });
  return positions;
}

export function planImport(file: GraphFileContent): ImportPlan {
  const raw = [
    ...file.nodes.map((node) => ({ type: 'add_node', node })),
    ...file.edges.map((edge) => ({ type: 'add_edge', edge })),
  ];
  let deltas: Delta[];
  try {
    deltas = parseDeltaBatch(
      { deltas: raw },
      { maxDeltas: Number.MAX_SAFE_INTEGER, requireVersion: false },
    ).deltas;
  } catch (error) {
    if (error instanceof DeltaError) throw inFileTerms(error, file.nodes.length);
    throw error;
  }
  const nodeCount = file.nodes.length;
  const nodes = deltas.slice(0, nodeCount) as AddNode[];
  return {
    deltas: [...parentsFirst(nodes), ...deltas.slice(nodeCount)],
    positions: positionsOf(file.nodes, deltas),
    nodeCount,
  };
}

/**
 * The plan's content checked as the first version of main `mainId` (its line holds
 * nothing yet), nested at most `maxDepth` deep: the records an import writes, or the
 * first refusal in file terms. In memory: nothing is read or written.
 */
export function checkImportContent(
  plan: ImportPlan,
  mainId: string,
  maxDepth: number,
): NewLineContent {
  try {
    return checkNewLineContent(mainView(mainId, 0), plan.deltas, maxDepth, plan.positions);
  } catch (error) {
    throw inFileTermsIfRefusal(error, plan.nodeCount);
  }
}

/** A delta's refusal in file terms; any other error as it is. */
const inFileTermsIfRefusal = (error: unknown, nodeCount: number): unknown =>
  error instanceof DeltaError ? inFileTerms(error, nodeCount) : error;

/**
 * The plan's content as checkImportContent makes it, its node, port and wire records
 * built first and its check run by `rest` (recordsFirst), refusals in file terms, so that
 * a staged import writes the records while the check runs. A node whose data makes no
 * record of its kind's shape is refused here, before anything is written.
 */
export function importRecordsFirst(
  plan: ImportPlan,
  mainId: string,
  maxDepth: number,
): RecordsFirst {
  const view = mainView(mainId, 0);
  const first = recordsFirst(view, plan.deltas, maxDepth, plan.positions);
  if (!first) return checkedFirst(checkImportContent(plan, mainId, maxDepth));
  return {
    ...first,
    rest: () =>
      first.rest().catch((error: unknown) => {
        throw inFileTermsIfRefusal(error, plan.nodeCount);
      }),
  };
}
