/**
 * What the viewer has read of one branch so far: the top level (getTopLevel) and
 * the inside of every boundary expanded once (getSubtree, depth 1). A large graph
 * is never read whole: only what is on screen, or was asked for, is loaded.
 */
import type { WireEdge, WireNode, WirePort } from '../api';

export interface LoadedGraph {
  nodes: Map<string, WireNode>;
  edges: Map<string, WireEdge>;
  /** Boundary id -> its children's ids, once its inside was read. */
  children: Map<string, string[]>;
  topLevel: string[];
  /** Port id -> the id of the node that has it. */
  portOwner: Map<string, string>;
}

export function emptyGraph(): LoadedGraph {
  return {
    nodes: new Map(),
    edges: new Map(),
    children: new Map(),
    topLevel: [],
    portOwner: new Map(),
  };
}

export function portsOf(node: WireNode): WirePort[] {
  return [...node.data.inputs, ...node.data.outputs, ...node.data.config];
}

export function addNodes(graph: LoadedGraph, nodes: WireNode[]): void {
  for (const node of nodes) {
    graph.nodes.set(node.id, node);
    for (const port of portsOf(node)) graph.portOwner.set(port.id, node.id);
  }
}

export function addEdges(graph: LoadedGraph, edges: WireEdge[]): void {
  for (const edge of edges) graph.edges.set(edge.id, edge);
}

export function setTopLevel(graph: LoadedGraph, nodes: WireNode[], edges: WireEdge[]): void {
  addNodes(graph, nodes);
  addEdges(graph, edges);
  graph.topLevel = nodes.map((n) => n.id);
}

export function setChildren(
  graph: LoadedGraph,
  parentId: string,
  nodes: WireNode[],
  edges: WireEdge[],
): void {
  addNodes(graph, nodes);
  addEdges(graph, edges);
  graph.children.set(
    parentId,
    nodes.filter((n) => n.parent_id === parentId).map((n) => n.id),
  );
}

/** The ids of a loaded node's loaded ancestors, outermost first. */
export function ancestorsOf(graph: LoadedGraph, id: string): string[] {
  const chain: string[] = [];
  let parent = graph.nodes.get(id)?.parent_id ?? null;
  while (parent && graph.nodes.has(parent) && !chain.includes(parent)) {
    chain.unshift(parent);
    parent = graph.nodes.get(parent)?.parent_id ?? null;
  }
  return chain;
}

export interface VisibleNode {
  node: WireNode;
  /** The enclosing open boundary on screen, null at the top level. */
  parentId: string | null;
  open: boolean;
}

/** The nodes on screen, parents before children: the top level and the inside of each open boundary. */
export function visibleNodes(graph: LoadedGraph, expanded: ReadonlySet<string>): VisibleNode[] {
  const out: VisibleNode[] = [];
  const visit = (id: string, parentId: string | null) => {
    const node = graph.nodes.get(id);
    if (!node) return;
    const kids = graph.children.get(id);
    const open = expanded.has(id) && kids !== undefined;
    out.push({ node, parentId, open });
    if (open) for (const kid of kids) visit(kid, id);
  };
  for (const id of graph.topLevel) visit(id, null);
  return out;
}

/** The wires whose two ends are ports of nodes on screen. */
export function visibleEdges(graph: LoadedGraph, shown: ReadonlySet<string>): WireEdge[] {
  return [...graph.edges.values()].filter(
    (e) =>
      e.source_handle !== null &&
      e.target_handle !== null &&
      shown.has(graph.portOwner.get(e.source_handle) ?? '') &&
      shown.has(graph.portOwner.get(e.target_handle) ?? ''),
  );
}
