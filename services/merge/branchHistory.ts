/**
 * A branch's recorded batches (its structural_changes trail, kind batch) and what
 * they tell about the branch's side of a merge: which fields each
 * delta wrote (a replay writes them again, so a field written on the branch and
 * changed on main conflicts even when the branch wrote back the base value), and
 * which delta last named each entity (MergeConflict.delta_index / batch_version).
 * The trail is read a page of TRAIL_PAGE batches at a time, so a merge holds one
 * page of parsed deltas, never the whole trail.
 */
import type { QueryRunner } from '../../shared/neo4j/namedQuery';
import type { Delta } from '../graph';
import { CHANNELS } from '../../shared/model/nodeModel';
import { parseRecordedDeltas, trailBatchPage } from '../graph';

/** Batches per page of the trail: with MAX_BATCH_BYTES per batch, a page's text is bounded. */
export const TRAIL_PAGE = 8;

export interface RecordedBatch {
  version: number;
  deltas: Delta[];
}

export interface DeltaRef {
  batchVersion: number;
  deltaIndex: number | null;
}

export interface BranchWrites {
  /** Node fields written by update_node_data / reparent_node (port lists by channel name). */
  nodeFields: Map<string, Set<string>>;
  /** Port fields written through port lists. */
  portFields: Map<string, Set<string>>;
  /** The last delta that named each entity (node, port, edge, or a handle it used). */
  lastTouch: Map<string, DeltaRef>;
  /** Nodes created by add_node on the branch. */
  addedNodes: Set<string>;
}

/** One page of the branch's recorded batches after `afterVersion`, in applied order. */
export async function batchPage(
  tx: QueryRunner,
  branchId: string,
  afterVersion: number,
  pageSize = TRAIL_PAGE,
): Promise<RecordedBatch[]> {
  const rows = await trailBatchPage(tx, branchId, afterVersion, pageSize);
  return rows.map((r) => ({ version: r.version, deltas: parseRecordedDeltas(r.deltas) }));
}

/**
 * The branch's recorded batches in applied order, one page at a time, from its last
 * rebase on (`since`: the version that rebase produced, whose recorded deltas are the
 * branch's changes as one batch on its base; 0 or absent: from the fork).
 */
export async function* batchPages(
  tx: QueryRunner,
  branchId: string,
  pageSize = TRAIL_PAGE,
  since = 0,
): AsyncGenerator<RecordedBatch[]> {
  let afterVersion = Math.max(0, since - 1);
  for (;;) {
    const page = await batchPage(tx, branchId, afterVersion, pageSize);
    if (page.length === 0) return;
    yield page;
    afterVersion = page[page.length - 1].version;
    if (page.length < pageSize) return;
  }
}

function add(map: Map<string, Set<string>>, id: string, fields: Iterable<string>): void {
  const set = map.get(id) ?? new Set<string>();
  for (const f of fields) set.add(f);
  map.set(id, set);
}

/** The ids a delta names, the entity first. */
export function idsNamedBy(delta: Delta): string[] {
  switch (delta.type) {
    case 'add_node': {
      const ports = CHANNELS.flatMap((c) => (delta.node.data[c] ?? []).map((p) => p.id));
      return [delta.node.id, ...ports, ...(delta.node.parent_id ? [delta.node.parent_id] : [])];
    }
    case 'update_node_data': {
      const ports = CHANNELS.flatMap((c) => (delta.after[c] ?? []).map((p) => p.id));
      const parent = delta.after.parent_id ? [delta.after.parent_id] : [];
      return [delta.node_id, ...ports, ...parent];
    }
    case 'reparent_node':
      return [delta.node_id, ...(delta.parent_id ? [delta.parent_id] : [])];
    case 'add_edge':
      return [delta.edge.id, delta.edge.source_handle, delta.edge.target_handle].filter(
        (h): h is string => h !== null,
      );
    case 'delete_edge':
      return [delta.edge_id];
    default:
      return [delta.node_id];
  }
}

/** What the branch's batches since its last rebase (`since`, batchPages) wrote, page by page. */
export async function loadBranchWrites(
  tx: QueryRunner,
  branchId: string,
  since = 0,
): Promise<BranchWrites> {
  const writes = emptyWrites();
  for await (const page of batchPages(tx, branchId, TRAIL_PAGE, since)) addWrites(writes, page);
  return writes;
}

export function emptyWrites(): BranchWrites {
  return {
    nodeFields: new Map(),
    portFields: new Map(),
    lastTouch: new Map(),
    addedNodes: new Set(),
  };
}

function addWrites(writes: BranchWrites, batches: RecordedBatch[]): void {
  for (const batch of batches) {
    for (const delta of batch.deltas) {
      const ref = { batchVersion: batch.version, deltaIndex: delta.index };
      for (const id of idsNamedBy(delta)) writes.lastTouch.set(id, ref);
      if (delta.type === 'add_node') writes.addedNodes.add(delta.node.id);
      if (delta.type === 'reparent_node') add(writes.nodeFields, delta.node_id, ['parent_id']);
      if (delta.type !== 'update_node_data') continue;
      const fields = Object.keys(delta.after).filter(
        (k) => k !== 'kind' && (delta.after as Record<string, unknown>)[k] !== undefined,
      );
      add(writes.nodeFields, delta.node_id, fields);
      for (const channel of CHANNELS) {
        for (const port of delta.after[channel] ?? []) {
          add(
            writes.portFields,
            port.id,
            Object.keys(port).filter((k) => k !== 'id'),
          );
        }
      }
    }
  }
}
