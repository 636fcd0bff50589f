/**
 * A node on the canvas (a React Flow custom node): name and kind, test and
 * external markers, its ports as handles labeled `name:type` (inputs on the left,
 * outputs on the right, config on top), the marks of the active overlay, and for
 * a boundary the expand/collapse button. An open boundary is drawn as a container
 * around its children.
 */
import { Handle, Node, NodeProps, Position } from '@xyflow/react';
import type { WireNode, WirePort } from '../api';
import { CONFIG_ROW, HEADER, PORT_ROW, portsTop } from './layout';

export interface NodeCardData extends Record<string, unknown> {
  node: WireNode;
  open: boolean;
  loading: boolean;
  /** Overlay marks: 'finding-error', 'diff-added', 'conflict', ... */
  marks: string[];
  /** A one-line note for the overlay (finding count, changed fields). */
  note: string | null;
  onToggle: (id: string) => void;
}

export type NodeCardNode = Node<NodeCardData, 'card'>;

const label = (p: WirePort) => `${p.name}:${p.type}`;

function PortRow({
  port,
  side,
  index,
  top,
}: {
  port: WirePort;
  side: 'in' | 'out';
  index: number;
  top: number;
}) {
  return (
    <div
      className={`port port-${side}${port.external ? ' port-external' : ''}`}
      style={{ top: top + index * PORT_ROW, height: PORT_ROW }}
      data-port-id={port.id}
      title={port.description || label(port)}
    >
      <Handle
        id={port.id}
        type={side === 'in' ? 'target' : 'source'}
        position={side === 'in' ? Position.Left : Position.Right}
        isConnectable={false}
      />
      <span className="port-label">{label(port)}</span>
    </div>
  );
}

export function NodeCard({ data, selected }: NodeProps<NodeCardNode>) {
  const { node, open, loading, marks, note, onToggle } = data;
  const top = portsTop(node);
  const boundary = node.kind === 'boundary';
  const classes = ['card', `kind-${node.kind ?? 'none'}`, open ? 'open' : 'closed', ...marks];
  if (node.data.is_test_node) classes.push('test-node');
  if (node.data.is_external) classes.push('external-node');
  if (selected) classes.push('selected');
  return (
    <div className={classes.join(' ')} data-node-id={node.id} data-marks={marks.join(' ')}>
      <div className="card-header" style={{ height: HEADER }}>
        <div className="card-title">
          <span className="card-name">{node.data.name || '(unnamed)'}</span>
          {boundary && (
            <button
              type="button"
              className="toggle nodrag"
              aria-expanded={open}
              aria-label={`${open ? 'Collapse' : 'Expand'} ${node.data.name}`}
              onClick={(e) => {
                e.stopPropagation();
                onToggle(node.id);
              }}
            >
              {loading ? '…' : open ? '−' : '+'}
            </button>
          )}
        </div>
        <div className="card-kind">
          <span>{node.kind ?? 'no kind'}</span>
          {node.data.is_test_node && <span className="badge badge-test">test</span>}
          {node.data.is_external && <span className="badge badge-external">external</span>}
          {note && <span className="badge badge-note">{note}</span>}
        </div>
      </div>
      {node.data.config.length > 0 && (
        <div className="config-row" style={{ top: HEADER, height: CONFIG_ROW }}>
          {node.data.config.map((p) => (
            <span
              key={p.id}
              className="port port-config"
              data-port-id={p.id}
              title={p.description || label(p)}
            >
              <Handle id={p.id} type="target" position={Position.Top} isConnectable={false} />
              <span className="port-label">{label(p)}</span>
            </span>
          ))}
        </div>
      )}
      {node.data.inputs.map((p, i) => (
        <PortRow key={p.id} port={p} side="in" index={i} top={top} />
      ))}
      {node.data.outputs.map((p, i) => (
        <PortRow key={p.id} port={p} side="out" index={i} top={top} />
      ))}
    </div>
  );
}
