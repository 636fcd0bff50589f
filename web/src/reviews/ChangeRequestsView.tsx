/** The open change requests of a project (listChangeRequests), newest first, each opening its page. */
import { api, unwrap } from '../api';
import { ErrorBox, Loading } from '../App';
import { href } from '../router';
import { useAsync } from '../useAsync';

export function ChangeRequestsView({ projectId }: { projectId: string }) {
  const state = useAsync(
    () =>
      unwrap(
        api.GET('/v1/projects/{project_id}/change-requests', {
          params: { path: { project_id: projectId }, query: { state: 'open', limit: 100 } },
        }),
      ),
    [projectId],
  );
  if (state.loading) return <Loading what="change requests" />;
  if (state.error) return <ErrorBox error={state.error} />;
  const list = state.data?.change_requests ?? [];
  return (
    <section aria-labelledby="crs-title">
      <nav className="crumbs" aria-label="Breadcrumb">
        <a href={href({ name: 'projects' })}>Projects</a> /{' '}
        <a href={href({ name: 'branches', projectId })}>branches</a> / change requests
      </nav>
      <h1 id="crs-title">Open change requests</h1>
      {list.length === 0 && <p>No change request is open.</p>}
      <ul className="cards" data-testid="change-requests">
        {list.map((cr) => (
          <li key={cr.id}>
            <a href={href({ name: 'changeRequest', projectId, changeRequestId: cr.id })}>
              {cr.title}
            </a>
            <span className="meta">
              branch {cr.branch_name} · opened {cr.created_at}
            </span>
          </li>
        ))}
      </ul>
      {state.data?.has_more && <p className="meta">More change requests are not shown.</p>}
    </section>
  );
}
