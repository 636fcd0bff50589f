/**
 * Layout with elkjs: layered, left to right, each port on a fixed side (inputs
 * west, outputs east, config north) at the position the node card draws it, and
 * open boundaries as compound nodes laid out with their insides
 * (hierarchyHandling INCLUDE_CHILDREN). Positions come back relative to the
 * enclosing node, as React Flow wants them for nested nodes.
 */
import ELK from 'elkjs/lib/elk.bundled.js';
import type { ElkExtendedEdge, ElkNode, ElkPort } from 'elkjs/lib/elk-api';
import type { WireEdge, WireNode } from '../api';
import type { VisibleNode } from './graphModel';

export const NODE_WIDTH = 240;
export const HEADER = 48;
export const CONFIG_ROW = 24;
export const PORT_ROW = 22;
export const SIDE_PAD = 150;

const elk = new ELK();

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Where the port rows start below the node's top edge. */
export function portsTop(node: WireNode): number {
  return HEADER + (node.data.config.length > 0 ? CONFIG_ROW : 0);
}

export function leafHeight(node: WireNode): number {
  const rows = Math.max(node.data.inputs.length, node.data.outputs.length, 1);
  return portsTop(node) + rows * PORT_ROW + 8;
}

function elkPorts(node: WireNode, width: number): ElkPort[] {
  const top = portsTop(node);
  const row = (i: number) => top + i * PORT_ROW + PORT_ROW / 2;
  const configStep = width / (node.data.config.length + 1);
  return [
    ...node.data.inputs.map((p, i) => ({
      id: p.id,
      x: 0,
      y: row(i),
      width: 1,
      height: 1,
      layoutOptions: { 'elk.port.side': 'WEST' },
    })),
    ...node.data.outputs.map((p, i) => ({
      id: p.id,
      x: width - 1,
      y: row(i),
      width: 1,
      height: 1,
      layoutOptions: { 'elk.port.side': 'EAST' },
    })),
    ...node.data.config.map((p, i) => ({
      id: p.id,
      x: configStep * (i + 1),
      y: 0,
      width: 1,
      height: 1,
      layoutOptions: { 'elk.port.side': 'NORTH' },
    })),
  ];
}

export async function layoutGraph(
  shown: VisibleNode[],
  edges: WireEdge[],
): Promise<Map<string, Box>> {
  const byParent = new Map<string | null, VisibleNode[]>();
  for (const v of shown) {
    const list = byParent.get(v.parentId) ?? [];
    list.push(v);
    byParent.set(v.parentId, list);
  }
  const build = (v: VisibleNode): ElkNode => {
    const kids = byParent.get(v.node.id) ?? [];
    if (v.open) {
      const hasPorts = v.node.data.inputs.length + v.node.data.outputs.length > 0;
      const side = hasPorts ? SIDE_PAD : 24;
      const top = portsTop(v.node) + 16;
      return {
        id: v.node.id,
        // ELK places a compound node's ports itself (only the side is fixed): no x/y keys
        ports: elkPorts(v.node, NODE_WIDTH).map(({ id, width, height, layoutOptions }) => ({
          id,
          width,
          height,
          layoutOptions,
        })),
        layoutOptions: {
          'elk.portConstraints': 'FIXED_SIDE',
          'elk.padding': `[top=${top},left=${side},bottom=24,right=${side}]`,
          'elk.nodeSize.constraints': 'MINIMUM_SIZE',
          'elk.nodeSize.minimum': `(${NODE_WIDTH + 40}, ${leafHeight(v.node) + 40})`,
        },
        children: kids.map(build),
      };
    }
    return {
      id: v.node.id,
      width: NODE_WIDTH,
      height: leafHeight(v.node),
      ports: elkPorts(v.node, NODE_WIDTH),
      layoutOptions: { 'elk.portConstraints': 'FIXED_POS' },
    };
  };
  const elkEdges: ElkExtendedEdge[] = edges.map((e) => ({
    id: e.id,
    sources: [e.source_handle as string],
    targets: [e.target_handle as string],
  }));
  const root: ElkNode = {
    id: '__root__',
    layoutOptions: {
      'elk.algorithm': 'layered',
      'elk.direction': 'RIGHT',
      'elk.hierarchyHandling': 'INCLUDE_CHILDREN',
      'elk.spacing.nodeNode': '32',
      'elk.layered.spacing.nodeNodeBetweenLayers': '72',
      'elk.spacing.componentComponent': '48',
    },
    children: (byParent.get(null) ?? []).map(build),
    edges: elkEdges,
  };
  const result = await elk.layout(root);
  const boxes = new Map<string, Box>();
  const collect = (n: ElkNode) => {
    for (const c of n.children ?? []) {
      boxes.set(c.id, {
        x: c.x ?? 0,
        y: c.y ?? 0,
        width: c.width ?? NODE_WIDTH,
        height: c.height ?? 80,
      });
      collect(c);
    }
  };
  collect(result);
  return boxes;
}
