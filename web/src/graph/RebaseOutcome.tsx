/**
 * What a rebase dry run answered for the resolutions chosen: the counts of what the
 * rebase would change on the branch and the findings it would add and clear, or the
 * conflicts still left (409 merge_conflict), or why it was refused.
 */
import type { Conflict } from './resolutionUnits';
import type { Finding, Schemas } from '../api';

export type Outcome =
  | { kind: 'idle' }
  | { kind: 'busy'; what: string }
  | { kind: 'previewed'; result: Schemas['RebaseResponse']; signature: string }
  | { kind: 'left'; conflicts: Conflict[] }
  | { kind: 'refused'; message: string };

function Findings({ title, list }: { title: string; list: Finding[] }) {
  return (
    <>
      <h4>
        {title} ({list.length})
      </h4>
      {list.length > 0 && (
        <ul className="plain">
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

export function RebaseOutcome({ outcome }: { outcome: Outcome }) {
  if (outcome.kind === 'idle')
    return <p className="meta">Choose resolutions, then preview the rebased graph.</p>;
  if (outcome.kind === 'busy') return <p className="loading">{outcome.what}…</p>;
  if (outcome.kind === 'refused')
    return (
      <p className="error" data-testid="rebase-refused">
        {outcome.message}
      </p>
    );
  if (outcome.kind === 'left')
    return (
      <div data-testid="rebase-left">
        <p>
          <strong>{outcome.conflicts.length} conflict(s) left unresolved</strong>: the rebase would
          be refused.
        </p>
        <ul className="plain">
          {outcome.conflicts.map((c, i) => (
            <li key={`${c.entity_id}-${i}`}>
              {c.reason} {c.entity_kind ?? ''} {c.path ?? c.entity_id ?? ''}
              {c.fields.length > 0 && ` (${c.fields.join(', ')})`}
            </li>
          ))}
        </ul>
      </div>
    );
  const r = outcome.result;
  const count = (what: string, c: Schemas['ChangeCount']) =>
    `${what} +${c.added} ~${c.changed} −${c.removed}`;
  return (
    <div data-testid="rebase-preview">
      <p>
        <strong>No conflict left.</strong> The branch would move from main's version{' '}
        {r.previous_base_main_version} onto version {r.main_branch.version}.
      </p>
      <p className="meta" data-testid="rebase-counts">
        {count('nodes', r.counts.nodes)} · {count('ports', r.counts.ports)} ·{' '}
        {count('wires', r.counts.edges)}
      </p>
      <Findings title="Findings added" list={r.findings_added} />
      <Findings title="Findings cleared" list={r.findings_cleared} />
      {r.findings_truncated && <p className="meta">Only the first findings are listed.</p>}
    </div>
  );
}
