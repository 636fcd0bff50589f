/**
 * The rules of the node kinds, judged on a whole node (as it would be after a
 * delta): a field its kind may not carry holds only its default; an external
 * behavior node says what kind of external it is; an io node has exactly one port.
 * Pure: the delta engine turns a problem into its per-delta error.
 */
import { isChannel, NODE_FIELD_NAMES, NODE_FIELDS, NodeFieldSpec, NodeState } from './nodeModel';

export interface KindProblem {
  error: 'field_not_allowed' | 'validation_error' | 'io_port_shape';
  /** The NodeData field at fault. */
  field: string;
  message: string;
}

const isDefault = (value: unknown, fallback: NodeFieldSpec['default']) =>
  Array.isArray(fallback) ? (value as unknown[]).length === 0 : value === fallback;

/** The first kind rule `node` breaks, or null. */
export function kindProblem(node: NodeState): KindProblem | null {
  for (const field of NODE_FIELD_NAMES) {
    const spec: NodeFieldSpec = NODE_FIELDS[field];
    if (spec.kinds === undefined) continue;
    const allowed = spec.kinds.includes(node.kind) && (!spec.externalOnly || node.is_external);
    const value = isChannel(field) ? node.ports[field] : (node as Record<string, unknown>)[field];
    if (!allowed && !isDefault(value, spec.default)) {
      const what = `${node.is_external ? 'an external' : 'an internal'} ${node.kind}`;
      return {
        error: 'field_not_allowed',
        field,
        message: `${spec.refusal} (this node is ${what})`,
      };
    }
  }
  if (node.kind === 'behavior' && node.is_external && node.external_kind === null) {
    return {
      error: 'validation_error',
      field: 'external_kind',
      message: 'an external behavior node requires external_kind',
    };
  }
  if (node.kind === 'io' && node.ports.inputs.length + node.ports.outputs.length !== 1) {
    return {
      error: 'io_port_shape',
      field: node.ports.inputs.length > 0 ? 'inputs' : 'outputs',
      message:
        'an io node carries exactly one port, on one side: an output (source) or an input (sink)',
    };
  }
  return null;
}
