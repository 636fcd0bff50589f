/**
 * What the delta engine reads of a view's structure before it writes, and the
 * structural rules checked on those reads (parent kinds, unique sibling names, a
 * containment tree at most `maxDepth` deep). Containment is the property join
 * GNode.parent_id: ancestors are unrolled parent_id steps bounded by the nesting limit,
 * a subtree is walked down level by level (each level one query), never deeper than
 * that limit allows.
 */
import type { QueryRunner } from '../../../shared/neo4j/namedQuery';
import type { NodeRecord, PortRecord } from '../graphRecords';
import { findSiblingNamed, findUsedIds, levelBelow, loadNode } from '../store/deltaQueries';
import type { View } from '../view';
import { nameIsUnique, parentRefusal, siblingNameRefusal, tooDeep } from './invariants';
import { ancestorsOf } from './ancestry';
import { failDelta } from './deltaErrors';
import type { Delta } from './deltaTypes';

export interface Loaded {
  node: NodeRecord;
  ports: PortRecord[];
}

export class StructureReads {
  constructor(
    private readonly tx: QueryRunner,
    private readonly view: View,
    private readonly maxDepth: number,
  ) {}

  async load(id: string): Promise<Loaded | undefined> {
    const row = await this.tx.one<{ node: NodeRecord; ports: PortRecord[] }>(loadNode, {
      view: this.view,
      id,
    });
    return row ? { node: row.node, ports: row.ports } : undefined;
  }

  /** Ids among `ids` already used in the view (ports of `ownerId` excepted). */
  async usedIds(ids: string[], ownerId?: string): Promise<string[]> {
    if (ids.length === 0) return [];
    const rows = await this.tx.run<{ id: string; portOwner: string | null }>(findUsedIds, {
      view: this.view,
      ids,
    });
    return rows.filter((r) => !(ownerId && r.portOwner === ownerId)).map((r) => r.id);
  }

  /** The ids of a node's subtree (itself included) and of their ports; null when absent. */
  async subtree(id: string): Promise<{ nodeIds: string[]; portIds: string[] } | null> {
    const root = await this.load(id);
    if (!root) return null;
    const nodeIds = [id];
    const portIds: string[] = [];
    let level = [id];
    // a node's subtree is never deeper than the nesting limit; the bound guards a cycle
    for (let depth = 0; level.length > 0 && depth <= this.maxDepth + 1; depth += 1) {
      const row = await this.tx.one<{ childIds: string[]; portIds: string[] }>(levelBelow, {
        view: this.view,
        ids: level,
      });
      for (const id of row?.portIds ?? []) portIds.push(id);
      level = row?.childIds ?? [];
      for (const id of level) nodeIds.push(id);
    }
    return { nodeIds, portIds };
  }

  /** The ancestors of `id` in the view, nearest first (empty for a top-level node). */
  async ancestors(id: string): Promise<string[]> {
    // a node at the deepest nesting allowed has maxDepth - 1 ancestors
    const found = await ancestorsOf(this.tx, this.view, [id], Math.max(this.maxDepth, 1));
    return found.get(id) ?? [];
  }

  /** How many levels below `id` its subtree reaches (0 = a leaf), counted up to `cap`. */
  async height(id: string, cap: number): Promise<number> {
    let level = [id];
    let height = 0;
    while (height < cap) {
      const row = await this.tx.one<{ childIds: string[] }>(levelBelow, {
        view: this.view,
        ids: level,
      });
      level = row?.childIds ?? [];
      if (level.length === 0) break;
      height += 1;
    }
    return height;
  }

  async checkParent(
    delta: Delta,
    nodeId: string,
    parentId: string | null,
    field: string,
  ): Promise<void> {
    if (parentId === null) return;
    const parent = parentId === nodeId ? null : await this.load(parentId);
    const refusal = parentRefusal(nodeId, parentId, parent?.node.kind);
    if (refusal) failDelta(delta, 'invalid_parent', field, refusal);
  }

  async checkSiblingName(
    delta: Delta,
    name: string,
    parentId: string | null,
    exclude: string[],
    field: string,
  ): Promise<void> {
    if (!nameIsUnique(name)) return;
    const clash = await this.tx.one(findSiblingNamed, {
      view: this.view,
      scope: parentId ?? '',
      name,
      excludeIds: exclude,
    });
    if (clash) failDelta(delta, 'duplicate_name', field, siblingNameRefusal(name));
  }

  /** A move of `nodeId` under `parentId`: parent rules, no cycle, within the nesting limit. */
  async checkReparent(
    delta: Delta,
    nodeId: string,
    parentId: string | null,
    field: string,
  ): Promise<void> {
    await this.checkParent(delta, nodeId, parentId, field);
    if (parentId === null) return;
    const above = await this.ancestors(parentId);
    if (above.includes(nodeId))
      failDelta(
        delta,
        'containment_cycle',
        field,
        'the new parent is inside this node: the move would create a containment cycle',
      );
    const parentDepth = above.length + 1;
    // only as deep as it takes to know whether the limit is passed
    const height = await this.height(nodeId, Math.max(this.maxDepth - parentDepth, 0));
    const deepest = parentDepth + 1 + height;
    if (tooDeep(deepest, this.maxDepth)) {
      failDelta(
        delta,
        'depth_limit_exceeded',
        field,
        `the move would nest nodes ${deepest} deep; containment is at most ${this.maxDepth} deep`,
      );
    }
  }
}
