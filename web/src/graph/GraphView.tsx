/**
 * A branch (or main) as a graph, at its head or pinned to a version (useLoadedGraph:
 * the top level first, a boundary's inside when it is opened, so a large graph opens
 * as fast as a small one). A slider picks the version. Tabs put an overlay on the
 * canvas: findings (validate, on demand), the diff against main and the merge preview
 * (working branches), the diff between two versions (getBranchDiff with from/to, or
 * getMainDiff), or show the change trail. Search finds nodes by name, read or not
 * (searchNodes).
 * The merge preview's conflicts can be resolved by a rebase (ConflictResolver); once
 * the rebase is applied the view reads the branch again from the start.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { api, Finding, Schemas, unwrap } from '../api';
import { ErrorBox, Loading } from '../App';
import { GraphTab, href, MAIN } from '../router';
import { ChangesList } from './ChangesList';
import { GraphCanvas } from './GraphCanvas';
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
import { useLoadedGraph } from './useLoadedGraph';
import { FromVersionPicker, VersionSlider } from './VersionControls';

/** At most this many marked nodes are revealed (their boundaries opened) on their own. */
export const AUTO_REVEAL = 25;

interface Props {
  projectId: string;
  branchId: string;
  tab: GraphTab;
  /** The version read; null: the head. */
  pinned: number | null;
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
  pinned,
  notice,
  onRebased,
}: Props & { notice: string | null; onRebased: (r: Schemas['RebaseResponse']) => void }) {
  const loaded = useLoadedGraph({ projectId, branch: routeBranch, pinned });
  const { graph, revision, ready, error, setError, branchId, version, head } = loaded;
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [focusId, setFocusId] = useState<string | null>(null);
  const [findings, setFindings] = useState<Finding[] | null>(null);
  const [diff, setDiff] = useState<Schemas['DiffResponse'] | null>(null);
  const [preview, setPreview] = useState<Schemas['MergePreviewResponse'] | null>(null);
  const [from, setFrom] = useState<number | null>(null);
  const [rangeDiff, setRangeDiff] = useState<Schemas['DiffResponse'] | null>(null);
  const isMain = routeBranch === MAIN;

  const focus = (id: string) => {
    setSelectedId(id);
    setFocusId(id);
  };
  const revealOne = useCallback(
    (id: string) => void loaded.reveal([id]).then(() => focus(id), setError),
    [loaded.reveal, setError],
  );
  const pickFound = useCallback(
    (id: string, path?: string[]) =>
      path ? void loaded.revealAt(id, path).then(() => focus(id), setError) : revealOne(id),
    [loaded.revealAt, revealOne, setError],
  );
  const pickVersion = useCallback(
    (v: number | null) => {
      window.location.hash = href({
        name: 'graph',
        projectId,
        branchId: routeBranch,
        tab,
        version: v,
      });
    },
    [projectId, routeBranch, tab],
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

  // the diff between two versions: from the picked one to the version on screen
  const fromVersion = from ?? Math.max(0, version - 1);
  useEffect(() => {
    if (!ready || tab !== 'versions') return;
    setRangeDiff(null);
    const query = { from_version: fromVersion, to_version: version };
    const read = isMain
      ? api.GET('/v1/projects/{project_id}/main/diff', {
          params: { path: { project_id: projectId }, query },
        })
      : api.GET('/v1/branches/{branch_id}/diff', {
          params: { path: { branch_id: branchId }, query },
        });
    unwrap(read).then(setRangeDiff, setError);
  }, [ready, tab, isMain, projectId, branchId, fromVersion, version]);

  const owner = useCallback((id: string) => graph.portOwner.get(id), [graph]);
  const shownDiff = tab === 'diff' ? diff : tab === 'versions' ? rangeDiff : null;
  const marks: Marks = useMemo(() => {
    if (shownDiff) return diffMarks(shownDiff, owner);
    if (tab === 'merge' && preview) return conflictMarks(preview.conflicts, owner);
    if (tab === 'graph' && findings)
      return findingMarks(findings, (id) => graph.edges.has(id), owner);
    return emptyMarks();
  }, [tab, shownDiff, preview, findings, graph, owner, revision]);

  // reveal what the diff or the conflicts name (bounded), once per overlay
  const revealed = useRef(new Set<unknown>());
  useEffect(() => {
    const source = shownDiff ?? (tab === 'merge' ? preview : null);
    if (!source || revealed.current.has(source)) return;
    revealed.current.add(source);
    const ids = shownDiff
      ? [...shownDiff.nodes.added, ...shownDiff.nodes.changed.map((c) => c.id)]
      : markedNodeIds(marks);
    void loaded.reveal(ids.slice(0, AUTO_REVEAL)).catch(setError);
  }, [tab, shownDiff, preview, marks, loaded.reveal]);

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
  const tabs: [GraphTab, string][] = [
    ['graph', 'Graph'],
    ...(isMain
      ? []
      : ([
          ['diff', 'Diff against main'],
          ['merge', 'Merge preview'],
        ] as [GraphTab, string][])),
    ['versions', 'Diff between versions'],
    ['changes', 'Change trail'],
  ];
  const pinnedNow = pinned !== null;
  const name = (id: string) => graph.nodes.get(id)?.data.name ?? id;
  return (
    <div className="graph-view">
      <div className="graph-bar">
        <nav className="crumbs" aria-label="Breadcrumb">
          <a href={href({ name: 'projects' })}>Projects</a> /{' '}
          <a href={href({ name: 'branches', projectId })}>branches</a> /{' '}
          <strong>{loaded.branchName}</strong>
          <span className="meta" data-testid="graph-version">
            {' '}
            · version {version}
            {pinnedNow ? ` (pinned; head is ${head})` : ''}
          </span>
        </nav>
        <nav className="tabs" aria-label="Views">
          {tabs.map(([t, label]) => (
            <a
              key={t}
              href={href({
                name: 'graph',
                projectId,
                branchId: routeBranch,
                tab: t,
                version: pinned,
              })}
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
        <SearchBox
          graph={graph}
          branchId={branchId}
          revision={revision}
          version={pinned}
          onPick={pickFound}
        />
      </div>
      {tab !== 'changes' && (
        <div className="version-bar" role="group" aria-label="Version">
          <VersionSlider
            label={tab === 'versions' ? 'Compare to version' : 'Version'}
            version={version}
            head={head}
            onPick={pickVersion}
          />
          {tab === 'versions' && (
            <FromVersionPicker from={fromVersion} to={version} onPick={setFrom} />
          )}
          {pinnedNow && (
            <a href={href({ name: 'graph', projectId, branchId: routeBranch, tab })}>
              Back to the head
            </a>
          )}
        </div>
      )}
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
            expanded={loaded.expanded}
            loadingIds={loaded.loadingIds}
            marks={marks}
            selectedId={selectedId}
            focusId={focusId}
            onSelect={setSelectedId}
            onToggle={loaded.toggle}
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
                <DiffList diff={diff} name={name} reveal={revealOne} />
              ) : (
                <Loading what="the diff" />
              ))}
            {tab === 'versions' &&
              (rangeDiff ? (
                <DiffList
                  diff={rangeDiff}
                  name={name}
                  reveal={revealOne}
                  title={`Changes from version ${fromVersion} to ${version}`}
                  removedTitle={`Removed nodes (at version ${fromVersion} only)`}
                />
              ) : (
                <Loading what="the diff between versions" />
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
