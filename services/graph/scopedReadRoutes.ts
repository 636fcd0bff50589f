/**
 * HTTP operations of the scoped reads (getSubtree, getNeighborhood, getBoundary,
 * getTopLevel, getMainTopLevel, searchNodes, searchMainNodes): parse, call the
 * command, present. Unlike full reads, scoped reads leave the project's
 * last_opened_at alone: only a full read counts as opening the project.
 */
import { ok, OperationRequest, OperationTable } from '../../shared/http/operation';
import type { ServiceContext } from '../../shared/http/serviceContext';
import { BranchRecord, presentBranchRef } from '../branches';
import { BoundaryRead, readBoundary } from './commands/readBoundary';
import { NeighborhoodRead, readNeighborhood } from './commands/readNeighborhood';
import { DEFAULT_SUBTREE_DEPTH, readSubtree, SubtreeRead } from './commands/readSubtree';
import { readMainTopLevel } from './commands/readMainTopLevel';
import { readTopLevel, TopLevelRead } from './commands/readTopLevel';
import { searchMainNodes } from './commands/searchMainNodes';
import { NodeSearch, searchNodes } from './commands/searchNodes';
import type { NodeAddresses } from './paths';
import { graphVersion } from './viewResolver';
import { presentEdge, presentNode } from './wirePresenter';

/** The node addresses every read of nodes answers with (paths, and the nodes without one). */
const addressed = ({ addresses }: { addresses: NodeAddresses }) => ({
  paths: addresses.paths,
  unaddressable: addresses.unaddressable,
});

const presentSubtree = (read: SubtreeRead) => ({
  root: presentNode(read.root),
  nodes: read.nodes.map(presentNode),
  edges: read.edges.map(presentEdge),
  cross_boundary_edges: read.crossBoundaryEdges.map(presentEdge),
  depth: read.depth,
  truncated: read.truncated,
});

const presentNeighborhood = (read: NeighborhoodRead) => ({
  node: presentNode(read.node),
  neighbors: read.neighbors.map(presentNode),
  edges: read.edges.map(presentEdge),
});

const presentBoundary = (read: BoundaryRead) => ({
  boundary: presentNode(read.boundary),
  children: read.children.map(presentNode),
  edges: read.edges.map(presentEdge),
});

/** A search's text and page size as the query string gives them. */
const searchTerms = (req: OperationRequest): [string, number | undefined] => [
  String(req.query.q),
  req.query.limit === undefined ? undefined : Number(req.query.limit),
];

export function scopedReadRoutes(ctx: ServiceContext): OperationTable {
  const version = ctx.config.serviceVersion;
  /** A read's own fields framed by the branch it read, its project and the service version. */
  const answer = (branch: BranchRecord, body: object) =>
    ok({ branch: presentBranchRef(branch), ...body, project_id: branch.project_id, version });
  /** A read of nodes: its own fields, the nodes' addresses, and the frame of `answer`. */
  const located = <R extends { branch: BranchRecord; addresses: NodeAddresses }>(
    read: R,
    present: (read: R) => object,
  ) => answer(read.branch, { ...present(read), ...addressed(read) });

  const topLevel = (read: TopLevelRead) =>
    located(read, (top) => ({
      nodes: top.nodes.map(presentNode),
      edges: top.edges.map(presentEdge),
      cross_boundary_edges: top.crossBoundaryEdges.map(presentEdge),
    }));

  const search = (found: NodeSearch) =>
    answer(found.branch, {
      nodes: found.nodes.map(({ id, name, kind, parent_id, path }) => ({
        id,
        name,
        kind,
        parent_id,
        path,
      })),
      truncated: found.truncated,
    });

  return {
    getSubtree: async (req) => {
      const depth = req.query.depth === undefined ? DEFAULT_SUBTREE_DEPTH : Number(req.query.depth);
      const { branch_id, node_id } = req.params;
      return located(
        await readSubtree(ctx, req.principal, branch_id, node_id, depth, graphVersion(req)),
        presentSubtree,
      );
    },

    getTopLevel: async (req) =>
      topLevel(await readTopLevel(ctx, req.principal, req.params.branch_id, graphVersion(req))),

    getMainTopLevel: async (req) =>
      topLevel(
        await readMainTopLevel(ctx, req.principal, req.params.project_id, graphVersion(req)),
      ),

    searchNodes: async (req) =>
      search(
        await searchNodes(
          ctx,
          req.principal,
          req.params.branch_id,
          ...searchTerms(req),
          graphVersion(req),
        ),
      ),

    searchMainNodes: async (req) =>
      search(
        await searchMainNodes(
          ctx,
          req.principal,
          req.params.project_id,
          ...searchTerms(req),
          graphVersion(req),
        ),
      ),

    getNeighborhood: async (req) => {
      const { branch_id, node_id } = req.params;
      const read = await readNeighborhood(
        ctx,
        req.principal,
        branch_id,
        node_id,
        graphVersion(req),
      );
      return located(read, presentNeighborhood);
    },

    getBoundary: async (req) => {
      const { project_id, node_id } = req.params;
      return located(
        await readBoundary(ctx, req.principal, project_id, node_id, graphVersion(req)),
        presentBoundary,
      );
    },
  };
}
