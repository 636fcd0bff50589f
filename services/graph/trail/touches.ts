/**
 * What a change touched, as the trail indexes it (store/trailQueries.ts, Touch records):
 * one small record per (change, key, entity), found by (branch_id, key, version), so
 * "which changes touched node X" is an index seek whatever the trail's length.
 *
 * - A node delta (add_node, update_node_data, reparent_node, delete_node,
 *   flatten_boundary) is keyed by the node's id and names the node's fields it set and
 *   the ports of the channel lists it wrote: ports are written only through their node's
 *   data, so a port's changes are its node's.
 * - add_edge is keyed by each port it connects (the node owning the port finds it
 *   through that port), unless the same change touched that node: then the wire is
 *   listed on the node's own touch (`wires`) instead (foldWiresIntoNodes).
 *   delete_edge is keyed by the wire's id (found through the add_edge that named it).
 * - What a delta changed without naming it (cascadeTouches): the descendants a
 *   delete_node removed, the children a flatten_boundary moved to its parent, the wires
 *   removed with a node's ports.
 */
import { CHANNELS } from '../../../shared/model/nodeModel';
import type { Delta, NodeDataInput } from '../deltas/deltaTypes';

export type TouchAction = 'added' | 'changed' | 'removed';

/** One touch of one change: the Touch record's properties besides branch and version. */
export interface TouchRow {
  /** The id the record is found by: a node id, a port id (wires), or a wire id. */
  key: string;
  entity: 'node' | 'edge';
  /** The node's or the wire's id. */
  id: string;
  action: TouchAction;
  /** For a node: the fields the change set (NodeData names, `kind`, `parent_id`). */
  fields: string[];
  /** For a node: the ports of the channel lists it wrote; for a wire: its two ports. */
  ports: string[];
  /** For a node: the wires the change added on those ports (foldWiresIntoNodes). */
  wires: string[];
}

function portIdsOf(data: NodeDataInput): string[] {
  const ids: string[] = [];
  for (const channel of CHANNELS) for (const port of data[channel] ?? []) ids.push(port.id);
  return ids;
}

const STRONGER: Record<TouchAction, number> = { changed: 0, added: 1, removed: 2 };

/**
 * `list` without repeats, first occurrences in order: `list` itself when it has none
 * (a touch's lists are a few names, and an import makes one per node: no Set for them).
 */
function distinct(list: string[]): string[] {
  if (list.length > 16) return [...new Set(list)];
  for (let i = 1; i < list.length; i++)
    if (list.lastIndexOf(list[i], i - 1) !== -1) return [...new Set(list)];
  return list;
}

/** The touches of `deltas` in order, one per (key, entity id): a later delta on the same
 * entity adds its fields and ports; `added` or `removed` outrank `changed`. */
export function touchesOf(deltas: readonly Delta[]): TouchRow[] {
  const rows: TouchRow[] = [];
  // the touches of each entity id (one, or a wire's by each of its ports): found by the
  // id itself, whose hash the string keeps, rather than by a key made for each lookup
  const byId = new Map<string, TouchRow | TouchRow[]>();
  const touch = (row: Omit<TouchRow, 'wires'>): void => {
    const ofId = byId.get(row.id);
    const seen = Array.isArray(ofId)
      ? ofId.find((t) => t.key === row.key)
      : ofId?.key === row.key
        ? ofId
        : undefined;
    if (!seen) {
      const { key, entity, id, action } = row;
      const created: TouchRow = {
        key,
        entity,
        id,
        action,
        fields: distinct(row.fields),
        ports: distinct(row.ports),
        wires: [],
      };
      rows.push(created);
      if (ofId === undefined) byId.set(id, created);
      else if (Array.isArray(ofId)) ofId.push(created);
      else byId.set(id, [ofId, created]);
      return;
    }
    seen.fields = distinct([...seen.fields, ...row.fields]);
    seen.ports = distinct([...seen.ports, ...row.ports]);
    if (STRONGER[row.action] > STRONGER[seen.action]) seen.action = row.action;
  };
  const node = (id: string, action: TouchAction, fields: string[], ports: string[] = []) =>
    touch({ key: id, entity: 'node', id, action, fields, ports });
  for (const d of deltas) {
    switch (d.type) {
      case 'add_node':
        node(
          d.node.id,
          'added',
          ['kind', 'parent_id', ...Object.keys(d.node.data)],
          portIdsOf(d.node.data),
        );
        break;
      case 'update_node_data':
        node(d.node_id, 'changed', Object.keys(d.after), portIdsOf(d.after));
        break;
      case 'reparent_node':
        node(d.node_id, 'changed', ['parent_id']);
        break;
      case 'delete_node':
      case 'flatten_boundary':
        node(d.node_id, 'removed', []);
        break;
      case 'add_edge': {
        const ports = [d.edge.source_handle, d.edge.target_handle].filter(
          (p): p is string => p !== null,
        );
        for (const port of ports)
          touch({ key: port, entity: 'edge', id: d.edge.id, action: 'added', fields: [], ports });
        break;
      }
      case 'delete_edge':
        touch({
          key: d.edge_id,
          entity: 'edge',
          id: d.edge_id,
          action: 'removed',
          fields: [],
          ports: [],
        });
        break;
    }
  }
  return foldWiresIntoNodes(rows);
}

/**
 * A wire added by the change on a port of a node the change also touched is listed on
 * that node's touch (`wires`) instead of in a touch keyed by the port: the node's
 * history reads it there as it would through the port, and its other end still has a
 * touch of its own unless that node was touched too. So a change that adds nodes with
 * their wires (an import adds every node and every wire) keeps one touch per node, not
 * one more per wire end.
 */
function foldWiresIntoNodes(rows: TouchRow[]): TouchRow[] {
  // a port's owner: one node touch, or (a port named in two node touches) several
  const owners = new Map<string, TouchRow | TouchRow[]>();
  for (const row of rows) {
    if (row.entity !== 'node') continue;
    for (const port of row.ports) {
      const seen = owners.get(port);
      if (seen === undefined) owners.set(port, row);
      else if (Array.isArray(seen)) seen.push(row);
      else owners.set(port, [seen, row]);
    }
  }
  if (owners.size === 0) return rows;
  // each node touch's own list, empty until now (touchesOf made it)
  const listing: TouchRow[] = [];
  const list = (node: TouchRow, wire: string) => {
    if (node.wires.push(wire) === 1) listing.push(node);
  };
  const kept: TouchRow[] = [];
  for (const row of rows) {
    const nodes = row.entity === 'edge' && row.action === 'added' ? owners.get(row.key) : undefined;
    if (nodes === undefined) kept.push(row);
    else if (Array.isArray(nodes)) for (const node of nodes) list(node, row.id);
    else list(nodes, row.id);
  }
  // a wire whose two ports are the same node's is listed on it once
  for (const node of listing) node.wires = distinct(node.wires);
  return kept;
}

/**
 * The touches of what a batch wrote without a delta naming it (`written`: the ids the
 * transaction wrote in the batch's view, writtenEntities.ts), added to `touches`: a node
 * still in the view after the batch (`present`) was moved (a flatten_boundary's child:
 * its `parent_id`), any other was removed with an ancestor; a wire was removed with its
 * port's node.
 */
export function cascadeTouches(
  touches: TouchRow[],
  written: { nodes: Iterable<string>; edges: Iterable<string> },
  present: ReadonlySet<string>,
): TouchRow[] {
  // a wire added with its node is named on the node's touch (foldWiresIntoNodes)
  const named = new Set(touches.flatMap((t) => [t.id, ...t.wires]));
  const extra: TouchRow[] = [];
  for (const id of written.nodes) {
    if (named.has(id)) continue;
    const moved = present.has(id);
    extra.push({
      key: id,
      entity: 'node',
      id,
      action: moved ? 'changed' : 'removed',
      fields: moved ? ['parent_id'] : [],
      ports: [],
      wires: [],
    });
  }
  for (const id of written.edges) {
    if (named.has(id)) continue;
    extra.push({
      key: id,
      entity: 'edge',
      id,
      action: 'removed',
      fields: [],
      ports: [],
      wires: [],
    });
  }
  return extra.length === 0 ? touches : [...touches, ...extra];
}
