/**
 * Loads the whole graph a view sees within a transaction (full reads, graph-file
 * export). A discarded branch has no graph: loadLiveGraph answers it empty at once,
 * while the purge job deletes what is stored.
 */
import type { QueryRunner } from '../../shared/neo4j/namedQuery';
import { EdgeRecord, groupPorts, NodeRecord, NodeWithPorts, PortRecord } from './graphRecords';
import { readBranchEdges, readBranchNodes, readBranchPorts } from './store/graphReadQueries';
import type { View } from './view';

export interface LoadedGraph {
  nodes: NodeWithPorts[];
  edges: EdgeRecord[];
}

/** The graph of a discarded branch. */
export const NO_GRAPH: LoadedGraph = { nodes: [], edges: [] };

export async function loadLiveGraph(
  tx: QueryRunner,
  branch: { status: string },
  view: View,
): Promise<LoadedGraph> {
  return branch.status === 'discarded' ? NO_GRAPH : loadBranchGraph(tx, view);
}

/** Every node (with its ports) and wire visible in `view`, nodes and wires by id. */
export async function loadBranchGraph(tx: QueryRunner, view: View): Promise<LoadedGraph> {
  const nodes = await tx.run<{ node: NodeRecord }>(readBranchNodes, { view });
  const ports = await tx.run<{ port: PortRecord }>(readBranchPorts, { view });
  const edges = await tx.run<EdgeRecord & Record<string, unknown>>(readBranchEdges, { view });
  return {
    nodes: groupPorts(
      nodes.map((r) => r.node),
      ports.map((r) => r.port),
    ),
    edges,
  };
}
