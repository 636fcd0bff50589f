/**
 * Writes a branch's graph as a graph file, schema_version 6: nodes in the write shape plus
 * position, parents before children; edges in the write shape. `data` carries every NodeData field
 * that applies to the node's kind, aliases included, so importing the file
 * gives the same graph.
 */
import type { components } from '../../shared/api/openapi.generated';
import type { LoadedGraph, NodeKind, NodeWithPorts } from '../graph';
import { parseVerifications, presentPort } from '../graph';
import { CURRENT_SCHEMA_VERSION } from './graphFileReader';

export type GraphFile = components['schemas']['GraphFile'];
type FileNode = components['schemas']['GraphFileNode'];
type NodeData = components['schemas']['NodeData'];

/** Optional NodeData fields by kind; the rest applies to every kind. */
const BY_KIND: Record<NodeKind, ReadonlySet<string>> = {
  behavior: new Set(['config', 'verifications', 'is_external', 'external_kind', 'protocol']),
  boundary: new Set(['config', 'user_kind', 'path_prefix', 'language', 'is_external']),
  state: new Set(['user_kind']),
  io: new Set([]),
  interface: new Set(['config', 'verifications']),
};

function fileNodeData({ node, ports }: NodeWithPorts): NodeData {
  const optional: NodeData = {
    config: ports.config.map(presentPort),
    verifications: parseVerifications(node.verifications).map((v) => ({
      id: v.id,
      author: v.author,
      text: v.text,
      type: v.type ?? null,
    })),
    user_kind: node.user_kind ?? null,
    path_prefix: node.path_prefix ?? null,
    language: node.language ?? null,
    is_external: node.is_external ?? false,
    external_kind: node.external_kind ?? null,
    protocol: node.protocol ?? null,
  };
  const applicable = BY_KIND[node.kind];
  return {
    name: node.name ?? '',
    aliases: node.aliases ?? [],
    description: node.description ?? '',
    inputs: ports.inputs.map(presentPort),
    outputs: ports.outputs.map(presentPort),
    ...Object.fromEntries(Object.entries(optional).filter(([key]) => applicable.has(key))),
    constraints: node.constraints ?? [],
    is_test_node: node.is_test_node ?? false,
    status: (node.status ?? 'idle') as NodeData['status'],
    documentation_url: node.documentation_url ?? null,
    source_decisions: node.source_decisions ?? [],
  };
}

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
    nodes: nodes.map((entry): FileNode => ({
      id: entry.node.id,
      kind: entry.node.kind,
      parent_id: entry.node.parent_id ?? null,
      data: fileNodeData(entry),
      position: { x: entry.node.x ?? 0, y: entry.node.y ?? 0 },
    })),
    edges: graph.edges.map((e) => ({
      id: e.id,
      source_handle: e.source_handle ?? null,
      target_handle: e.target_handle ?? null,
    })),
  };
}
