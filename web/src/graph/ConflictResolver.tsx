/**
 * Resolving a merge preview's conflicts by rebasing the branch (rebaseBranch): a
 * choice per conflict unit, a preview of the rebased graph (a dry run: counts and
 * findings, or the conflicts left), and, for a key that may rebase, applying it.
 *
 * Whether the key may rebase is known only from a dry run that resolves everything
 * (its can_rebase): the view dry-runs main's side of each conflict once when it opens,
 * only to learn that. A key that may not sees the choices disabled with the reason;
 * one the opening dry run could not tell about is told by its first preview.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { api, ApiError, Schemas, unwrap } from '../api';
import type { LoadedGraph } from './graphModel';
import { Outcome, RebaseOutcome } from './RebaseOutcome';
import { ResolutionChoice } from './ResolutionChoice';
import {
  Conflict,
  initialValue,
  probeStates,
  Resolution,
  resolutionOf,
  Unit,
  UnitState,
  unitsOf,
} from './resolutionUnits';

type Access = 'checking' | 'yes' | 'no' | 'unknown';

interface Props {
  preview: Schemas['MergePreviewResponse'];
  graph: LoadedGraph;
  reveal: (id: string) => void;
  onApplied: (result: Schemas['RebaseResponse']) => void;
}

function rebase(branchId: string, version: number, resolutions: Resolution[], dryRun: boolean) {
  return unwrap(
    api.POST('/v1/branches/{branch_id}/rebase', {
      params: { path: { branch_id: branchId } },
      body: { expected_version: version, resolutions, dry_run: dryRun },
    }),
  );
}

/** The resolutions of the units chosen, and the problems of those that cannot be sent. */
function collect(units: Unit[], states: Map<string, UnitState>) {
  const resolutions: Resolution[] = [];
  const sent: string[] = [];
  const problems = new Map<string, string>();
  for (const u of units) {
    const r = resolutionOf(u, states.get(u.key) ?? { choice: null, value: '' });
    if (r === null) continue;
    if ('problem' in r) problems.set(u.key, r.problem);
    else {
      resolutions.push(r.resolution);
      sent.push(u.key);
    }
  }
  return { resolutions, sent, problems };
}

/** An answer of the service as an outcome (and the unit a refused resolution names). */
function refusal(e: unknown, sent: string[]): { outcome: Outcome; unitKey?: string } {
  if (!(e instanceof ApiError)) return { outcome: { kind: 'refused', message: String(e) } };
  const d = (e.detail ?? {}) as {
    code?: string;
    conflicts?: Conflict[];
    resolution_index?: number;
  };
  if (e.status === 409 && d.code === 'merge_conflict' && d.conflicts)
    return { outcome: { kind: 'left', conflicts: d.conflicts } };
  const unitKey = typeof d.resolution_index === 'number' ? sent[d.resolution_index] : undefined;
  return { outcome: { kind: 'refused', message: e.message }, unitKey };
}

export function ConflictResolver({ preview, graph, reveal, onApplied }: Props) {
  const branchId = preview.branch.id;
  const version = preview.branch.version;
  const units = useMemo(() => unitsOf(preview.conflicts), [preview]);
  const [states, setStates] = useState(
    () =>
      new Map<string, UnitState>(
        units.map((u) => [u.key, { choice: null, value: initialValue(u) }]),
      ),
  );
  const [access, setAccess] = useState<Access>('checking');
  const [outcome, setOutcome] = useState<Outcome>({ kind: 'idle' });
  const [problems, setProblems] = useState(new Map<string, string>());

  useEffect(() => {
    const probe = collect(units, probeStates(units)).resolutions;
    rebase(branchId, version, probe, true).then(
      (r) => setAccess(r.can_rebase ? 'yes' : 'no'),
      () => setAccess('unknown'),
    );
  }, [branchId, version, units]);

  // a new outcome is brought into view (the panel scrolls; the region also announces it)
  const outcomeRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (outcome.kind !== 'idle') outcomeRef.current?.scrollIntoView?.({ block: 'nearest' });
  }, [outcome]);

  const current = collect(units, states);
  const signature = JSON.stringify(current.resolutions);
  const change = (key: string, next: UnitState) => {
    setStates((s) => new Map(s).set(key, next));
    setProblems((p) => {
      const rest = new Map(p);
      rest.delete(key);
      return rest;
    });
  };

  const run = async (dryRun: boolean) => {
    if (current.problems.size > 0) {
      setProblems(current.problems);
      setOutcome({
        kind: 'refused',
        message: 'Some choices cannot be sent: see the marked conflicts.',
      });
      return;
    }
    setProblems(new Map());
    setOutcome({ kind: 'busy', what: dryRun ? 'Previewing the rebase' : 'Rebasing' });
    try {
      const result = await rebase(branchId, version, current.resolutions, dryRun);
      if (!dryRun) return onApplied(result);
      if (!result.can_rebase) setAccess('no');
      else if (access === 'unknown') setAccess('yes');
      setOutcome({ kind: 'previewed', result, signature });
    } catch (e) {
      const { outcome: next, unitKey } = refusal(e, current.sent);
      if (unitKey && next.kind === 'refused') setProblems(new Map([[unitKey, next.message]]));
      setOutcome(next);
    }
  };

  const locked = access === 'no' || access === 'checking';
  const previewedNow =
    outcome.kind === 'previewed' && outcome.signature === signature && outcome.result.can_rebase;
  return (
    <section className="panel resolver" aria-labelledby="resolver-title" data-testid="resolver">
      <h2 id="resolver-title">Resolve by rebasing</h2>
      <p className="meta">
        Rebasing moves this branch onto main's version {preview.main_branch.version} and keeps its
        own changes on top; each conflict takes main's side, the branch's, or a value of your own.
      </p>
      {access === 'checking' && (
        <p className="loading" role="status">
          Checking whether this key may rebase…
        </p>
      )}
      {access === 'no' && (
        <p id="rebase-access" className="access-note" data-testid="rebase-access">
          This key may not rebase this branch: rebasing needs the graph:write scope and the editor
          or owner role on an active project. The choices are shown for reading only.
        </p>
      )}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void run(true);
        }}
      >
        {units.map((u, i) => (
          <ResolutionChoice
            key={u.key}
            unit={u}
            index={i}
            state={states.get(u.key) ?? { choice: null, value: '' }}
            onChange={(next) => change(u.key, next)}
            disabled={locked}
            describedBy={access === 'no' ? 'rebase-access' : undefined}
            problem={problems.get(u.key)}
            graph={graph}
            sides={{ main: preview.main_branch.id, branch: branchId }}
            reveal={reveal}
          />
        ))}
        <div className="resolver-actions">
          <button type="submit" disabled={locked || outcome.kind === 'busy'}>
            Preview resolutions
          </button>
          <button
            type="button"
            disabled={locked || !previewedNow}
            onClick={() => void run(false)}
            aria-describedby="apply-hint"
          >
            Apply the rebase
          </button>
        </div>
        <p id="apply-hint" className="meta">
          {previewedNow
            ? 'The preview below is of these choices: applying writes them as the branch’s next version.'
            : 'Applying is possible once a preview of the current choices leaves no conflict.'}
        </p>
      </form>
      <div ref={outcomeRef} role="status" aria-live="polite" data-testid="rebase-outcome">
        <RebaseOutcome outcome={outcome} />
      </div>
    </section>
  );
}
