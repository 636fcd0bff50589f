/** The change trail of a branch (listBranchChanges): one entry per applied batch or merge, newest page first. */
import { api, unwrap } from '../api';
import { ErrorBox, Loading } from '../App';
import { useAsync } from '../useAsync';

export function ChangesList({ branchId }: { branchId: string }) {
  const state = useAsync(
    () =>
      unwrap(
        api.GET('/v1/branches/{branch_id}/changes', {
          params: { path: { branch_id: branchId }, query: { limit: 200 } },
        }),
      ),
    [branchId],
  );
  if (state.loading) return <Loading what="the change trail" />;
  if (state.error) return <ErrorBox error={state.error} />;
  const changes = state.data?.changes ?? [];
  return (
    <section className="changes" aria-labelledby="changes-title" data-testid="changes">
      <h2 id="changes-title">Change trail ({changes.length})</h2>
      {changes.length === 0 && <p>No structural change recorded yet.</p>}
      <ol className="trail">
        {changes.map((c) => (
          <li key={c.version}>
            <strong>version {c.version}</strong> · {c.kind}
            {c.mode ? ` (${c.mode})` : ''} · {c.created_at} · by <code>{c.actor}</code>
            <div className="meta">
              {c.deltas.length} delta(s): {summarize(c.deltas.map((d) => d.type))}
            </div>
          </li>
        ))}
      </ol>
    </section>
  );
}

function summarize(types: string[]): string {
  const counts = new Map<string, number>();
  for (const t of types) counts.set(t, (counts.get(t) ?? 0) + 1);
  return [...counts].map(([t, n]) => `${n} ${t}`).join(', ');
}
