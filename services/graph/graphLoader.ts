/** Loads the whole graph of a branch within a transaction (full reads, §4.9-4.10). */
import type { QueryRunner } from '../../shared/neo4j/namedQuery';
import { EdgeRecord, groupPorts, NodeRecord, NodeWithPorts, PortRecord } from './graphRecords';
import { readBranchEdges, readBranchNodes, readBranchPorts } from './store/graphReadQueries';

export interface LoadedGraph {
  nodes: NodeWithPorts[];
  edges: EdgeRecord[];
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
