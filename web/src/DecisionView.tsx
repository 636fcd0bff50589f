/**
 * The decision ledger of a project (listDecisions, newest first) with one decision
 * opened (getDecision): where a node's source decisions link to. Reading decisions
 * needs the decisions:read scope; without it the service's 403 is shown.
 */
import { api, Schemas, unwrap } from './api';
import { ErrorBox, Loading } from './App';
import { href } from './router';
import { useAsync } from './useAsync';

export function DecisionView({ projectId, decisionId }: { projectId: string; decisionId: string }) {
  const state = useAsync(
    () =>
      Promise.all([
        unwrap(
          api.GET('/v1/decisions/{decision_id}', { params: { path: { decision_id: decisionId } } }),
        ),
        unwrap(
          api.GET('/v1/decisions', { params: { query: { project_id: projectId, limit: 50 } } }),
        ),
      ]),
    [projectId, decisionId],
  );
  return (
    <section aria-labelledby="decision-title">
      <nav className="crumbs" aria-label="Breadcrumb">
        <a href={href({ name: 'projects' })}>Projects</a> /{' '}
        <a href={href({ name: 'branches', projectId })}>branches</a> / decision ledger
      </nav>
      <h1 id="decision-title">Decision ledger</h1>
      {state.loading && <Loading what="decisions" />}
      {state.error && <ErrorBox error={state.error} />}
      {state.data && (
        <div className="ledger">
          <DecisionCard decision={state.data[0].decision} />
          <h2>Newest decisions of the project</h2>
          <ol className="ledger-list">
            {state.data[1].decisions.map((d) => (
              <li key={d.id} aria-current={d.id === decisionId ? 'true' : undefined}>
                <a href={href({ name: 'decision', projectId, decisionId: d.id })}>
                  {d.state} · {d.captured_at}
                </a>{' '}
                <span className="meta">{summary(d)}</span>
              </li>
            ))}
          </ol>
        </div>
      )}
    </section>
  );
}

function summary(d: Schemas['DecisionOut']): string {
  const text = d.capture_text ?? '';
  return text.length > 120 ? `${text.slice(0, 117)}…` : text;
}

function DecisionCard({ decision }: { decision: Schemas['DecisionOut'] }) {
  return (
    <article className="decision" data-testid="decision">
      <h2>
        Decision {decision.id} ({decision.state})
      </h2>
      <dl>
        <dt>Captured</dt>
        <dd>{decision.captured_at}</dd>
        <dt>Anchor</dt>
        <dd>
          {decision.anchor_ref
            ? `${decision.anchor_ref.type} ${decision.anchor_ref.id ?? ''}`
            : '—'}
        </dd>
        <dt>Text</dt>
        <dd className="pre">{decision.capture_text ?? '—'}</dd>
        <dt>Resulting nodes</dt>
        <dd>{(decision.resulting_node_ids ?? []).join(', ') || '—'}</dd>
      </dl>
    </article>
  );
}
