/**
 * The side panels of a change request: main's protection rules as a merge now would
 * find them (each met or not) with the approvals counted (stale ones apart), the
 * findings the merge would add to main and clear from it, and the reviews with their
 * comments (each comment on the node, port or wire it was written on, by the name it
 * had then, and a way to show it on the graph when the graph shown has it).
 */
import type { Finding, Schemas } from '../api';

type Detail = Schemas['ChangeRequestDetailResponse'];
type Review = Schemas['Review'];
type Comment = Schemas['ReviewComment'];

const RULE_NAMES: Record<string, string> = {
  required_approvals: 'Required approvals',
  no_error_findings: 'No error finding on main after the merge',
  up_to_date: 'Based on main’s current version',
};

export function RulesPanel({ detail }: { detail: Detail }) {
  const { approvals } = detail;
  const rules = detail.preview?.rules ?? [];
  return (
    <section className="panel" aria-labelledby="rules-title" data-testid="rules">
      <h2 id="rules-title">Protection rules</h2>
      <p data-testid="approvals">
        Approvals: <strong>{approvals.current}</strong> of {approvals.required} required at the
        branch’s current version
        {approvals.stale > 0 && (
          <span className="badge badge-stale">
            {approvals.stale} stale (an earlier version; they no longer count)
          </span>
        )}
      </p>
      {detail.preview === null ? (
        <p className="meta">
          {detail.change_request.state === 'open'
            ? 'The merge is too large to preview here: the branch’s owner previews it.'
            : `This change request is ${detail.change_request.state}.`}
        </p>
      ) : rules.length === 0 ? (
        <p className="meta">Main has no protection rule: any merge without conflict goes in.</p>
      ) : (
        <ul className="plain rules">
          {rules.map((r) => (
            <li key={r.rule} className={r.met ? 'rule-met' : 'rule-unmet'} data-rule={r.rule}>
              <span className="rule-state">{r.met ? 'Met' : 'Not met'}</span>{' '}
              <strong>{RULE_NAMES[r.rule] ?? r.rule}</strong>
              <div className="meta">{r.message}</div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function FindingList({ title, list, testId }: { title: string; list: Finding[]; testId: string }) {
  return (
    <>
      <h3>{title}</h3>
      {list.length === 0 ? (
        <p className="meta">none</p>
      ) : (
        <ul className="plain" data-testid={testId}>
          {list.map((f) => (
            <li key={`${f.code}-${f.locator}`} className={`finding finding-${f.severity}`}>
              <strong>{f.severity}</strong> {f.code}: {f.message}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

export function MergeFindings({ preview }: { preview: Schemas['MergePreviewResponse'] }) {
  return (
    <section className="panel" aria-labelledby="merge-findings-title" data-testid="merge-findings">
      <h2 id="merge-findings-title">Findings the merge would change on main</h2>
      <FindingList title="Added" list={preview.findings_added} testId="findings-added" />
      <FindingList title="Cleared" list={preview.findings_cleared} testId="findings-cleared" />
      {preview.findings_truncated && <p className="meta">More findings are not listed.</p>}
    </section>
  );
}

const VERDICTS: Record<Review['verdict'], string> = {
  approve: 'approved',
  request_changes: 'requested changes',
  comment: 'commented',
};

export interface AnchorState {
  /** The entity is on the graph shown: a node id to reveal, or null for a wire. */
  shown: boolean;
  /** Its name on the graph shown, when it differs from the recorded one. */
  nameNow?: string;
}

function CommentItem({
  comment,
  anchorState,
  onShow,
}: {
  comment: Comment;
  anchorState: (c: Comment) => AnchorState;
  onShow: (c: Comment) => void;
}) {
  const a = comment.anchor;
  const state = a ? anchorState(comment) : null;
  return (
    <li className="comment" data-comment-id={comment.id} data-anchor-id={a?.id ?? ''}>
      <p className="pre">{comment.body}</p>
      {a && state && (
        <div className="meta">
          on {a.kind} <strong>{a.name || a.id}</strong> at version {a.version}
          {state.nameNow && ` (called ${state.nameNow} on the graph shown)`}{' '}
          {state.shown ? (
            <button type="button" className="link-button" onClick={() => onShow(comment)}>
              Show on the graph
            </button>
          ) : (
            <span className="gone" data-testid="anchor-gone">
              (not on the graph shown: its recorded name is kept)
            </span>
          )}
        </div>
      )}
    </li>
  );
}

export function ReviewsList({
  reviews,
  anchorState,
  onShow,
}: {
  reviews: Review[];
  anchorState: (c: Comment) => AnchorState;
  onShow: (c: Comment) => void;
}) {
  return (
    <section className="panel" aria-labelledby="reviews-title" data-testid="reviews">
      <h2 id="reviews-title">Reviews ({reviews.length})</h2>
      {reviews.length === 0 && <p className="meta">No review yet.</p>}
      <ol className="plain reviews">
        {reviews.map((r) => (
          <li key={r.id} className={`review verdict-${r.verdict}`} data-review-id={r.id}>
            <div>
              <strong>{VERDICTS[r.verdict]}</strong> at version {r.branch_version}
              {r.stale && r.verdict === 'approve' && (
                <span className="badge badge-stale" data-testid="stale">
                  stale: the branch changed since
                </span>
              )}
              <div className="meta">
                by <code>{r.reviewer_id}</code> · {r.created_at}
              </div>
            </div>
            {r.body && <p className="pre">{r.body}</p>}
            {r.comments.length > 0 && (
              <ul className="plain comments">
                {r.comments.map((c) => (
                  <CommentItem key={c.id} comment={c} anchorState={anchorState} onShow={onShow} />
                ))}
              </ul>
            )}
          </li>
        ))}
      </ol>
    </section>
  );
}
