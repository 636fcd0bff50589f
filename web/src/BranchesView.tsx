/** The branches of a project the key can see (listBranches): main first, each opening its graph. */
import { api, unwrap } from './api';
import { ErrorBox, Loading } from './App';
import { href, MAIN } from './router';
import { useAsync } from './useAsync';

export function BranchesView({ projectId }: { projectId: string }) {
  const state = useAsync(
    () =>
      unwrap(
        api.GET('/v1/projects/{project_id}/branches', {
          params: { path: { project_id: projectId } },
        }),
      ),
    [projectId],
  );
  if (state.loading) return <Loading what="branches" />;
  if (state.error) return <ErrorBox error={state.error} />;
  // listBranches answers the caller's active working branches; main is linked above them
  const branches = [...(state.data?.branches ?? [])].sort((a, b) => a.name.localeCompare(b.name));
  return (
    <section aria-labelledby="branches-title">
      <nav className="crumbs" aria-label="Breadcrumb">
        <a href={href({ name: 'projects' })}>Projects</a> / this project
      </nav>
      <h1 id="branches-title">Branches</h1>
      <p>
        <a href={href({ name: 'changeRequests', projectId })} data-testid="change-requests-link">
          Open change requests
        </a>{' '}
        <span className="meta">(branches asking for review before their merge)</span>
      </p>
      <ul className="cards" data-testid="branches">
        <li key={MAIN}>
          <a href={href({ name: 'graph', projectId, branchId: MAIN, tab: 'graph' })}>main</a>
          <span className="meta">the project's merged design (read by every member)</span>
        </li>
        {branches.map((b) => (
          <li key={b.id}>
            <a href={href({ name: 'graph', projectId, branchId: b.id, tab: 'graph' })}>{b.name}</a>
            <span className="meta">
              {b.status} · version {b.version}
              {` · forked at main version ${b.base_main_version}`}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
