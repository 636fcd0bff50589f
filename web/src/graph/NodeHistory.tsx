/**
 * The history of the selected node (getNodeHistory, main's id reading main): the changes
 * that touched it in the version on screen, newest first, each with its kind, what it
 * did to the node (its fields, or only its wires), when and by whom; and the change
 * that last set each field.
 */
import { api, unwrap } from '../api';
import type { Schemas } from '../api';
import { ErrorBox, Loading } from '../App';
import { useAsync } from '../useAsync';

/** Changes shown at most; the API pages the rest. */
const SHOWN = 20;

function what(c: Schemas['NodeHistoryChange']): string {
  const wires = c.wires.map((w) => `wire ${w.action}`);
  if (c.action === null) return wires.join(', ') || 'touched';
  const fields = c.fields.length > 0 ? ` (${c.fields.join(', ')})` : '';
  return [`${c.action}${fields}`, ...wires].join(', ');
}

export function NodeHistory({
  branchId,
  nodeId,
  version,
}: {
  branchId: string;
  nodeId: string;
  version: number;
}) {
  const state = useAsync(
    () =>
      unwrap(
        api.GET('/v1/branches/{branch_id}/node/{node_id}/history', {
          params: {
            path: { branch_id: branchId, node_id: nodeId },
            query: { version, limit: SHOWN },
          },
        }),
      ),
    [branchId, nodeId, version],
  );
  if (state.loading) return <Loading what="the node's history" />;
  if (state.error) return <ErrorBox error={state.error} />;
  const body = state.data;
  if (!body) return null;
  const line = (id: string) => (id === branchId ? '' : ' on main');
  return (
    <section className="panel" aria-labelledby="history-title" data-testid="node-history">
      <h2 id="history-title">History</h2>
      {body.changes.length === 0 && <p className="meta">No change recorded for this node.</p>}
      <ol className="trail">
        {body.changes.map((c) => (
          <li key={`${c.branch_id}-${c.version}`}>
            <strong>
              version {c.version}
              {line(c.branch_id)}
            </strong>{' '}
            · {c.kind} · {what(c)}
            <div className="meta">
              {c.created_at} · by <code>{c.actor}</code>
            </div>
          </li>
        ))}
      </ol>
      {body.has_more && <p className="meta">Older changes are not shown.</p>}
      <h3>Fields last set</h3>
      <ul className="plain" data-testid="node-history-fields">
        {Object.entries(body.fields).map(([field, set]) => (
          <li key={field}>
            <code>{field}</code>: version {set.version}
            {line(set.branch_id)}
          </li>
        ))}
      </ul>
    </section>
  );
}
