/**
 * Conflicts on one entity: both sides changed the same fields of a
 * node or port to different values (modified_on_both; both moved a node to
 * different parents: reparent_conflict); the branch replaced a port list that main
 * changed (modified_on_both on the node, field = the channel); one side deleted
 * what the other changed or used (deleted_on_main, deleted_on_branch_modified_on_main).
 */
import { CHANNELS } from '../../../shared/model/nodeModel';
import { changedFields, EntityKind, FIELDS, Image, sameValue } from '../graphSnapshot';
import type { MergeView } from './mergeView';
import type { SideChange } from './mergeSide';

function deleted(kind: EntityKind): SideChange {
  return { action: 'deleted', summary: `deleted the ${kind}`, values: null };
}

export function fieldConflicts(a: MergeView): void {
  for (const kind of ['node', 'port'] as const) {
    for (const [id, mainChange] of a.main.changes[kind]) {
      const branchChange = a.branch.changes[kind].get(id);
      if (!branchChange) continue;
      const mainImage = a.main.image(kind, id) as Image;
      const branchImage = a.branch.image(kind, id) as Image;
      if (mainChange.status === 'added' && branchChange.status === 'added') {
        const fields = changedFields(kind, mainImage, branchImage);
        if (fields.length > 0) {
          a.conflicts.add({
            reason: 'modified_on_both',
            kind,
            id,
            fields,
            branch: a.branch.describe(kind, id, fields, 'added'),
            main: a.main.describe(kind, id, fields, 'added'),
          });
        }
        continue;
      }
      if (mainChange.status !== 'changed' || branchChange.status !== 'changed') continue;
      const both = [...mainChange.fields].filter(
        (f) =>
          FIELDS[kind].includes(f) &&
          branchChange.fields.has(f) &&
          !sameValue(mainImage[f], branchImage[f]),
      );
      if (kind === 'node' && both.includes('parent_id')) {
        a.conflicts.add({
          reason: 'reparent_conflict',
          kind,
          id,
          fields: ['parent_id'],
          branch: a.branch.describe(kind, id, ['parent_id'], 'reparented'),
          main: a.main.describe(kind, id, ['parent_id'], 'reparented'),
        });
      }
      const rest = both.filter((f) => f !== 'parent_id');
      if (rest.length > 0) {
        a.conflicts.add({
          reason: 'modified_on_both',
          kind,
          id,
          fields: rest,
          branch: a.branch.describe(kind, id, rest, 'modified'),
          main: a.main.describe(kind, id, rest, 'modified'),
        });
      }
    }
  }
}

/**
 * A port list in update_node_data replaces its channel as a whole: replayed
 * onto a channel main changed (a port added, removed or reordered), it would
 * silently undo main's change.
 */
export function portListConflicts(a: MergeView): void {
  for (const [nodeId, change] of a.branch.changes.node) {
    if (change.status !== 'changed' || !a.main.image('node', nodeId)) continue;
    for (const channel of CHANNELS) {
      if (!change.fields.has(channel)) continue;
      const base = a.baseIndex.channel(nodeId, channel);
      const main = a.main.index.channel(nodeId, channel);
      const branch = a.branch.index.channel(nodeId, channel);
      if (sameValue(base, main) || sameValue(branch, main)) continue;
      a.conflicts.add({
        reason: 'modified_on_both',
        kind: 'node',
        id: nodeId,
        fields: [channel],
        branch: {
          ...a.branch.describe('node', nodeId, [], 'modified'),
          values: { [channel]: branch },
        },
        main: { ...a.main.describe('node', nodeId, [], 'modified'), values: { [channel]: main } },
      });
    }
  }
}

/** The node of a port at the base (or on either side when the port is new). */
function portNode(a: MergeView, portId: string): string | undefined {
  return (a.base.port.get(portId) ?? a.main.snap.port.get(portId) ?? a.branch.snap.port.get(portId))
    ?.node_id;
}

export function deletionConflicts(a: MergeView): void {
  for (const kind of ['node', 'port'] as const) {
    for (const [id, change] of a.main.changes[kind]) {
      if (change.status !== 'removed' || !a.branch.image(kind, id) || !a.branch.touched(id))
        continue;
      // a port of a node main deleted is reported on the node
      if (kind === 'port' && a.main.deleted('node', portNode(a, id) ?? '')) continue;
      a.conflicts.add({
        reason: 'deleted_on_main',
        kind,
        id,
        fields: [],
        branch: a.branch.describe(kind, id, []),
        main: deleted(kind),
      });
    }
    for (const [id, change] of a.branch.changes[kind]) {
      if (change.status !== 'removed' || !a.main.image(kind, id) || !a.main.touched(id)) continue;
      if (kind === 'port' && a.branch.deleted('node', portNode(a, id) ?? '')) continue;
      const fields = [...(a.main.change(kind, id)?.fields ?? [])].sort();
      a.conflicts.add({
        reason: 'deleted_on_branch_modified_on_main',
        kind,
        id,
        fields,
        branch: deleted(kind),
        main: a.main.describe(kind, id, fields),
      });
    }
  }
}
