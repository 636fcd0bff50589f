/**
 * Loads the whole graph of a branch within a transaction (full reads).
 * A discarded branch has no graph (its nodes, ports and edges are removed):
 * loadLiveGraph answers it empty at once, while the purge job deletes what is stored.
 */
import type { QueryRunner } from '../../shared/neo4j/namedQuery';
import { EdgeRecord, groupPorts, NodeRecord, NodeWithPorts, PortRecord } from './graphRecords';
import { readBranchEdges, readBranchNodes, readBranchPorts } from './store/graphReadQueries';

export interface LoadedGraph {
  nodes: NodeWithPorts[];
  edges: EdgeRecord[];
}

const NO_GRAPH: LoadedGraph = { nodes: [], edges: [] };

export async function loadLiveGraph(
  tx: QueryRunner,
  branch: { id: string; status: string },
): Promise<LoadedGraph> {
  return branch.status === 'discarded' ? NO_GRAPH : loadBranchGraph(tx, branch.id);
}

export async function loadBranchGraph(tx: QueryRunner, branchId: string): Promise<LoadedGraph> {
  const nodes = await tx.run<{ node: NodeRecord }>(readBranchNodes, { branchId });
  const ports = await tx.run<{ port: PortRecord }>(readBranchPorts, { branchId });
  const edges = await tx.run<EdgeRecord & Record<string, unknown>>(readBranchEdges, { branchId });
  return {
    nodes: groupPorts(
      nodes.map((r) => r.node),
      ports.map((r) => r.port),
    ),
    edges,
  };
}
