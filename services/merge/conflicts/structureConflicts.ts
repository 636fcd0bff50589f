/**
 * Conflicts between entities: the same input port wired differently
 * on each side (rewired_on_both); siblings, or ports of one node, given the same
 * name on each side (name_collision); moves on each side that together would
 * close a containment cycle (reparent_conflict).
 */
import { Image, sameValue } from '../graphSnapshot';
import type { MergeView } from './mergeView';
import type { MergeSide } from './mergeSide';

const short = (id: string) => id.slice(0, 8);

/** Input ports whose wiring main changed since the base. */
function rewiredOnMain(a: MergeView): Set<string> {
  const ports = new Set<string>();
  for (const id of a.main.changes.edge.keys()) {
    for (const edge of [a.base.edge.get(id), a.main.snap.edge.get(id)])
      if (edge?.target_handle) ports.add(edge.target_handle);
  }
  return ports;
}

export function wiringConflicts(a: MergeView): void {
  for (const portId of rewiredOnMain(a)) {
    const port = a.main.snap.port.get(portId);
    if (!port || port.channel !== 'inputs' || !a.branch.snap.port.get(portId)) continue;
    const base = a.baseIndex.wiring(portId);
    const main = a.main.index.wiring(portId);
    const branch = a.branch.index.wiring(portId);
    if (sameValue(base, main) || sameValue(base, branch) || sameValue(main, branch)) continue;
    const side = (wiring: string[]) => ({
      action: 'rewired' as const,
      summary:
        wiring.length === 0
          ? 'left the port unwired'
          : `wired it from ${wiring.map((h) => (h.startsWith('(') ? h : short(h))).join(', ')}`,
      values: { source_handle: wiring },
    });
    a.conflicts.add({
      reason: 'rewired_on_both',
      kind: 'port',
      id: portId,
      fields: ['source_handle'],
      branch: side(branch),
      main: side(main),
    });
  }
}

/** Entities a side placed under a name: added, renamed or moved (non-empty names only). */
function placed(side: MergeSide, kind: 'node' | 'port'): Map<string, string[]> {
  const scope = kind === 'node' ? 'parent_id' : 'node_id';
  const byKey = new Map<string, string[]>();
  for (const [id, change] of side.changes[kind]) {
    const image = side.image(kind, id);
    if (!image || change.status === 'removed' || image.name === '') continue;
    if (change.status === 'changed' && !change.fields.has('name') && !change.fields.has(scope))
      continue;
    const key = `${String(image[scope] ?? '')}\u0000${String(image.name)}`;
    byKey.set(key, [...(byKey.get(key) ?? []), id]);
  }
  return byKey;
}

export function nameCollisions(a: MergeView): void {
  for (const kind of ['node', 'port'] as const) {
    const scope = kind === 'node' ? 'parent_id' : 'node_id';
    const onMain = placed(a.main, kind);
    for (const [key, branchIds] of placed(a.branch, kind)) {
      for (const mainId of onMain.get(key) ?? []) {
        // main's entity keeps main's name and place unless the branch deleted or moved it
        const branchChange = a.branch.change(kind, mainId);
        if (branchChange?.status === 'removed') continue;
        if (branchChange?.fields.has('name') || branchChange?.fields.has(scope)) continue;
        for (const branchId of branchIds) {
          if (branchId === mainId || a.main.deleted(kind, branchId)) continue;
          const mainImage = a.main.image(kind, mainId) as Image;
          a.conflicts.add({
            reason: 'name_collision',
            kind,
            id: branchId,
            fields: ['name'],
            branch: a.branch.describe(kind, branchId, ['name', scope]),
            main: {
              ...a.main.describe(kind, mainId, ['name', scope]),
              values: { id: mainId, name: mainImage.name, [scope]: mainImage[scope] ?? null },
            },
          });
        }
      }
    }
  }
}

export function containmentConflicts(a: MergeView): void {
  const movedOnBranch = (id: string) => {
    const c = a.branch.change('node', id);
    return c !== undefined && (c.status === 'added' || c.fields.has('parent_id'));
  };
  const mergedParent = (id: string): string | null => {
    const image = movedOnBranch(id)
      ? a.branch.image('node', id)
      : (a.main.image('node', id) ?? a.branch.image('node', id));
    return (image?.parent_id as string | null | undefined) ?? null;
  };
  for (const [id] of a.branch.changes.node) {
    if (!movedOnBranch(id) || !a.branch.image('node', id)) continue;
    const cycle = new Set<string>();
    let current = mergedParent(id);
    while (current !== null && current !== id && !cycle.has(current)) {
      cycle.add(current);
      current = mergedParent(current);
    }
    if (current !== id) continue;
    const mover = [...cycle].find((n) => a.main.change('node', n)?.fields.has('parent_id'));
    if (!mover) continue;
    const main = a.main.describe('node', mover, ['parent_id'], 'reparented');
    a.conflicts.add({
      reason: 'reparent_conflict',
      kind: 'node',
      id,
      fields: ['parent_id'],
      branch: a.branch.describe('node', id, ['parent_id'], 'reparented'),
      main: { ...main, values: { id: mover, parent_id: mergedParent(mover) } },
    });
  }
}
