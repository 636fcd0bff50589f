/**
 * The side panel: the selected node (data, ports, verifications, its source
 * decisions linking to the decision ledger, and what the active overlay says of
 * it), and the lists of the overlays (findings, diff, merge conflicts) whose
 * entries reveal their node on the canvas.
 */
import type { Finding, Schemas, WireNode, WirePort } from '../api';
import { href } from '../router';

export function NodePanel({
  node,
  projectId,
  notes,
}: {
  node: WireNode;
  projectId: string;
  notes: string[];
}) {
  const d = node.data;
  const ports = (title: string, list: WirePort[]) =>
    list.length > 0 && (
      <>
        <h3>{title}</h3>
        <ul className="plain">
          {list.map((p) => (
            <li key={p.id}>
              <code>
                {p.name}:{p.type}
              </code>
              {p.external && <span className="badge badge-external">external</span>}
              {p.contract_name && <span className="meta"> contract {p.contract_name}</span>}
              {p.description && <span className="meta"> — {p.description}</span>}
            </li>
          ))}
        </ul>
      </>
    );
  return (
    <section className="panel" aria-labelledby="node-panel-title" data-testid="node-panel">
      <h2 id="node-panel-title">{d.name || '(unnamed)'}</h2>
      <dl>
        <dt>Kind</dt>
        <dd>{node.kind ?? '—'}</dd>
        <dt>Status</dt>
        <dd>{d.status}</dd>
        <dt>Id</dt>
        <dd>
          <code>{node.id}</code>
        </dd>
        {d.description && (
          <>
            <dt>Description</dt>
            <dd>{d.description}</dd>
          </>
        )}
        {d.is_test_node && (
          <>
            <dt>Test node</dt>
            <dd>yes</dd>
          </>
        )}
        {d.is_external && (
          <>
            <dt>External</dt>
            <dd>{d.external_kind ?? 'yes'}</dd>
          </>
        )}
        {[
          ['Language', d.language],
          ['Protocol', d.protocol],
          ['Path prefix', d.path_prefix],
          ['User kind', d.user_kind],
          ['Documentation', d.documentation_url],
        ]
          .filter(([, v]) => v)
          .map(([k, v]) => (
            <div key={k} className="dl-row">
              <dt>{k}</dt>
              <dd>{v}</dd>
            </div>
          ))}
      </dl>
      {notes.length > 0 && (
        <>
          <h3>In this view</h3>
          <ul className="plain" data-testid="node-notes">
            {notes.map((n) => (
              <li key={n}>{n}</li>
            ))}
          </ul>
        </>
      )}
      {ports('Inputs', d.inputs)}
      {ports('Outputs', d.outputs)}
      {ports('Config', d.config)}
      {d.constraints.length > 0 && (
        <>
          <h3>Constraints</h3>
          <ul className="plain">
            {d.constraints.map((c) => (
              <li key={c}>{c}</li>
            ))}
          </ul>
        </>
      )}
      <h3>Verifications</h3>
      {d.verifications.length === 0 ? (
        <p className="meta">none</p>
      ) : (
        <ul className="plain">
          {d.verifications.map((v) => (
            <li key={v.id}>
              {v.text}{' '}
              <span className="meta">
                ({v.author}
                {v.type ? `, ${v.type}` : ''})
              </span>
            </li>
          ))}
        </ul>
      )}
      <h3>Source decisions</h3>
      {(d.source_decisions ?? []).length === 0 ? (
        <p className="meta">none</p>
      ) : (
        <ul className="plain">
          {(d.source_decisions ?? []).map((id) => (
            <li key={id}>
              <a href={href({ name: 'decision', projectId, decisionId: id })}>decision {id}</a>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

type Reveal = (id: string) => void;

function Entry({ id, label, reveal }: { id: string; label: string; reveal?: Reveal }) {
  return (
    <li>
      {reveal ? (
        <button type="button" className="link-button" onClick={() => reveal(id)}>
          {label}
        </button>
      ) : (
        label
      )}
    </li>
  );
}

function EntryList({
  title,
  items,
  reveal,
}: {
  title: string;
  items: { id: string; label: string }[];
  reveal?: Reveal;
}) {
  return (
    <>
      <h3>{title}</h3>
      {items.length === 0 ? (
        <p className="meta">none</p>
      ) : (
        <ul className="plain">
          {items.map((i) => (
            <Entry key={i.id} id={i.id} label={i.label} reveal={reveal} />
          ))}
        </ul>
      )}
    </>
  );
}

export function FindingsList({ findings }: { findings: Finding[] }) {
  return (
    <section className="panel" aria-labelledby="findings-title" data-testid="findings">
      <h2 id="findings-title">Findings ({findings.length})</h2>
      <ul className="plain">
        {findings.map((f) => (
          <li key={`${f.code}-${f.locator}`} className={`finding finding-${f.severity}`}>
            <strong>{f.severity}</strong> {f.code}: {f.message}
          </li>
        ))}
      </ul>
    </section>
  );
}

export function DiffList({
  diff,
  name,
  reveal,
  title = 'Diff against main',
  removedTitle = 'Removed nodes (on main only)',
}: {
  diff: Schemas['DiffResponse'];
  name: (id: string) => string;
  reveal: Reveal;
  title?: string;
  removedTitle?: string;
}) {
  const n = diff.nodes;
  return (
    <section className="panel" aria-labelledby="diff-title" data-testid="diff">
      <h2 id="diff-title">{title}</h2>
      <p className="meta">
        nodes +{n.added.length} −{n.removed.length} ~{n.changed.length} · ports +
        {diff.ports.added.length} −{diff.ports.removed.length} ~{diff.ports.changed.length} · wires
        +{diff.edges.added.length} −{diff.edges.removed.length} ~{diff.edges.changed.length}
      </p>
      <p className="legend">
        <span className="swatch diff-added">added</span>
        <span className="swatch diff-changed">changed</span> on the graph
      </p>
      <EntryList
        title="Added nodes"
        items={n.added.map((id) => ({ id, label: name(id) }))}
        reveal={reveal}
      />
      <EntryList
        title="Changed nodes"
        items={n.changed.map((c) => ({ id: c.id, label: `${name(c.id)}: ${c.fields.join(', ')}` }))}
        reveal={reveal}
      />
      <EntryList title={removedTitle} items={n.removed.map((id) => ({ id, label: name(id) }))} />
    </section>
  );
}

export function ConflictList({
  preview,
  reveal,
}: {
  preview: Schemas['MergePreviewResponse'];
  reveal: Reveal;
}) {
  return (
    <section className="panel" aria-labelledby="merge-title" data-testid="merge-preview">
      <h2 id="merge-title">Merge preview</h2>
      <p>
        {preview.can_merge
          ? `Would merge (${preview.mode}) with no conflict.`
          : `${preview.conflicts.length} conflict(s): the merge would be refused.`}
      </p>
      <ul className="plain" data-testid="conflicts">
        {preview.conflicts.map((c, i) => (
          <li key={`${c.entity_id}-${i}`} className="conflict-entry">
            <strong>{c.reason}</strong> {c.entity_kind ?? ''} {c.path ?? c.entity_id ?? ''}
            {c.fields.length > 0 && ` (${c.fields.join(', ')})`}
            {c.branch_change && <div className="meta">branch: {c.branch_change.summary}</div>}
            {c.main_change && <div className="meta">main: {c.main_change.summary}</div>}
            {c.entity_id && c.entity_kind === 'node' && (
              <button
                type="button"
                className="link-button"
                onClick={() => reveal(c.entity_id as string)}
              >
                Show on the graph
              </button>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
