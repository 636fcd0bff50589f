/** The projects the key can see (listProjects), each linking to its branches. */
import { api, ApiError, unwrap } from './api';
import { ErrorBox, Loading } from './App';
import { href } from './router';
import { useAsync } from './useAsync';

export function ProjectsView({ onUnauthorized }: { onUnauthorized: () => void }) {
  const state = useAsync(
    () => unwrap(api.GET('/v1/projects', { params: { query: { limit: 200 } } })),
    [],
  );
  if (state.loading) return <Loading what="projects" />;
  if (state.error) {
    const unauthorized = state.error instanceof ApiError && state.error.status === 401;
    return <ErrorBox error={state.error} onRetryKey={unauthorized ? onUnauthorized : undefined} />;
  }
  const projects = state.data?.projects ?? [];
  return (
    <section aria-labelledby="projects-title">
      <h1 id="projects-title">Projects</h1>
      {projects.length === 0 ? (
        <p>No project is visible to this key.</p>
      ) : (
        <ul className="cards" data-testid="projects">
          {projects.map((p) => (
            <li key={p.id}>
              <a href={href({ name: 'branches', projectId: p.id })}>{p.name}</a>
              <span className="meta">
                {p.archived ? 'archived · ' : ''}
                {p.language ?? 'no language'} · updated {p.updated_at}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
