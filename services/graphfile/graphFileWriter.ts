/**
 * Writes a branch's graph as a graph file, schema_version 6 (GraphFile), as a stream:
 * `{"schema_version":6,"project_name":...,"nodes":[...],"edges":[...]}`, each node in the
 * write shape plus position, each edge in the write shape. `data` carries every NodeData
 * field that applies to the node's kind (the node model's kinds), aliases included, so
 * importing the file gives the same graph.
 *
 * Nodes come parents first, as the file promises: the nodes of a kind that may hold
 * children by depth then id, then every other node by id (graph's
 * eachNodeParentsFirst). A file written whole once sorted every node by depth then id;
 * this order puts parents first as well, and is as deterministic, without holding the
 * graph. The graph is read a page at a time, each page in a read transaction of its own
 * at the export's fixed view, and written in pieces as the reader takes them, so neither
 * memory nor any transaction grows with the branch.
 */
import type { components } from '../../shared/api/openapi.generated';
import { BodyWriter, Pieces } from '../../shared/http/operation';
import type { Executor } from '../../shared/neo4j/executor';
import { channelValues, edgeValues, fileData, nodeValues } from '../../shared/model/nodeValues';
import { eachEdge, eachNodeParentsFirst, FULL_READ_PAGE } from '../graph';
import type { NodeWithPorts, View } from '../graph';
import { CURRENT_SCHEMA_VERSION } from './graphFileReader';

type FileNode = components['schemas']['GraphFileNode'];

/**
 * What an export writes, settled (and its access checked) before the first byte:
 * the project's name and the view to read, or none for a discarded branch (no graph).
 */
export interface FileExport {
  projectName: string;
  view: View | null;
}

/** How many nodes and wires a file holds. */
export interface FileCounts {
  nodes: number;
  edges: number;
}

function fileNode({ node, ports }: NodeWithPorts): FileNode {
  return {
    id: node.id,
    kind: node.kind,
    parent_id: node.parent_id ?? null,
    data: fileData(node.kind, nodeValues(node), channelValues(ports)),
    position: { x: node.x ?? 0, y: node.y ?? 0 },
  };
}

/** Writes the file of `file` to `out`, `pageSize` rows a page; answers what it held. */
export async function writeGraphFile(
  executor: Executor,
  file: FileExport,
  out: BodyWriter,
  pageSize = FULL_READ_PAGE,
): Promise<FileCounts> {
  const json = new Pieces(out);
  const counts: FileCounts = { nodes: 0, edges: 0 };
  await json.add(
    `{"schema_version":${CURRENT_SCHEMA_VERSION},"project_name":${JSON.stringify(file.projectName)},"nodes":[`,
  );
  const { view } = file;
  if (view)
    await eachNodeParentsFirst(
      executor,
      view,
      async (node) => {
        await json.add((counts.nodes++ === 0 ? '' : ',') + JSON.stringify(fileNode(node)));
      },
      pageSize,
    );
  await json.add('],"edges":[');
  if (view)
    await eachEdge(
      executor,
      view,
      async (edge) => {
        await json.add((counts.edges++ === 0 ? '' : ',') + JSON.stringify(edgeValues(edge)));
      },
      pageSize,
    );
  await json.add(']}');
  await json.flush();
  return counts;
}
