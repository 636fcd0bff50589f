/**
 * Writes a branch's graph as a graph file, schema_version 6 (GraphFile): nodes in
 * the write shape plus position, parents before children; edges in the write shape.
 * `data` carries every NodeData field that applies to the node's kind (the node
 * model's kinds), aliases included, so importing the file gives the same graph.
 */
import type { components } from '../../shared/api/openapi.generated';
import { channelValues, edgeValues, fileData, nodeValues } from '../../shared/model/nodeValues';
import type { LoadedGraph, NodeWithPorts } from '../graph';
import { CURRENT_SCHEMA_VERSION } from './graphFileReader';

export type GraphFile = components['schemas']['GraphFile'];
type FileNode = components['schemas']['GraphFileNode'];

/** Depth in the containment tree (0 = top level), for a parents-first order. */
function depths(nodes: NodeWithPorts[]): Map<string, number> {
  const parent = new Map(nodes.map(({ node }) => [node.id, node.parent_id ?? null]));
  const depth = new Map<string, number>();
  for (const id of parent.keys()) {
    let d = 0;
    const seen = new Set<string>([id]);
    for (let p = parent.get(id) ?? null; p !== null && !seen.has(p); p = parent.get(p) ?? null) {
      seen.add(p);
      d += 1;
    }
    depth.set(id, d);
  }
  return depth;
}

export function writeGraphFile(projectName: string, graph: LoadedGraph): GraphFile {
  const depth = depths(graph.nodes);
  const nodes = [...graph.nodes].sort(
    (a, b) =>
      (depth.get(a.node.id) ?? 0) - (depth.get(b.node.id) ?? 0) ||
      a.node.id.localeCompare(b.node.id),
  );
  return {
    schema_version: CURRENT_SCHEMA_VERSION,
    project_name: projectName,
    nodes: nodes.map(({ node, ports }): FileNode => ({
      id: node.id,
      kind: node.kind,
      parent_id: node.parent_id ?? null,
      data: fileData(node.kind, nodeValues(node), channelValues(ports)),
      position: { x: node.x ?? 0, y: node.y ?? 0 },
    })),
    edges: graph.edges.map(edgeValues),
  };
}
