/**
 * The choices of one conflict unit, as a fieldset: main's side, the branch's side, or
 * a value of one's own where the reason takes one (a field's value, a new name, a
 * parent, the wire that stays, keep or drop). Disabled, with the reason referenced,
 * when the key may not rebase.
 */
import { useEffect, useState } from 'react';
import type { LoadedGraph } from './graphModel';
import { keepSide, sideValue, shown, Unit, UnitState } from './resolutionUnits';
import { WireCandidate, wireCandidates } from './wireCandidates';

interface Props {
  unit: Unit;
  index: number;
  state: UnitState;
  onChange: (next: UnitState) => void;
  disabled: boolean;
  describedBy?: string;
  /** The refusal the last preview gave this unit (invalid_resolution). */
  problem?: string;
  graph: LoadedGraph;
  sides: { main: string; branch: string };
  reveal: (id: string) => void;
}

/** A port as node.port where its node is read, else a short id. */
function portName(graph: LoadedGraph, portId: unknown): string {
  if (typeof portId !== 'string') return String(portId);
  const node = graph.nodes.get(graph.portOwner.get(portId) ?? '');
  const port =
    node &&
    [...node.data.inputs, ...node.data.outputs, ...node.data.config].find((p) => p.id === portId);
  return node && port ? `${node.data.name}.${port.name}` : portId.slice(0, 8);
}

const SIDE_LABEL = { main: "Main's", branch: "The branch's" } as const;

export function ResolutionChoice(props: Props) {
  const { unit, index, state, onChange, disabled, describedBy, problem, graph } = props;
  const c = unit.conflict;
  const id = `res-${index}`;
  const nodeName = (nid: unknown) =>
    typeof nid === 'string' ? (graph.nodes.get(nid)?.data.name ?? nid.slice(0, 8)) : 'top level';
  const valueOf = (side: 'main' | 'branch'): string => {
    const v = sideValue(c, side, unit.field ?? '');
    if (v === undefined) return (side === 'main' ? c.main_change : c.branch_change)?.summary ?? '';
    if (unit.editor === 'parent') return `under ${nodeName(v)}`;
    if (unit.editor === 'wire' && Array.isArray(v))
      return v.length === 0
        ? 'no wire'
        : `wired from ${v.map((h) => portName(graph, h)).join(', ')}`;
    return shown(v);
  };
  const pick = (choice: UnitState['choice'], value = state.value) => onChange({ choice, value });
  const title = `${c.reason}: ${c.entity_kind ?? ''} ${c.path ?? c.entity_id ?? ''}${unit.field ? ` · ${unit.field}` : ''}`;
  return (
    <fieldset
      className={`resolution${problem ? ' resolution-invalid' : ''}`}
      disabled={disabled}
      aria-describedby={
        [describedBy, problem ? `${id}-problem` : ''].filter(Boolean).join(' ') || undefined
      }
      data-testid="resolution"
      data-reason={c.reason}
      data-field={unit.field ?? ''}
    >
      <legend>{title}</legend>
      {unit.sides.map((side) => (
        <label key={side} className="choice">
          <input
            type="radio"
            name={id}
            value={side}
            checked={state.choice === side}
            onChange={() => pick(side)}
          />{' '}
          {SIDE_LABEL[side]} side: {valueOf(side)}
        </label>
      ))}
      {unit.editor === 'keepDrop' && <KeepDrop {...props} name={id} />}
      {unit.editor !== null && unit.editor !== 'keepDrop' && (
        <div className="choice">
          {unit.sides.length > 0 && (
            <label>
              <input
                type="radio"
                name={id}
                value="value"
                checked={state.choice === 'value'}
                onChange={() => pick('value')}
              />{' '}
              {unit.editor === 'wire' ? 'Keep one wire:' : 'Own value:'}
            </label>
          )}
          <ValueEditor {...props} id={`${id}-value`} />
        </div>
      )}
      {unit.editor === null && (
        <p className="meta">This conflict takes no resolution here: change the branch itself.</p>
      )}
      {c.entity_kind === 'node' && c.entity_id && (
        <button
          type="button"
          className="link-button"
          onClick={() => props.reveal(c.entity_id as string)}
        >
          Show on the graph
        </button>
      )}
      {problem && (
        <p id={`${id}-problem`} className="field-problem" role="alert">
          {problem}
        </p>
      )}
    </fieldset>
  );
}

function KeepDrop({ unit, state, onChange, name }: Props & { name: string }) {
  const keeper = keepSide(unit.conflict);
  const dropper = keeper === 'main' ? 'branch' : 'main';
  const options = [
    ['keep', `Keep it (${SIDE_LABEL[keeper].toLowerCase()} side)`],
    ['drop', `Drop it (${SIDE_LABEL[dropper].toLowerCase()} side)`],
  ] as const;
  return (
    <>
      {options.map(([value, label]) => (
        <label key={value} className="choice">
          <input
            type="radio"
            name={name}
            value={value}
            checked={state.choice === 'value' && state.value === value}
            onChange={() => onChange({ choice: 'value', value })}
          />{' '}
          {label}
        </label>
      ))}
    </>
  );
}

function ValueEditor({ unit, state, onChange, graph, sides, id }: Props & { id: string }) {
  const set = (value: string) =>
    onChange({
      choice: unit.sides.length === 0 && value === '' ? null : 'value',
      value,
    });
  const field = unit.field ?? 'value';
  if (unit.editor === 'text') {
    const label =
      unit.conflict.reason === 'name_collision'
        ? "New name for the branch's entity"
        : `Own value of ${field}`;
    return (
      <label className="editor">
        <span>{label}</span>
        <input type="text" id={id} value={state.value} onChange={(e) => set(e.target.value)} />
      </label>
    );
  }
  if (unit.editor === 'json') {
    return (
      <label className="editor">
        <span>Own value of {field} (JSON)</span>
        <textarea id={id} rows={3} value={state.value} onChange={(e) => set(e.target.value)} />
      </label>
    );
  }
  if (unit.editor === 'parent')
    return <ParentSelect unit={unit} id={id} value={state.value} set={set} graph={graph} />;
  if (unit.editor === 'wire')
    return (
      <WireSelect
        portId={unit.conflict.entity_id ?? ''}
        id={id}
        value={state.value}
        set={set}
        graph={graph}
        sides={sides}
      />
    );
  return null;
}

function ParentSelect(p: {
  unit: Unit;
  id: string;
  value: string;
  set: (v: string) => void;
  graph: LoadedGraph;
}) {
  const self = p.unit.conflict.entity_id;
  const candidates = new Map<string, string>();
  for (const side of ['main', 'branch'] as const) {
    const v = sideValue(p.unit.conflict, side, 'parent_id');
    if (typeof v === 'string') candidates.set(v, p.graph.nodes.get(v)?.data.name ?? v.slice(0, 8));
  }
  for (const n of p.graph.nodes.values())
    if (n.kind === 'boundary' && n.id !== self) candidates.set(n.id, n.data.name);
  return (
    <label className="editor">
      <span>Parent</span>
      <select id={p.id} value={p.value} onChange={(e) => p.set(e.target.value)}>
        <option value="">top level</option>
        {[...candidates].map(([nid, name]) => (
          <option key={nid} value={nid}>
            {name}
          </option>
        ))}
      </select>
    </label>
  );
}

function WireSelect(p: {
  portId: string;
  id: string;
  value: string;
  set: (v: string) => void;
  graph: LoadedGraph;
  sides: { main: string; branch: string };
}) {
  const owner = p.graph.portOwner.get(p.portId);
  const [wires, setWires] = useState<WireCandidate[] | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  useEffect(() => {
    if (!owner) return;
    wireCandidates(p.portId, owner, p.sides).then(setWires, (e: Error) => setFailed(e.message));
  }, [owner, p.portId, p.sides.main, p.sides.branch]);
  if (!owner) return <p className="meta">Open the port's node on the graph to pick a wire.</p>;
  if (failed) return <p className="meta">The wires could not be read: {failed}</p>;
  return (
    <label className="editor">
      <span>Wire that stays</span>
      <select id={p.id} value={p.value} onChange={(e) => p.set(e.target.value)}>
        <option value="">{wires ? 'choose a wire' : 'reading the wires…'}</option>
        {(wires ?? []).map((w) => (
          <option key={w.id} value={w.id}>
            {w.label}
          </option>
        ))}
      </select>
    </label>
  );
}
