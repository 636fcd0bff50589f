/**
 * HTTP operations of the scoped reads: parse, call the command, present
 * with the read shapes (WireNode, WireEdge). Unlike full reads, scoped reads leave the project's
 * last_opened_at alone: it records when the whole graph was last opened, and a subtree or a
 * neighborhood is not that.
 */
import { ok, OperationTable } from '../../shared/http/operation';
import type { ServiceContext } from '../../shared/http/serviceContext';
import { presentBranchRef } from '../branches';
import { readBoundary } from './commands/readBoundary';
import { readNeighborhood } from './commands/readNeighborhood';
import { DEFAULT_SUBTREE_DEPTH, readSubtree } from './commands/readSubtree';
import { readMainTopLevel } from './commands/readMainTopLevel';
import { readTopLevel, TopLevelRead } from './commands/readTopLevel';
import { searchMainNodes } from './commands/searchMainNodes';
import { NodeSearch, searchNodes } from './commands/searchNodes';
import { presentEdge, presentNode } from './wirePresenter';

export function scopedReadRoutes(ctx: ServiceContext): OperationTable {
  const version = ctx.config.serviceVersion;
  const presentTopLevel = (read: TopLevelRead) => ({
    branch: presentBranchRef(read.branch),
    nodes: read.nodes.map(presentNode),
    edges: read.edges.map(presentEdge),
    cross_boundary_edges: read.crossBoundaryEdges.map(presentEdge),
    paths: read.addresses.paths,
    unaddressable: read.addresses.unaddressable,
    project_id: read.branch.project_id,
    version,
  });

  const presentSearch = (found: NodeSearch) => ({
    branch: presentBranchRef(found.branch),
    nodes: found.nodes.map((n) => ({
      id: n.id,
      name: n.name,
      kind: n.kind,
      parent_id: n.parent_id,
      path: n.path,
    })),
    truncated: found.truncated,
    project_id: found.branch.project_id,
    version,
  });
  const searchLimit = (raw: unknown) => (raw === undefined ? undefined : Number(raw));

  return {
    getSubtree: async (req) => {
      const depth = req.query.depth === undefined ? DEFAULT_SUBTREE_DEPTH : Number(req.query.depth);
      const read = await readSubtree(
        ctx,
        req.principal,
        req.params.branch_id,
        req.params.node_id,
        depth,
      );
      return ok({
        branch: presentBranchRef(read.branch),
        root: presentNode(read.root),
        nodes: read.nodes.map(presentNode),
        edges: read.edges.map(presentEdge),
        cross_boundary_edges: read.crossBoundaryEdges.map(presentEdge),
        depth: read.depth,
        truncated: read.truncated,
        paths: read.addresses.paths,
        unaddressable: read.addresses.unaddressable,
        project_id: read.branch.project_id,
        version,
      });
    },

    getTopLevel: async (req) =>
      ok(presentTopLevel(await readTopLevel(ctx, req.principal, req.params.branch_id))),

    getMainTopLevel: async (req) =>
      ok(presentTopLevel(await readMainTopLevel(ctx, req.principal, req.params.project_id))),

    searchNodes: async (req) =>
      ok(
        presentSearch(
          await searchNodes(
            ctx,
            req.principal,
            req.params.branch_id,
            String(req.query.q),
            searchLimit(req.query.limit),
          ),
        ),
      ),

    searchMainNodes: async (req) =>
      ok(
        presentSearch(
          await searchMainNodes(
            ctx,
            req.principal,
            req.params.project_id,
            String(req.query.q),
            searchLimit(req.query.limit),
          ),
        ),
      ),

    getNeighborhood: async (req) => {
      const read = await readNeighborhood(
        ctx,
        req.principal,
        req.params.branch_id,
        req.params.node_id,
      );
      return ok({
        branch: presentBranchRef(read.branch),
        node: presentNode(read.node),
        neighbors: read.neighbors.map(presentNode),
        edges: read.edges.map(presentEdge),
        paths: read.addresses.paths,
        unaddressable: read.addresses.unaddressable,
        project_id: read.branch.project_id,
        version,
      });
    },

    getBoundary: async (req) => {
      const read = await readBoundary(
        ctx,
        req.principal,
        req.params.project_id,
        req.params.node_id,
      );
      return ok({
        boundary: presentNode(read.boundary),
        children: read.children.map(presentNode),
        edges: read.edges.map(presentEdge),
        branch: presentBranchRef(read.branch),
        paths: read.addresses.paths,
        unaddressable: read.addresses.unaddressable,
        project_id: read.branch.project_id,
        version,
      });
    },
  };
}
