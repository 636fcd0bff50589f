/**
 * A change request's page (getChangeRequest): the diff on the graph with the merge
 * preview's conflicts and the review comments pinned on their nodes and wires, the
 * protection rules met or not with the approvals (stale ones marked), the findings
 * the merge would add and clear, the reviews, and the review form. It follows the
 * project's feed and reads the change request again when an event concerns it (a
 * review, its branch moving, main moving, its merge or close), so it updates live.
 *
 * The graph shown: the branch itself while the change request is open (every member
 * may read a branch under review) and always for its owner; once it is merged or
 * closed, main for anyone else (the branch is its owner's again), where what the
 * branch changed or removed is marked and what it added is listed by id.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { api, Schemas, unwrap } from '../api';
import { ErrorBox, Loading } from '../App';
import { AUTO_REVEAL } from '../graph/GraphView';
import { GraphCanvas } from '../graph/GraphCanvas';
import {
  commentMarks,
  conflictMarks,
  diffMarks,
  emptyMarks,
  mergeMarks,
  type Comment,
} from '../graph/overlays';
import { ConflictList, DiffList, NodePanel } from '../graph/SidePanels';
import { useLoadedGraph } from '../graph/useLoadedGraph';
import { href, MAIN } from '../router';
import { followProjectFeed, FeedEvent } from './projectFeed';
import { AnchorState, MergeFindings, ReviewsList, RulesPanel } from './ReviewPanels';
import { ReviewForm } from './ReviewForm';

type Detail = Schemas['ChangeRequestDetailResponse'];

/** Events read within this long are answered by one read of the change request. */
const COALESCE_MS = 150;

function concerns(event: FeedEvent, detail: Detail): boolean {
  return (
    event.change_request_id === detail.change_request.id ||
    event.branch_id === detail.change_request.branch_id ||
    event.kind === 'branch_merged' // main moved: the preview and the rules change
  );
}

export function ChangeRequestView({
  projectId,
  changeRequestId,
}: {
  projectId: string;
  changeRequestId: string;
}) {
  const [detail, setDetail] = useState<Detail | null>(null);
  const [error, setError] = useState<Error | null>(null);
  const [live, setLive] = useState(false);
  const [reads, setReads] = useState(0);
  const detailRef = useRef<Detail | null>(null);

  const load = useCallback(() => {
    unwrap(
      api.GET('/v1/change-requests/{change_request_id}', {
        params: { path: { change_request_id: changeRequestId } },
      }),
    ).then((d) => {
      detailRef.current = d;
      setDetail(d);
      setReads((n) => n + 1);
    }, setError);
  }, [changeRequestId]);

  useEffect(() => {
    load();
    let timer: ReturnType<typeof setTimeout> | null = null;
    const later = () => {
      if (timer) return;
      timer = setTimeout(() => {
        timer = null;
        load();
      }, COALESCE_MS);
    };
    const stop = followProjectFeed(projectId, {
      onEvent: (event) => {
        const d = detailRef.current;
        if (!d || concerns(event, d)) later();
      },
      onState: (on) => {
        setLive(on);
        // (re)connected: what happened while the stream was not open is read now
        if (on) later();
      },
      onStop: () => setLive(false),
    });
    return () => {
      stop();
      if (timer) clearTimeout(timer);
    };
  }, [projectId, load]);

  if (error) return <ErrorBox error={error} />;
  if (!detail) return <Loading what="the change request" />;
  const cr = detail.change_request;
  return (
    <div className="graph-view cr-view" data-testid="change-request" data-reads={reads}>
      <div className="graph-bar">
        <nav className="crumbs" aria-label="Breadcrumb">
          <a href={href({ name: 'projects' })}>Projects</a> /{' '}
          <a href={href({ name: 'branches', projectId })}>branches</a> /{' '}
          <a href={href({ name: 'changeRequests', projectId })}>change requests</a>
        </nav>
        <h1 id="cr-title">{cr.title}</h1>
        <span className={`badge state-${cr.state}`}>{cr.state}</span>
        <span className="meta">
          branch {cr.branch_name} at version {detail.branch.version}
        </span>
        <span className="meta" role="status" data-testid="feed-state" data-live={live}>
          {live ? 'Live: following the project’s events' : 'Connecting to the project’s events…'}
        </span>
      </div>
      {cr.description && <p className="pre cr-description">{cr.description}</p>}
      <ReviewGraph
        // the graph shown is read again when its side moves (the branch, or main)
        key={
          showsBranch(detail)
            ? `branch@${detail.branch.version}`
            : `main@${detail.diff?.main_branch.version ?? ''}`
        }
        detail={detail}
        onReviewed={load}
      />
    </div>
  );
}

/** Whether the page draws the branch itself (see the header) rather than main. */
function showsBranch(detail: Detail): boolean {
  return detail.caller.branch_owner || detail.change_request.state === 'open';
}

function ReviewGraph({ detail, onReviewed }: { detail: Detail; onReviewed: () => void }) {
  const ownBranch = showsBranch(detail);
  const projectId = detail.change_request.project_id;
  const loaded = useLoadedGraph({
    projectId,
    branch: ownBranch ? detail.change_request.branch_id : MAIN,
    pinned: null,
  });
  const { graph, revision, ready, error, setError } = loaded;
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [focusId, setFocusId] = useState<string | null>(null);
  const owner = useCallback((id: string) => graph.portOwner.get(id), [graph]);
  const comments = useMemo(() => detail.reviews.flatMap((r) => r.comments), [detail]);

  const marks = useMemo(
    () =>
      mergeMarks(
        detail.diff ? diffMarks(detail.diff, owner, !ownBranch) : emptyMarks(),
        detail.preview ? conflictMarks(detail.preview.conflicts, owner) : emptyMarks(),
        commentMarks(comments, owner),
      ),
    [detail, comments, owner, ownBranch, revision],
  );

  // reveal what the diff, the conflicts and the comments name (bounded), for each read
  useEffect(() => {
    if (!ready) return;
    const d = detail.diff;
    // the side shown has the changed nodes, and the added ones (the branch) or the removed (main)
    const sideOnly = d ? (ownBranch ? d.nodes.added : d.nodes.removed) : [];
    const ids = [
      ...comments.flatMap((c) => (c.anchor?.kind === 'node' ? [c.anchor.id] : [])),
      ...(d ? [...d.nodes.changed.map((c) => c.id), ...sideOnly] : []),
      ...(detail.preview?.conflicts ?? []).flatMap((c) =>
        c.entity_kind === 'node' && c.entity_id ? [c.entity_id] : [],
      ),
    ];
    void loaded.reveal([...new Set(ids)].slice(0, AUTO_REVEAL)).catch(setError);
  }, [ready, detail, comments, ownBranch, loaded.reveal]);

  const anchorState = useCallback(
    (c: Comment): AnchorState => {
      const a = c.anchor;
      if (!a) return { shown: false };
      if (a.kind === 'edge') return { shown: graph.edges.has(a.id) };
      const nodeId = a.kind === 'port' ? graph.portOwner.get(a.id) : a.id;
      const node = nodeId ? graph.nodes.get(nodeId) : undefined;
      if (!node) return { shown: false };
      const now = a.kind === 'node' ? node.data.name : undefined;
      return { shown: true, nameNow: now && now !== a.name ? now : undefined };
    },
    [graph, revision],
  );
  const showComment = useCallback(
    (c: Comment) => {
      const a = c.anchor;
      if (!a) return;
      const nodeId =
        a.kind === 'node'
          ? a.id
          : a.kind === 'port'
            ? graph.portOwner.get(a.id)
            : graph.portOwner.get(graph.edges.get(a.id)?.source_handle ?? '');
      if (!nodeId) return;
      setSelectedId(nodeId);
      setFocusId(nodeId);
    },
    [graph],
  );

  if (error) return <ErrorBox error={error} />;
  const selected = selectedId ? graph.nodes.get(selectedId) : undefined;
  const name = (id: string) => graph.nodes.get(id)?.data.name ?? id;
  const revealOne = (id: string) =>
    void loaded.reveal([id]).then(() => {
      setSelectedId(id);
      setFocusId(id);
    }, setError);
  return (
    <div className="graph-body">
      <div className="cr-canvas">
        <p className="meta" data-testid="graph-shown">
          {ownBranch
            ? `Your branch ${detail.change_request.branch_name} at version ${loaded.version}.`
            : `Main at version ${loaded.version}: what the branch changes or removes is marked on it; what it adds is listed beside.`}
        </p>
        <p className="legend">
          <span className="swatch diff-added">added</span>
          <span className="swatch diff-changed">changed</span>
          {!ownBranch && <span className="swatch diff-removed">removed</span>}
          <span className="swatch conflict">conflict</span>
          <span className="swatch commented">commented</span>
        </p>
        {ready ? (
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
        ) : (
          <Loading what="the graph" />
        )}
      </div>
      <aside className="side" aria-label="Review">
        <RulesPanel detail={detail} />
        <ReviewForm
          detail={detail}
          selected={selected ? { id: selected.id, name: selected.data.name } : null}
          onReviewed={onReviewed}
        />
        {selected && (
          <NodePanel
            node={selected}
            projectId={projectId}
            notes={marks.nodes.get(selected.id)?.notes ?? []}
          />
        )}
        <ReviewsList reviews={detail.reviews} anchorState={anchorState} onShow={showComment} />
        {detail.preview && <MergeFindings preview={detail.preview} />}
        {detail.preview && <ConflictList preview={detail.preview} reveal={revealOne} />}
        {detail.diff && (
          <DiffList
            diff={detail.diff}
            name={name}
            reveal={revealOne}
            title="What the branch changes"
            removedTitle="Removed nodes (on main only)"
          />
        )}
      </aside>
    </div>
  );
}
