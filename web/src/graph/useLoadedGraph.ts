/**
 * The graph of a branch (or main) as the viewer reads it, pinned to a version or at
 * its head: the top level first (getTopLevel / getMainTopLevel), a boundary's inside
 * when it is opened (getSubtree, depth 1), a node's unread ancestors when something
 * asks for it (getNeighborhood). Every read passes the pinned version, so what is on
 * screen is one version of the graph. Used by the graph view and the change request page.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { api, ApiError, Schemas, unwrap } from '../api';
import { MAIN } from '../router';
import {
  addEdges,
  addNodes,
  ancestorsOf,
  emptyGraph,
  LoadedGraph,
  setChildren,
  setTopLevel,
} from './graphModel';

export interface GraphSource {
  projectId: string;
  /** A working branch's id, or MAIN. */
  branch: string;
  /** The version read; null reads the head. */
  pinned: number | null;
}

export interface LoadedGraphState {
  graph: LoadedGraph;
  revision: number;
  ready: boolean;
  error: Error | null;
  setError: (e: Error) => void;
  /** The branch's id (main's too, once read). */
  branchId: string;
  branchName: string;
  /** The version on screen. */
  version: number;
  /** The branch's current version. */
  head: number;
  expanded: ReadonlySet<string>;
  loadingIds: ReadonlySet<string>;
  toggle: (id: string) => void;
  /** Loads and opens what leads to each id (unknown ids are skipped); returns once shown. */
  reveal: (ids: string[]) => Promise<void>;
  revealAt: (id: string, path: string[]) => Promise<void>;
}

export function useLoadedGraph({ projectId, branch, pinned }: GraphSource): LoadedGraphState {
  const graphRef = useRef<LoadedGraph>(emptyGraph());
  const graph = graphRef.current;
  const [revision, setRevision] = useState(0);
  const [ready, setReady] = useState(false);
  const [error, setError] = useState<Error | null>(null);
  const [branchName, setBranchName] = useState('');
  const [version, setVersion] = useState(0);
  const [head, setHead] = useState(0);
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const [loadingIds, setLoadingIds] = useState<ReadonlySet<string>>(new Set());
  const bump = () => setRevision((r) => r + 1);
  const isMain = branch === MAIN;
  // main is opened by project id (it is not in listBranches); its id then serves the other reads
  const [branchId, setBranchId] = useState(isMain ? '' : branch);
  const at = pinned === null ? {} : { version: pinned };

  useEffect(() => {
    const mainTop = (query: { version?: number }) =>
      unwrap(
        api.GET('/v1/graph/{project_id}/top-level', {
          params: { path: { project_id: projectId }, query },
        }),
      );
    const top = isMain
      ? mainTop(at)
      : unwrap(
          api.GET('/v1/branches/{branch_id}/top-level', {
            params: { path: { branch_id: branch }, query: at },
          }),
        );
    const list = isMain
      ? Promise.resolve(null)
      : unwrap(
          api.GET('/v1/projects/{project_id}/branches', {
            params: { path: { project_id: projectId } },
          }),
        );
    // main's head when main is read pinned (a working branch's comes with listBranches)
    const mainHead = isMain && pinned !== null ? mainTop({}) : Promise.resolve(null);
    Promise.all([top, list, mainHead]).then(([t, l, h]) => {
      const listed = l?.branches.find((b) => b.id === branch);
      setTopLevel(graph, t.nodes, [...t.edges, ...t.cross_boundary_edges]);
      setBranchId(t.branch.id);
      // a pinned read answers the branch as it is now: the version shown is the one asked for
      setVersion(pinned ?? t.branch.version);
      setHead(h?.branch.version ?? listed?.version ?? t.branch.version);
      setBranchName(isMain ? 'main' : (listed?.name ?? 'branch'));
      setReady(true);
      bump();
    }, setError);
  }, [graph, projectId, branch, isMain, pinned]);

  const loadChildren = useCallback(
    async (id: string) => {
      if (graph.children.has(id)) return;
      setLoadingIds((s) => new Set(s).add(id));
      try {
        const sub = await unwrap(
          api.GET('/v1/branches/{branch_id}/subtree/{node_id}', {
            params: { path: { branch_id: branchId, node_id: id }, query: { depth: 1, ...at } },
          }),
        );
        addNodes(graph, [sub.root]);
        setChildren(graph, id, sub.nodes, [...sub.edges, ...sub.cross_boundary_edges]);
      } finally {
        setLoadingIds((s) => {
          const next = new Set(s);
          next.delete(id);
          return next;
        });
      }
    },
    [graph, branchId, pinned],
  );

  const toggle = useCallback(
    (id: string) => {
      if (expanded.has(id)) {
        const next = new Set(expanded);
        next.delete(id);
        setExpanded(next);
        return;
      }
      loadChildren(id).then(() => {
        setExpanded((s) => new Set(s).add(id));
        bump();
      }, setError);
    },
    [expanded, loadChildren],
  );

  /** Loads a node's unread ancestors (getNeighborhood answers its parent_id) and opens them. */
  const reveal = useCallback(
    async (ids: string[]) => {
      for (const id of ids) {
        try {
          let current: string | null = id;
          while (current && !graph.nodes.has(current)) {
            const nb: Schemas['NeighborhoodResponse'] = await unwrap(
              api.GET('/v1/branches/{branch_id}/node/{node_id}', {
                params: { path: { branch_id: branchId, node_id: current }, query: at },
              }),
            );
            addNodes(graph, [nb.node]);
            addEdges(graph, nb.edges);
            current = nb.node.parent_id;
          }
          const chain = ancestorsOf(graph, id);
          for (const a of chain) await loadChildren(a);
          setExpanded((s) => new Set([...s, ...chain]));
        } catch (e) {
          // a node this version does not have (main's side only, or gone) has nothing to reveal
          if (!(e instanceof ApiError && e.status === 404)) throw e;
        }
      }
      bump();
    },
    [graph, branchId, loadChildren, pinned],
  );

  /** Opens a node's boundaries from the ancestor ids searchNodes answered. */
  const revealAt = useCallback(
    async (_id: string, path: string[]) => {
      for (const a of path) await loadChildren(a);
      setExpanded((s) => new Set([...s, ...path]));
      bump();
    },
    [loadChildren],
  );

  return {
    graph,
    revision,
    ready,
    error,
    setError,
    branchId,
    branchName,
    version,
    head,
    expanded,
    loadingIds,
    toggle,
    reveal,
    revealAt,
  };
}
