/**
 * A branch (or main) as a graph. Opens on the top level (getTopLevel) and reads a
 * boundary's inside (getSubtree, depth 1) when it is expanded, so a large graph
 * opens as fast as a small one. Tabs put an overlay on the canvas: findings
 * (validate, on demand), the diff against main and the merge preview (working
 * branches), or show the change trail. Search finds nodes by name, read or not (searchNodes).
 * The merge preview's conflicts can be resolved by a rebase (ConflictResolver); once
 * the rebase is applied the view reads the branch again from the start.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { api, ApiError, Finding, Schemas, unwrap } from '../api';
import { ErrorBox, Loading } from '../App';
import { GraphTab, href, MAIN } from '../router';
import { ChangesList } from './ChangesList';
import { GraphCanvas } from './GraphCanvas';
import {
  addEdges,
  addNodes,
  ancestorsOf,
  emptyGraph,
  LoadedGraph,
  setChildren,
  setTopLevel,
} from './graphModel';
import {
  conflictMarks,
  diffMarks,
  emptyMarks,
  findingMarks,
  Marks,
  markedNodeIds,
} from './overlays';
import { NodeHistory } from './NodeHistory';
import { ConflictList, DiffList, FindingsList, NodePanel } from './SidePanels';
import { ConflictResolver } from './ConflictResolver';
import { SearchBox } from './SearchBox';

/** At most this many marked nodes are revealed (their boundaries opened) on their own. */
const AUTO_REVEAL = 25;

interface Props {
  projectId: string;
  branchId: string;
  tab: GraphTab;
}

/** The view, read again from the start after a rebase, with a note of what it did. */
export function GraphView(props: Props) {
  const [generation, setGeneration] = useState(0);
  const [notice, setNotice] = useState<string | null>(null);
  const rebased = useCallback((r: Schemas['RebaseResponse']) => {
    setNotice(
      `Rebased onto main's version ${r.main_branch.version}: the branch is now at version ${r.branch.version}.`,
    );
    setGeneration((g) => g + 1);
  }, []);
  return <BranchGraph key={generation} {...props} notice={notice} onRebased={rebased} />;
}

function BranchGraph({
  projectId,
  branchId: routeBranch,
  tab,
  notice,
  onRebased,
}: Props & { notice: string | null; onRebased: (r: Schemas['RebaseResponse']) => void }) {
  const graphRef = useRef<LoadedGraph>(emptyGraph());
  const graph = graphRef.current;
  const [revision, setRevision] = useState(0);
  const [ready, setReady] = useState(false);
  const [error, setError] = useState<Error | null>(null);
  const [branchName, setBranchName] = useState('');
  const [version, setVersion] = useState(0);
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const [loadingIds, setLoadingIds] = useState<ReadonlySet<string>>(new Set());
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [focusId, setFocusId] = useState<string | null>(null);
  const [findings, setFindings] = useState<Finding[] | null>(null);
  const [diff, setDiff] = useState<Schemas['DiffResponse'] | null>(null);
  const [preview, setPreview] = useState<Schemas['MergePreviewResponse'] | null>(null);
  const bump = () => setRevision((r) => r + 1);

  const isMain = routeBranch === MAIN;
  // main is opened by project id (it is not in listBranches); its id then serves the other reads
  const [branchId, setBranchId] = useState(isMain ? '' : routeBranch);
  useEffect(() => {
    const top = isMain
      ? unwrap(
          api.GET('/v1/graph/{project_id}/top-level', {
            params: { path: { project_id: projectId } },
          }),
        )
      : unwrap(
          api.GET('/v1/branches/{branch_id}/top-level', {
            params: { path: { branch_id: routeBranch } },
          }),
        );
    const list = isMain
      ? Promise.resolve(null)
      : unwrap(
          api.GET('/v1/projects/{project_id}/branches', {
            params: { path: { project_id: projectId } },
          }),
        );
    Promise.all([top, list]).then(([t, l]) => {
      setTopLevel(graph, t.nodes, [...t.edges, ...t.cross_boundary_edges]);
      setBranchId(t.branch.id);
      setVersion(t.branch.version);
      setBranchName(
        isMain ? 'main' : (l?.branches.find((b) => b.id === routeBranch)?.name ?? 'branch'),
      );
      setReady(true);
      bump();
    }, setError);
  }, [graph, projectId, routeBranch, isMain]);

  const loadChildren = useCallback(
    async (id: string) => {
      if (graph.children.has(id)) return;
      setLoadingIds((s) => new Set(s).add(id));
      try {
        const sub = await unwrap(
          api.GET('/v1/branches/{branch_id}/subtree/{node_id}', {
            params: { path: { branch_id: branchId, node_id: id }, query: { depth: 1 } },
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
    [graph, branchId],
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
    async (ids: string[], focus?: string) => {
      for (const id of ids) {
        try {
          let current: string | null = id;
          while (current && !graph.nodes.has(current)) {
            const nb: Schemas['NeighborhoodResponse'] = await unwrap(
              api.GET('/v1/branches/{branch_id}/node/{node_id}', {
                params: { path: { branch_id: branchId, node_id: current } },
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
          // a node named by main's side only (not on this branch) has nothing to reveal
          if (!(e instanceof ApiError && e.status === 404)) throw e;
        }
      }
      bump();
      if (focus) {
        setSelectedId(focus);
        setFocusId(focus);
      }
    },
    [graph, branchId, loadChildren],
  );
  const revealOne = useCallback((id: string) => void reveal([id], id).catch(setError), [reveal]);

  /** Opens a node's boundaries from the ancestor ids searchNodes answered, then selects it. */
  const revealAt = useCallback(
    async (id: string, path: string[]) => {
      for (const a of path) await loadChildren(a);
      setExpanded((s) => new Set([...s, ...path]));
      bump();
      setSelectedId(id);
      setFocusId(id);
    },
    [loadChildren],
  );
  const pickFound = useCallback(
    (id: string, path?: string[]) =>
      path ? void revealAt(id, path).catch(setError) : revealOne(id),
    [revealAt, revealOne],
  );

  // the overlay of the tab, read when the tab opens
  useEffect(() => {
    if (!ready) return;
    const path = { params: { path: { branch_id: branchId } } };
    if (tab === 'diff' && !diff)
      unwrap(api.GET('/v1/branches/{branch_id}/diff', path)).then(setDiff, setError);
    if (tab === 'merge' && !preview)
      unwrap(api.GET('/v1/branches/{branch_id}/merge-preview', path)).then(setPreview, setError);
  }, [ready, tab, branchId, diff, preview]);

  const owner = useCallback((id: string) => graph.portOwner.get(id), [graph]);
  const marks: Marks = useMemo(() => {
    if (tab === 'diff' && diff) return diffMarks(diff, owner);
    if (tab === 'merge' && preview) return conflictMarks(preview.conflicts, owner);
    if (tab === 'graph' && findings)
      return findingMarks(findings, (id) => graph.edges.has(id), owner);
    return emptyMarks();
  }, [tab, diff, preview, findings, graph, owner, revision]);

  // reveal what the diff or the conflicts name (bounded), once per overlay
  const revealed = useRef(new Set<unknown>());
  useEffect(() => {
    const source = tab === 'diff' ? diff : tab === 'merge' ? preview : null;
    if (!source || revealed.current.has(source)) return;
    revealed.current.add(source);
    const ids =
      tab === 'diff' && diff
        ? [...diff.nodes.added, ...diff.nodes.changed.map((c) => c.id)]
        : markedNodeIds(marks);
    void reveal(ids.slice(0, AUTO_REVEAL)).catch(setError);
  }, [tab, diff, preview, marks, reveal]);

  const showFindings = () =>
    unwrap(
      api.POST('/v1/branches/{branch_id}/validate', {
        params: { path: { branch_id: branchId } },
        body: {},
      }),
    ).then((v) => setFindings(v.findings), setError);

  if (error) return <ErrorBox error={error} />;
  if (!ready) return <Loading what="the graph" />;
  const selected = selectedId ? graph.nodes.get(selectedId) : undefined;
  const resolving = tab === 'merge' && !!preview && preview.conflicts.length > 0;
  const tabs: [GraphTab, string][] = isMain
    ? [
        ['graph', 'Graph'],
        ['changes', 'Change trail'],
      ]
    : [
        ['graph', 'Graph'],
        ['diff', 'Diff against main'],
        ['merge', 'Merge preview'],
        ['changes', 'Change trail'],
      ];
  return (
    <div className="graph-view">
      <div className="graph-bar">
        <nav className="crumbs" aria-label="Breadcrumb">
          <a href={href({ name: 'projects' })}>Projects</a> /{' '}
          <a href={href({ name: 'branches', projectId })}>branches</a> /{' '}
          <strong>{branchName}</strong>
          <span className="meta"> · version {version}</span>
        </nav>
        <nav className="tabs" aria-label="Views">
          {tabs.map(([t, label]) => (
            <a
              key={t}
              href={href({ name: 'graph', projectId, branchId: routeBranch, tab: t })}
              aria-current={t === tab ? 'page' : undefined}
            >
              {label}
            </a>
          ))}
        </nav>
        {tab === 'graph' && (
          <button type="button" onClick={showFindings} disabled={findings !== null}>
            {findings ? `${findings.length} finding(s) shown` : 'Show findings'}
          </button>
        )}
        <SearchBox graph={graph} branchId={branchId} revision={revision} onPick={pickFound} />
      </div>
      {notice && (
        <p className="notice" role="status" data-testid="rebase-notice">
          {notice}
        </p>
      )}
      {tab === 'changes' ? (
        <ChangesList branchId={branchId} />
      ) : (
        <div className="graph-body">
          <GraphCanvas
            graph={graph}
            revision={revision}
            expanded={expanded}
            loadingIds={loadingIds}
            marks={marks}
            selectedId={selectedId}
            focusId={focusId}
            onSelect={setSelectedId}
            onToggle={toggle}
          />
          <aside className={resolving ? 'side side-wide' : 'side'} aria-label="Details">
            {selected && (
              <NodePanel
                node={selected}
                projectId={projectId}
                notes={marks.nodes.get(selected.id)?.notes ?? []}
              />
            )}
            {selected && branchId && (
              <NodeHistory branchId={branchId} nodeId={selected.id} version={version} />
            )}
            {tab === 'graph' && findings && <FindingsList findings={findings} />}
            {tab === 'diff' &&
              (diff ? (
                <DiffList
                  diff={diff}
                  name={(id) => graph.nodes.get(id)?.data.name ?? id}
                  reveal={revealOne}
                />
              ) : (
                <Loading what="the diff" />
              ))}
            {tab === 'merge' &&
              (preview ? (
                <>
                  <ConflictList preview={preview} reveal={revealOne} />
                  {resolving && (
                    <ConflictResolver
                      preview={preview}
                      graph={graph}
                      reveal={revealOne}
                      onApplied={onRebased}
                    />
                  )}
                </>
              ) : (
                <Loading what="the merge preview" />
              ))}
            {!selected && tab === 'graph' && !findings && (
              <p className="meta">
                Select a node to see its data, ports, verifications and decisions.
              </p>
            )}
          </aside>
        </div>
      )}
    </div>
  );
}
