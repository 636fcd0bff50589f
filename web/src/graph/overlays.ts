/**
 * Overlays put on the canvas: validate findings (errors and warnings on their
 * nodes, ports' nodes and wires), the branch's diff against main (added and
 * changed nodes and wires, with the changed fields) and the merge preview's
 * conflicts. Each becomes marks (CSS classes) and a note per node or wire id.
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

/** The diff: added and changed nodes and wires (removed ones are not on the branch). */
export function diffMarks(
  diff: Schemas['DiffResponse'],
  portOwner: (id: string) => string | undefined,
): Marks {
  const m = emptyMarks();
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
