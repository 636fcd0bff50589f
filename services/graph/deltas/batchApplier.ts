/**
 * Applies parsed deltas, in order, inside the caller's write transaction through a write
 * view (view.ts writeViewOf: it reads and writes the version being written), enforcing every
 * structural invariant (the kind field matrix, wire rules, unique names and ids, a containment
 * tree). Any failure throws and the caller's transaction rolls back: a batch is all or nothing.
 * Containment is kept at most `maxDepth` deep (422 depth_limit_exceeded), and the applier counts
 * the nodes and wires it adds and removes (`usage`) for the branch quotas.
 */
import { quote } from '../../../shared/text/clip';
import { EdgeNotFoundError, NodeNotFoundError } from '../../../shared/errors/domainErrors';
import type { QueryRunner } from '../../../shared/neo4j/namedQuery';
import { deleteNodesAndPorts } from '../nodeWrites';
import { NewRow, removeStates, upsertStates } from '../recordWrites';
import { childrenOf, findEdge, findNamesTaken } from '../store/deltaQueries';
import type { View } from '../view';
import { applyAddRun } from './addRunApplier';
import type { RunFacts } from './runFacts';
import { failDelta } from './deltaErrors';
import { firstUsedId, nameIsUnique } from './invariants';
import type {
  Addition,
  Delta,
  DeleteEdge,
  DeleteNode,
  FlattenBoundary,
  ReparentNode,
  UpdateNodeData,
} from './deltaTypes';
import { isAddition } from './deltaTypes';
import { CHANNELS } from '../../../shared/model/nodeModel';
import { nodeProps } from './nodeState';
import { planNodeUpdate } from './nodeUpdate';
import { Loaded, StructureReads } from './structureReads';
import { checkWiresOnNewPorts } from './wiresOnNewPorts';

export interface ApplierLimits {
  /** Deepest containment allowed (a top-level node is at depth 1). */
  maxDepth: number;
}

/** What only a batch's own apply asks of the applier (applyDeltas). */
export interface BatchOptions {
  /** lockWithLeadingRun's facts for the deltas this applier applies. */
  leadingFacts?: RunFacts;
  /**
   * Derive the findings of a batch that is one run of additions while writing it
   * (runFindings.ts; `runFindings` then says what to open and close), for a caller that
   * writes them in place of refreshFindings.
   */
  deriveFindings?: boolean;
}

/** Net change of a branch's node and wire counts through the deltas applied so far. */
export interface UsageChange {
  nodes: number;
  edges: number;
}

/**
 * Awaits `first` and `second`, two statements already sent one after the other in the
 * same transaction (so they share a round trip): an error of `first` wins over one of
 * `second`, as if `second` had been sent after `first` was answered, and neither
 * rejection is left unhandled while the other is awaited.
 */
export async function inOneRoundTrip<T>(first: Promise<unknown>, second: Promise<T>): Promise<T> {
  const [a, b] = await Promise.allSettled([first, second]);
  if (a.status === 'rejected') throw a.reason;
  if (b.status === 'rejected') throw b.reason;
  return b.value;
}

export class BatchApplier {
  readonly usage: UsageChange = { nodes: 0, edges: 0 };
  /**
   * When the options ask for derived findings and the deltas applied were one run of
   * additions whose findings could be derived (runFindings.ts): the kept findings the
   * run opens and those it closes, for the caller to write (recordBatch). Else null, and
   * the caller recomputes the findings of what was written (refreshFindings).
   */
  runFindings: { opened: NewRow[]; closed: string[] } | null = null;

  private readonly reads: StructureReads;

  constructor(
    private readonly tx: QueryRunner,
    private readonly view: View,
    private readonly limits: ApplierLimits,
    private readonly options: BatchOptions = {},
  ) {
    this.reads = new StructureReads(tx, view, limits.maxDepth);
  }

  /** Applies deltas in order; consecutive add_node/add_edge deltas go through the add-run fast path. */
  async applyAll(deltas: Delta[]): Promise<void> {
    await this.applyThen(deltas, () => Promise.resolve());
  }

  /**
   * applyAll, then `next` (the caller's statement that follows the batch, e.g. its
   * record): when the batch ends with a run of additions, `next` is called as soon as
   * that run's write is sent, before it is answered, so that both travel in one round
   * trip (inOneRoundTrip: the write's errors win). `usage` and `runFindings` are final
   * when `next` is called.
   */
  async applyThen<T>(deltas: Delta[], next: () => Promise<T>): Promise<T> {
    // a batch of additions only is one run: its findings can be derived as it is written
    const derive = this.options.deriveFindings === true && deltas.every(isAddition);
    let run: Addition[] = [];
    let leading = true;
    for (const delta of deltas) {
      if (isAddition(delta)) {
        run.push(delta);
        continue;
      }
      if (run.length > 0) await (await this.addRun(run, leading, derive)).written;
      leading = false;
      run = [];
      await this.apply(delta);
    }
    if (run.length === 0) return next();
    const sent = await this.addRun(run, leading, derive);
    return inOneRoundTrip(sent.written, next());
  }

  /** Checks a run of additions and sends its write (addRunApplier.ts), counting what it adds. */
  private async addRun(run: Addition[], leading: boolean, deriveFindings: boolean) {
    const known = leading ? this.options.leadingFacts : undefined;
    const added = await applyAddRun(
      this.tx,
      this.view,
      run,
      this.limits.maxDepth,
      known,
      deriveFindings,
    );
    this.usage.nodes += added.nodes;
    this.usage.edges += added.edges;
    this.runFindings = added.findings;
    return added;
  }

  /** Deletes nodes and ports (with their wires) and counts what went. */
  private async remove(nodeIds: string[], portIds: string[]): Promise<void> {
    const deleted = await deleteNodesAndPorts(this.tx, this.view, nodeIds, portIds);
    this.usage.nodes -= deleted.nodes;
    this.usage.edges -= deleted.edges;
  }

  private async apply(delta: Exclude<Delta, Addition>): Promise<void> {
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

  private async mustLoad(id: string): Promise<Loaded> {
    const loaded = await this.reads.load(id);
    if (!loaded) throw new NodeNotFoundError(id);
    return loaded;
  }

  private async deleteNode(delta: DeleteNode): Promise<void> {
    const row = await this.reads.subtree(delta.node_id);
    if (!row) throw new NodeNotFoundError(delta.node_id);
    await this.remove(row.nodeIds, row.portIds);
  }

  private async updateNodeData(delta: UpdateNodeData): Promise<void> {
    const { node, ports } = await this.mustLoad(delta.node_id);
    const after = delta.after;
    const { next, removed, fresh, portRows } = planNodeUpdate(delta, node, ports);
    const used = new Set(await this.reads.usedIds(fresh, node.id));
    const clash = firstUsedId(fresh, (id) => used.has(id));
    if (clash)
      failDelta(
        delta,
        'id_collision',
        'after',
        `port id ${clash} is already used on this branch`,
        clash,
      );

    const parentChanged =
      after.parent_id !== undefined && after.parent_id !== (node.parent_id ?? null);
    const parentId = after.parent_id !== undefined ? after.parent_id : (node.parent_id ?? null);
    if (parentChanged) await this.reads.checkReparent(delta, node.id, parentId, 'after.parent_id');
    if (parentChanged || next.name !== node.name) {
      await this.reads.checkSiblingName(delta, next.name, parentId, [node.id], 'after.name');
    }

    if (removed.length > 0) {
      await this.remove(
        [],
        removed.map((p) => p.id),
      );
    }
    // the new state is these props over the visible one; a reparent moves parent_id/scope.
    // The node's and its ports' writes are sent together (answered in order).
    const moved = parentChanged ? { parent_id: parentId, scope: parentId ?? '' } : {};
    await Promise.all([
      upsertStates(this.tx, this.view, 'GNode', [
        { id: node.id, props: { ...nodeProps(next), ...moved } },
      ]),
      upsertStates(this.tx, this.view, 'Port', portRows),
    ]);
    if (CHANNELS.some((c) => after[c] !== undefined)) {
      const added = CHANNELS.flatMap((c) =>
        next.ports[c]
          .filter((p) => fresh.includes(p.id))
          .map((p) => ({ id: p.id, delta, field: `after.${c}` })),
      );
      await checkWiresOnNewPorts(this.tx, this.view, added);
    }
  }

  private async reparentNode(delta: ReparentNode): Promise<void> {
    const { node } = await this.mustLoad(delta.node_id);
    await this.reads.checkReparent(delta, node.id, delta.parent_id, 'parent_id');
    await this.reads.checkSiblingName(delta, node.name, delta.parent_id, [node.id], 'parent_id');
    await this.move([node.id], delta.parent_id);
  }

  /** Moves nodes under `parentId` (null: the top level): an upsert of parent_id and scope. */
  private async move(nodeIds: string[], parentId: string | null): Promise<void> {
    await upsertStates(
      this.tx,
      this.view,
      'GNode',
      nodeIds.map((id) => ({ id, props: { parent_id: parentId, scope: parentId ?? '' } })),
    );
  }

  private async deleteEdge(delta: DeleteEdge): Promise<void> {
    const row = await this.tx.one(findEdge, { view: this.view, id: delta.edge_id });
    if (!row) throw new EdgeNotFoundError(delta.edge_id);
    await removeStates(this.tx, this.view, 'Edge', [delta.edge_id]);
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
      view: this.view,
      id: node.id,
    });
    const names = [...new Set(children.map((c) => c.name).filter(nameIsUnique))];
    const [clash] = await this.tx.run<{ name: string }>(findNamesTaken, {
      view: this.view,
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
    await this.move(
      children.map((c) => c.id),
      parentId,
    );
    await this.remove(
      [node.id],
      ports.map((p) => p.id),
    );
  }
}
