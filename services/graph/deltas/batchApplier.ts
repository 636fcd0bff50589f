/**
 * Applies parsed deltas, in order, inside the caller's write transaction, enforcing every
 * structural invariant (the kind field matrix, wire rules, unique names and ids, a containment
 * tree). Any failure throws and the caller's transaction rolls back: a batch is all or nothing.
 * Containment is kept at most `maxDepth` deep (422 depth_limit_exceeded), and the applier counts
 * the nodes and wires it adds and removes (`usage`) for the branch quotas.
 */
import { quote } from '../../../shared/text/clip';
import { EdgeNotFoundError, NodeNotFoundError } from '../../../shared/errors/domainErrors';
import type { QueryRunner } from '../../../shared/neo4j/namedQuery';
import type { NodeRecord, PortRecord } from '../graphRecords';
import { deleteNodesAndPorts } from '../nodeWrites';
import {
  childrenOf,
  collectSubtree,
  deleteEdge,
  findNamesTaken,
  findSiblingNamed,
  findUsedIds,
  isAncestorOrSelf,
  loadNode,
  moveNodes,
  nestingOfMove,
  updateNodeProps,
  upsertPorts,
} from '../store/deltaQueries';
import { applyAddRun, PARENT_KINDS, readRunFacts, RunFacts } from './addRunApplier';
import { entityOf, failDelta } from './deltaErrors';
import type {
  AddEdge,
  AddNode,
  Delta,
  DeleteEdge,
  DeleteNode,
  FlattenBoundary,
  ReparentNode,
  UpdateNodeData,
} from './deltaTypes';
import { CHANNELS } from '../../../shared/model/nodeModel';
import { checkNodeShape, NodeState } from './nodeShape';
import { applyPatch, nodeProps, portProps, stateFromRecord } from './nodeState';
import { checkWiresOnNewPorts } from './wiresOnNewPorts';

interface Loaded {
  node: NodeRecord;
  ports: PortRecord[];
}

export interface ApplierLimits {
  /** Deepest containment allowed (a top-level node is at depth 1). */
  maxDepth: number;
}

/** Net change of a branch's node and wire counts through the deltas applied so far. */
export interface UsageChange {
  nodes: number;
  edges: number;
}

export class BatchApplier {
  readonly usage: UsageChange = { nodes: 0, edges: 0 };
  /** The facts of the batch's leading run of additions, when prefetch() started reading them. */
  private leadingFacts: Promise<RunFacts> | undefined;
  /** The write of the last run of additions, sent and not yet awaited (sendAll). */
  private pendingWrite: Promise<void> | undefined;

  constructor(
    private readonly tx: QueryRunner,
    private readonly branchId: string,
    private readonly limits: ApplierLimits,
  ) {}

  /**
   * Starts reading what the leading run of add_node/add_edge deltas needs, without
   * waiting: called right after the caller sent its lock query, both share a round
   * trip. applyAll(deltas) with the same deltas uses the answer.
   */
  prefetch(deltas: Delta[]): void {
    const lead: (AddNode | AddEdge)[] = [];
    for (const d of deltas) {
      if (d.type !== 'add_node' && d.type !== 'add_edge') break;
      lead.push(d);
    }
    if (lead.length === 0) return;
    this.leadingFacts = readRunFacts(this.tx, this.branchId, lead);
    // awaited by applyAll; a batch refused before that must not leave a rejection unhandled
    this.leadingFacts.catch(() => undefined);
  }

  /** Applies deltas in order; consecutive add_node/add_edge deltas go through the add-run fast path. */
  async applyAll(deltas: Delta[]): Promise<void> {
    await this.sendAll(deltas);
    await this.written();
  }

  /**
   * applyAll, except that when the batch ends with a run of additions, that run's write
   * is sent and not awaited: `usage` is already final, and the caller can send its next
   * statement (the batch's record) in the same round trip. The caller must await
   * written() before it relies on the batch: a delta error of that write comes from there.
   */
  async sendAll(deltas: Delta[]): Promise<void> {
    let run: (AddNode | AddEdge)[] = [];
    let leading = true;
    const flush = async () => {
      if (run.length > 0) await this.addRun(run, leading ? this.leadingFacts : undefined);
      leading = false;
      run = [];
    };
    for (const delta of deltas) {
      if (delta.type === 'add_node' || delta.type === 'add_edge') {
        run.push(delta);
        continue;
      }
      await flush();
      await this.written();
      await this.apply(delta);
    }
    await flush();
  }

  /** Settles when the last write sendAll sent has been answered (at once when there is none). */
  async written(): Promise<void> {
    const pending = this.pendingWrite;
    this.pendingWrite = undefined;
    await pending;
  }

  private async addRun(run: (AddNode | AddEdge)[], known?: Promise<RunFacts>): Promise<void> {
    const added = await applyAddRun(this.tx, this.branchId, run, this.limits.maxDepth, known);
    this.usage.nodes += added.nodes;
    this.usage.edges += added.edges;
    this.pendingWrite = added.written;
  }

  /** Deletes nodes and ports (with their wires) and counts what went. */
  private async remove(nodeIds: string[], portIds: string[]): Promise<void> {
    const deleted = await deleteNodesAndPorts(this.tx, this.branchId, nodeIds, portIds);
    this.usage.nodes -= deleted.nodes;
    this.usage.edges -= deleted.edges;
  }

  private async apply(delta: Exclude<Delta, AddNode | AddEdge>): Promise<void> {
    switch (delta.type) {
      case 'delete_node':
        return this.deleteNode(delta);
      case 'update_node_data':
        return this.updateNodeData(delta);
      case 'reparent_node':
        return this.reparentNode(delta);
      case 'delete_edge':
        return this.deleteEdge(delta);
      case 'flatten_boundary':
        return this.flattenBoundary(delta);
    }
  }

  private async load(id: string): Promise<Loaded | undefined> {
    const row = await this.tx.one<{ node: NodeRecord; ports: PortRecord[] }>(loadNode, {
      branchId: this.branchId,
      id,
    });
    return row ? { node: row.node, ports: row.ports } : undefined;
  }

  private async mustLoad(id: string): Promise<Loaded> {
    const loaded = await this.load(id);
    if (!loaded) throw new NodeNotFoundError(id);
    return loaded;
  }

  /** Ids among `ids` already used on the branch (ports of `ownerId` excepted). */
  private async usedIds(ids: string[], ownerId?: string): Promise<string[]> {
    if (ids.length === 0) return [];
    const rows = await this.tx.run<{ id: string; portOwner: string | null }>(findUsedIds, {
      branchId: this.branchId,
      ids,
    });
    return rows.filter((r) => !(ownerId && r.portOwner === ownerId)).map((r) => r.id);
  }

  private async checkParent(
    delta: Delta,
    nodeId: string,
    parentId: string | null,
    field: string,
  ): Promise<void> {
    if (parentId === null) return;
    if (parentId === nodeId)
      failDelta(delta, 'invalid_parent', field, 'a node cannot be its own parent');
    const parent = await this.load(parentId);
    if (!parent)
      failDelta(delta, 'invalid_parent', field, `parent ${parentId} does not exist on this branch`);
    if (!PARENT_KINDS.has(parent.node.kind)) {
      failDelta(
        delta,
        'invalid_parent',
        field,
        `a node may not be parented to a ${parent.node.kind} node`,
      );
    }
  }

  private async checkSiblingName(
    delta: Delta,
    name: string,
    parentId: string | null,
    exclude: string[],
    field: string,
  ) {
    if (name === '') return; // empty names are exempt
    const clash = await this.tx.one(findSiblingNamed, {
      branchId: this.branchId,
      scope: parentId ?? '',
      name,
      excludeIds: exclude,
    });
    if (clash)
      failDelta(delta, 'duplicate_name', field, `a sibling is already named ${quote(name)}`);
  }

  private shape(delta: Delta, state: NodeState, prefix: string): void {
    checkNodeShape(
      state,
      { index: delta.index, type: delta.type, entityId: entityOf(delta) },
      (f) => `deltas[${delta.index}].${prefix}.${f}`,
    );
  }

  private async deleteNode(delta: DeleteNode): Promise<void> {
    const row = await this.tx.one<{ nodeIds: string[]; portIds: string[] }>(collectSubtree, {
      branchId: this.branchId,
      id: delta.node_id,
    });
    if (!row || row.nodeIds.length === 0) throw new NodeNotFoundError(delta.node_id);
    await this.remove(row.nodeIds, row.portIds);
  }

  private async updateNodeData(delta: UpdateNodeData): Promise<void> {
    const { node, ports } = await this.mustLoad(delta.node_id);
    const after = delta.after;
    if (after.kind !== undefined && after.kind !== node.kind) {
      failDelta(
        delta,
        'kind_immutable',
        'after.kind',
        `kind is immutable (the node is a ${node.kind})`,
      );
    }
    const current = stateFromRecord(node, ports);
    if (after.source_decisions !== undefined) {
      const a = new Set(after.source_decisions);
      const b = new Set(current.source_decisions);
      if (a.size !== b.size || [...a].some((x) => !b.has(x))) {
        failDelta(
          delta,
          'source_decisions_immutable',
          'after.source_decisions',
          'source_decisions is server-authoritative; send the current set or omit it',
        );
      }
    }
    const next = applyPatch(current, after);
    this.shape(delta, next, 'after');

    // ports: which go, which are new (ids must be free on the branch)
    const before = new Map(ports.map((p) => [p.id, p]));
    const kept = new Set(CHANNELS.flatMap((c) => next.ports[c].map((p) => p.id)));
    const removed = ports.filter(
      (p) => !kept.has(p.id) || !next.ports[p.channel].some((q) => q.id === p.id),
    );
    const removedIds = new Set(removed.map((p) => p.id));
    const fresh = [...kept].filter((id) => !before.has(id) || removedIds.has(id));
    if (fresh.includes(node.id))
      failDelta(delta, 'id_collision', 'after', 'a port id equals the node id');
    const used = await this.usedIds(fresh, node.id);
    if (used.length > 0)
      failDelta(
        delta,
        'id_collision',
        'after',
        `port id ${used[0]} is already used on this branch`,
        used[0],
      );

    const parentChanged =
      after.parent_id !== undefined && after.parent_id !== (node.parent_id ?? null);
    const parentId = after.parent_id !== undefined ? after.parent_id : (node.parent_id ?? null);
    if (parentChanged) await this.checkReparent(delta, node.id, parentId, 'after.parent_id');
    if (parentChanged || next.name !== node.name) {
      await this.checkSiblingName(delta, next.name, parentId, [node.id], 'after.name');
    }

    if (removed.length > 0) {
      await this.remove(
        [],
        removed.map((p) => p.id),
      );
    }
    await this.tx.run(updateNodeProps, {
      branchId: this.branchId,
      id: node.id,
      props: nodeProps(next),
    });
    if (CHANNELS.some((c) => after[c] !== undefined)) {
      await this.tx.run(upsertPorts, {
        branchId: this.branchId,
        id: node.id,
        ports: portProps(this.branchId, node.id, next),
      });
      const added = CHANNELS.flatMap((c) =>
        next.ports[c]
          .filter((p) => fresh.includes(p.id))
          .map((p) => ({ id: p.id, delta, field: `after.${c}` })),
      );
      await checkWiresOnNewPorts(this.tx, this.branchId, added);
    }
    if (parentChanged)
      await this.tx.run(moveNodes, { branchId: this.branchId, nodeIds: [node.id], parentId });
  }

  private async checkReparent(
    delta: Delta,
    nodeId: string,
    parentId: string | null,
    field: string,
  ): Promise<void> {
    await this.checkParent(delta, nodeId, parentId, field);
    if (parentId === null) return;
    const cycle = await this.tx.one(isAncestorOrSelf, {
      branchId: this.branchId,
      parentId,
      nodeId,
    });
    if (cycle)
      failDelta(
        delta,
        'containment_cycle',
        field,
        'the new parent is inside this node: the move would create a containment cycle',
      );
    const nesting = await this.tx.one<{ parentDepth: number; height: number }>(nestingOfMove, {
      branchId: this.branchId,
      nodeId,
      parentId,
    });
    const deepest = (nesting?.parentDepth ?? 0) + 1 + (nesting?.height ?? 0);
    if (deepest > this.limits.maxDepth) {
      failDelta(
        delta,
        'depth_limit_exceeded',
        field,
        `the move would nest nodes ${deepest} deep; containment is at most ${this.limits.maxDepth} deep`,
      );
    }
  }

  private async reparentNode(delta: ReparentNode): Promise<void> {
    const { node } = await this.mustLoad(delta.node_id);
    await this.checkReparent(delta, node.id, delta.parent_id, 'parent_id');
    await this.checkSiblingName(delta, node.name, delta.parent_id, [node.id], 'parent_id');
    await this.tx.run(moveNodes, {
      branchId: this.branchId,
      nodeIds: [node.id],
      parentId: delta.parent_id,
    });
  }

  private async deleteEdge(delta: DeleteEdge): Promise<void> {
    const row = await this.tx.one<{ deleted: number }>(deleteEdge, {
      branchId: this.branchId,
      id: delta.edge_id,
    });
    if (!row || row.deleted === 0) throw new EdgeNotFoundError(delta.edge_id);
    this.usage.edges -= 1;
  }

  private async flattenBoundary(delta: FlattenBoundary): Promise<void> {
    const { node, ports } = await this.mustLoad(delta.node_id);
    if (node.kind !== 'boundary')
      failDelta(
        delta,
        'not_a_boundary',
        'node_id',
        `node ${node.id} is a ${node.kind}, not a boundary`,
      );
    const parentId = node.parent_id ?? null;
    const children = await this.tx.run<{ id: string; name: string }>(childrenOf, {
      branchId: this.branchId,
      id: node.id,
    });
    const names = [...new Set(children.map((c) => c.name).filter((n) => n !== ''))];
    const [clash] = await this.tx.run<{ name: string }>(findNamesTaken, {
      branchId: this.branchId,
      scope: parentId ?? '',
      names,
      excludeIds: [node.id],
    });
    if (clash) {
      const child = children.find((c) => c.name === clash.name);
      failDelta(
        delta,
        'duplicate_name',
        'node_id',
        `promoted child ${quote(clash.name)} would collide with a sibling`,
        child?.id,
      );
    }
    await this.tx.run(moveNodes, {
      branchId: this.branchId,
      nodeIds: children.map((c) => c.id),
      parentId,
    });
    await this.remove(
      [node.id],
      ports.map((p) => p.id),
    );
  }
}
