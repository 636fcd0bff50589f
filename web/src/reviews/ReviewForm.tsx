/**
 * Approve or request changes (reviewChangeRequest), with a comment box and, when a
 * node is selected on the graph, the choice to pin the comment on it. Who may: the
 * editor or owner role, never the branch's owner, on an open change request (the
 * caller's role and ownership come from getChangeRequest's `caller`); anyone else sees
 * the buttons disabled with the reason. A refusal the service answers anyway (403: a
 * key without graph:write, a role changed since) is shown and disables them too.
 */
import { FormEvent, useState } from 'react';
import { api } from '../api';
import type { Schemas } from '../api';

type Detail = Schemas['ChangeRequestDetailResponse'];
type Verdict = 'approve' | 'request_changes';

/** Why the caller may not approve or request changes, or null when they may. */
export function whyNot(detail: Detail): string | null {
  const { caller, change_request: cr } = detail;
  if (cr.state !== 'open') return `This change request is ${cr.state}: it takes no more reviews.`;
  if (caller.branch_owner)
    return 'You own this branch: nobody approves or requests changes on their own change request.';
  if (caller.role === 'viewer')
    return 'Your role on this project is viewer: approving or requesting changes needs the editor or owner role.';
  return null;
}

function refusal(status: number, error: unknown): string {
  const detail = (error as { detail?: { code?: string; message?: string } } | undefined)?.detail;
  const said = detail?.message ? `: ${detail.message}` : '';
  if (status === 403)
    return `The service refused this review (403 ${detail?.code ?? 'forbidden'})${said}.`;
  return `The service answered ${status}${detail?.code ? ` ${detail.code}` : ''}${said}.`;
}

export function ReviewForm({
  detail,
  selected,
  onReviewed,
}: {
  detail: Detail;
  /** The node selected on the graph, to pin the comment on. */
  selected: { id: string; name: string } | null;
  onReviewed: () => void;
}) {
  const [body, setBody] = useState('');
  const [pin, setPin] = useState(true);
  const [busy, setBusy] = useState(false);
  const [refused, setRefused] = useState<string | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const reason = refused ?? whyNot(detail);

  const send = async (verdict: Verdict) => {
    setBusy(true);
    setFailed(null);
    const text = body.trim();
    const pinned = pin && selected && text;
    const { error, response } = await api.POST('/v1/change-requests/{change_request_id}/reviews', {
      params: { path: { change_request_id: detail.change_request.id } },
      body: pinned
        ? { verdict, comments: [{ body: text, anchor: { kind: 'node', id: selected.id } }] }
        : { verdict, body: text || null },
    });
    setBusy(false);
    if (response.ok) {
      setBody('');
      onReviewed();
      return;
    }
    const message = refusal(response.status, error);
    if (response.status === 403) setRefused(message);
    else setFailed(message);
  };
  const submit = (event: FormEvent) => event.preventDefault();

  return (
    <form className="panel review-form" aria-labelledby="review-title" onSubmit={submit}>
      <h2 id="review-title">Your review</h2>
      <label htmlFor="review-body">Comment (optional)</label>
      <textarea
        id="review-body"
        rows={3}
        maxLength={10000}
        value={body}
        disabled={reason !== null || busy}
        onChange={(e) => setBody(e.target.value)}
      />
      {selected && reason === null && (
        <label className="inline">
          <input type="checkbox" checked={pin} onChange={(e) => setPin(e.target.checked)} /> Pin the
          comment on <strong>{selected.name}</strong>
        </label>
      )}
      <div className="buttons">
        {(['approve', 'request_changes'] as Verdict[]).map((v) => (
          <button
            key={v}
            type="button"
            data-verdict={v}
            disabled={reason !== null || busy}
            aria-describedby={reason ? 'review-why-not' : undefined}
            onClick={() => void send(v)}
          >
            {v === 'approve' ? 'Approve' : 'Request changes'}
          </button>
        ))}
      </div>
      {reason && (
        <p id="review-why-not" className="why-not" data-testid="review-why-not">
          {reason}
        </p>
      )}
      {failed && (
        <p className="error" role="alert">
          {failed}
        </p>
      )}
    </form>
  );
}
