/**
 * Overlays put on the canvas: validate findings (errors and warnings on their
 * nodes, ports' nodes and wires), a diff (the branch against main, or a graph
 * between two versions: added and changed nodes and wires, with the changed
 * fields, and removed ones when the graph shown is the older side), the merge
 * preview's conflicts, and review comments pinned on nodes, ports and wires.
 * Each becomes marks (CSS classes) and a note per node or wire id; mergeMarks
 * puts several on one canvas (the change request page).
 */
import type { Finding, Schemas } from '../api';

export interface Marks {
  nodes: Map<string, { marks: Set<string>; notes: string[] }>;
  edges: Map<string, Set<string>>;
}

export function emptyMarks(): Marks {
  return { nodes: new Map(), edges: new Map() };
}

function markNode(m: Marks, id: string, mark: string, note?: string): void {
  const entry = m.nodes.get(id) ?? { marks: new Set<string>(), notes: [] };
  entry.marks.add(mark);
  if (note) entry.notes.push(note);
  m.nodes.set(id, entry);
}

function markEdge(m: Marks, id: string, mark: string): void {
  const set = m.edges.get(id) ?? new Set<string>();
  set.add(mark);
  m.edges.set(id, set);
}

/** Findings by locator: a node id, a port id (marks its node) or a wire id. */
export function findingMarks(
  findings: Finding[],
  isEdge: (id: string) => boolean,
  portOwner: (id: string) => string | undefined,
): Marks {
  const m = emptyMarks();
  for (const f of findings) {
    const mark = `finding-${f.severity}`;
    if (isEdge(f.locator)) markEdge(m, f.locator, mark);
    else markNode(m, portOwner(f.locator) ?? f.locator, mark, f.code);
  }
  return m;
}

/**
 * The diff: added and changed nodes and wires. Removed ones are marked only when
 * `removedShown` (the graph on screen is the side that still has them: main under a
 * change request read by a reviewer).
 */
export function diffMarks(
  diff: Schemas['DiffResponse'],
  portOwner: (id: string) => string | undefined,
  removedShown = false,
): Marks {
  const m = emptyMarks();
  if (removedShown) {
    for (const id of diff.nodes.removed) markNode(m, id, 'diff-removed', 'removed');
    for (const id of diff.edges.removed) markEdge(m, id, 'diff-removed');
  }
  for (const id of diff.nodes.added) markNode(m, id, 'diff-added', 'added');
  for (const c of diff.nodes.changed) markNode(m, c.id, 'diff-changed', c.fields.join(', '));
  for (const id of diff.ports.added) {
    const owner = portOwner(id);
    if (owner && !diff.nodes.added.includes(owner)) markNode(m, owner, 'diff-ports', 'port added');
  }
  for (const c of diff.ports.changed) {
    const owner = portOwner(c.id);
    if (owner) markNode(m, owner, 'diff-ports', `port ${c.fields.join(', ')}`);
  }
  for (const id of diff.edges.added) markEdge(m, id, 'diff-added');
  for (const c of diff.edges.changed) markEdge(m, c.id, 'diff-changed');
  return m;
}

/** Conflicts of a merge preview, on the node, the port's node or the wire they name. */
export function conflictMarks(
  conflicts: Schemas['MergeConflict'][],
  portOwner: (id: string) => string | undefined,
): Marks {
  const m = emptyMarks();
  for (const c of conflicts) {
    if (!c.entity_id) continue;
    if (c.entity_kind === 'edge') markEdge(m, c.entity_id, 'conflict');
    else if (c.entity_kind === 'port') {
      const owner = portOwner(c.entity_id);
      if (owner) markNode(m, owner, 'conflict', c.reason);
    } else markNode(m, c.entity_id, 'conflict', c.reason);
  }
  return m;
}

/** The node ids an overlay concerns (to load and reveal them on the canvas). */
export function markedNodeIds(m: Marks): string[] {
  return [...m.nodes.keys()];
}

export type Comment = Schemas['ReviewComment'];

/** Comments by anchor: on the node, the port's node or the wire they were written on. */
export function commentMarks(
  comments: Comment[],
  portOwner: (id: string) => string | undefined,
): Marks {
  const m = emptyMarks();
  for (const c of comments) {
    if (!c.anchor) continue;
    if (c.anchor.kind === 'edge') {
      markEdge(m, c.anchor.id, 'commented');
      continue;
    }
    const nodeId = c.anchor.kind === 'port' ? portOwner(c.anchor.id) : c.anchor.id;
    const text = c.body.length > 80 ? `${c.body.slice(0, 79)}…` : c.body;
    if (nodeId) markNode(m, nodeId, 'commented', `comment: ${text}`);
  }
  return m;
}

/** Several overlays on one canvas: their marks and notes together. */
export function mergeMarks(...all: Marks[]): Marks {
  const m = emptyMarks();
  for (const one of all) {
    for (const [id, entry] of one.nodes)
      for (const mark of entry.marks) markNode(m, id, mark, undefined);
    for (const [id, entry] of one.nodes) m.nodes.get(id)?.notes.push(...entry.notes);
    for (const [id, set] of one.edges) for (const mark of set) markEdge(m, id, mark);
  }
  return m;
}
