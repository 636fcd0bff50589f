/** HTTP operations of the graph service (reads so far): parse, call, present. */
import { ok, OperationTable } from '../../shared/http/operation';
import type { ServiceContext } from '../../shared/http/serviceContext';
import { presentBranchRef } from '../branches/branchPresenter';
import { BranchGraph, readBranchGraph, readMainGraph } from './commands/readGraph';
import { presentEdge, presentNode } from './wirePresenter';

function presentGraph(graph: BranchGraph, version: string) {
  return {
    branch: presentBranchRef(graph.branch),
    edges: graph.edges.map(presentEdge),
    nodes: graph.nodes.map(presentNode),
    project_id: graph.branch.project_id,
    version,
  };
}

export function graphRoutes(ctx: ServiceContext): OperationTable {
  const version = ctx.config.serviceVersion;
  return {
    getMainGraph: async (req) =>
      ok(presentGraph(await readMainGraph(ctx, req.principal, req.params.project_id), version)),

    getBranchGraph: async (req) =>
      ok(presentGraph(await readBranchGraph(ctx, req.principal, req.params.branch_id), version)),
  };
}
