/**
 * A node's history (getNodeHistory, getMainNodeHistory): the changes that touched one
 * node, newest first, paged, with who, when, which change (version, kind) and which
 * fields, and for each field the change that last set it. A change touches a node when
 * it adds, changes or removes the node (its fields, its port lists and so its ports) or
 * adds or removes a wire on one of its ports.
 *
 * Read through the trail's Touch index (store/trailQueries.ts), never the trail itself:
 * the node's own touches name the ports it ever had and the wires a change added on them
 * with the node, the ports' touches the other wires ever added on them, the wires'
 * touches their removal. Three index seeks per key and line
 * the view reads (a working branch: its own line up to the view's version, and main up
 * to the branch's base), so the cost follows the node's changes, not the trail's length.
 * An import's touch of the node, when it is derived rather than written down, is read
 * from its version-0 records (importTouches.ts), asked in the same round trip.
 */
import { NotFoundError } from '../../../shared/errors/domainErrors';
import type { QueryRunner } from '../../../shared/neo4j/namedQuery';
import { changesAt, nodeInView, touchesOfKeys } from '../store/trailQueries';
import type { View } from '../view';
import type { ChangeKind } from './changeRecord';
import { importTouchesOf } from './importTouches';
import type { TouchAction } from './touches';

interface TouchFound {
  line: string;
  version: number;
  key: string;
  entity: 'node' | 'edge';
  id: string;
  action: TouchAction;
  fields: string[] | null;
  ports: string[] | null;
  /** Touches recorded before a node's touch listed its wires have none. */
  wires: string[] | null;
}

/** One change in a node's history. */
export interface NodeChange {
  /** The line the change was recorded on (the branch, or main beneath it). */
  line: string;
  version: number;
  kind: ChangeKind;
  actorId: string;
  createdAt: string;
  /** What the change did to the node itself; null when it touched only its wires. */
  action: TouchAction | null;
  fields: string[];
  ports: string[];
  wires: { id: string; action: TouchAction }[];
  mergedBranchId: string | null;
  revertedVersion: number | null;
}

/** The change that last set one field of the node. */
export interface FieldSet {
  line: string;
  version: number;
}

export interface NodeHistory {
  changes: NodeChange[];
  /** Each field the node's current life had set, with the change that last set it. */
  fields: Record<string, FieldSet>;
  hasMore: boolean;
}

/** The lines a view reads, each with the newest version of it seen, newest line first. */
function linesOf(view: View): { id: string; ver: number }[] {
  if (view.line === view.main) return [{ id: view.main, ver: view.ver }];
  return [
    { id: view.line, ver: view.ver },
    { id: view.main, ver: view.base },
  ];
}

async function touchesOf(
  tx: QueryRunner,
  lines: { id: string; ver: number }[],
  keys: string[],
): Promise<TouchFound[]> {
  if (keys.length === 0) return [];
  return tx.run<TouchFound & Record<string, unknown>>(touchesOfKeys, { lines, keys });
}

/** Newest first: a working branch's own changes come after main's beneath it. */
function newestFirst(lines: { id: string }[]) {
  const rank = new Map(lines.map((l, i) => [l.id, lines.length - i]));
  return (a: { line: string; version: number }, b: { line: string; version: number }) =>
    (rank.get(b.line) ?? 0) - (rank.get(a.line) ?? 0) || b.version - a.version;
}

/** Each field's last setter, walking the node's own touches newest first back to the
 * change that added it (a node removed and added again starts a new life). */
function lastSetters(own: TouchFound[]): Record<string, FieldSet> {
  const fields: Record<string, FieldSet> = {};
  for (const t of own) {
    for (const f of t.fields ?? [])
      if (!(f in fields)) fields[f] = { line: t.line, version: t.version };
    if (t.action === 'added') break;
  }
  return fields;
}

export async function nodeHistory(
  tx: QueryRunner,
  view: View,
  nodeId: string,
  page: { limit: number; offset: number },
): Promise<NodeHistory> {
  const lines = linesOf(view);
  const order = newestFirst(lines);
  // sent together, in one round trip: an import's touch written down is not derived again
  const [found, imported] = await Promise.all([
    touchesOf(tx, lines, [nodeId]),
    importTouchesOf(tx, view.main, [nodeId]),
  ]);
  const own = [
    ...found.filter((t) => t.entity === 'node'),
    ...imported.map((t): TouchFound => ({ ...t, line: view.main, version: 0 })),
  ];
  if (own.length === 0) {
    const row = await tx.one<{ exists: boolean }>(nodeInView, { view, nodeId });
    if (!row?.exists) throw new NotFoundError('node');
  }
  own.sort(order);
  const ports = [...new Set(own.flatMap((t) => t.ports ?? []))];
  // the wires added with the node, listed on its own touches, as touches of their own
  const addedWithNode = own.flatMap((t) =>
    (t.wires ?? []).map((id): TouchFound => ({ ...t, entity: 'edge', id, action: 'added' })),
  );
  const added = [
    ...addedWithNode,
    ...(await touchesOf(tx, lines, ports)).filter((t) => t.entity === 'edge'),
  ];
  const wireIds = [...new Set(added.map((t) => t.id))];
  const removed = (await touchesOf(tx, lines, wireIds)).filter((t) => t.entity === 'edge');

  const byChange = new Map<
    string,
    Omit<NodeChange, 'kind' | 'actorId' | 'createdAt' | 'mergedBranchId' | 'revertedVersion'>
  >();
  const entryOf = (t: TouchFound) => {
    const at = `${t.line} ${t.version}`;
    let entry = byChange.get(at);
    if (!entry) {
      entry = { line: t.line, version: t.version, action: null, fields: [], ports: [], wires: [] };
      byChange.set(at, entry);
    }
    return entry;
  };
  for (const t of own) {
    const entry = entryOf(t);
    entry.action = t.action;
    entry.fields = t.fields ?? [];
    entry.ports = t.ports ?? [];
  }
  const wiresSeen = new Set<string>();
  for (const t of [...added, ...removed]) {
    const at = `${t.line} ${t.version} ${t.id}`;
    if (wiresSeen.has(at)) continue; // a wire between two ports of the node
    wiresSeen.add(at);
    entryOf(t).wires.push({ id: t.id, action: t.action });
  }
  const all = [...byChange.values()].sort(order);
  const slice = all.slice(page.offset, page.offset + page.limit);
  const records = await tx.run<{
    change: {
      branch_id: string;
      version: number;
      kind: ChangeKind | null;
      actor_id: string;
      created_at: string;
      merged_branch_id: string | null;
      reverted_version: number | null;
    };
  }>(changesAt, { changes: slice.map((e) => ({ line: e.line, version: e.version })) });
  const recordOf = new Map(
    records.map((r) => [`${r.change.branch_id} ${r.change.version}`, r.change]),
  );
  const changes = slice.map((e): NodeChange => {
    const c = recordOf.get(`${e.line} ${e.version}`);
    return {
      ...e,
      kind: c?.kind ?? 'batch',
      actorId: c?.actor_id ?? '',
      createdAt: c?.created_at ?? '',
      mergedBranchId: c?.merged_branch_id ?? null,
      revertedVersion: c?.reverted_version ?? null,
      wires: [...e.wires].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)),
    };
  });
  return { changes, fields: lastSetters(own), hasMore: all.length > page.offset + slice.length };
}
