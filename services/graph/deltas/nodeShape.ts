/**
 * The node-kind field matrix and port rules, checked on the node as it would be after a delta.
 * Pure: the caller supplies the merged state and a function that turns a field name into its path
 * in the request.
 */
import { quote } from '../../../shared/text/clip';
import type { Channel, NodeKind } from '../graphRecords';
import { deltaError } from './deltaErrors';
import { PORT_CHANNELS } from './deltaTypes';
import type { ReaderContext } from './fieldReader';

export interface FullPort {
  id: string;
  name: string;
  type: string;
  description: string;
  external: boolean;
  contract_name: string | null;
}

export interface NodeState {
  kind: NodeKind;
  name: string;
  aliases: string[];
  description: string;
  constraints: string[];
  verifications: { id: string; author: 'user' | 'agent'; text: string; type: string | null }[];
  is_test_node: boolean;
  status: string;
  user_kind: string | null;
  path_prefix: string | null;
  language: string | null;
  is_external: boolean;
  external_kind: string | null;
  protocol: string | null;
  documentation_url: string | null;
  source_decisions: string[];
  ports: Record<Channel, FullPort[]>;
}

type Rule = { field: keyof NodeState | Channel; allowed: (s: NodeState) => boolean; why: string };

const MAY_BE_EXTERNAL: ReadonlySet<NodeKind> = new Set(['behavior', 'boundary']);

const RULES: Rule[] = [
  {
    field: 'user_kind',
    allowed: (s) => s.kind === 'boundary' || s.kind === 'state' || s.user_kind === null,
    why: 'only boundary and state nodes carry user_kind',
  },
  {
    field: 'path_prefix',
    allowed: (s) => s.kind === 'boundary' || s.path_prefix === null,
    why: 'only boundary nodes carry path_prefix',
  },
  {
    field: 'language',
    allowed: (s) => s.kind === 'boundary' || s.language === null,
    why: 'only boundary nodes carry language',
  },
  {
    field: 'config',
    allowed: (s) => (s.kind !== 'state' && s.kind !== 'io') || s.ports.config.length === 0,
    why: 'state and io nodes have no config ports',
  },
  {
    field: 'verifications',
    allowed: (s) => s.kind === 'behavior' || s.kind === 'interface' || s.verifications.length === 0,
    why: 'only behavior and interface nodes carry verifications',
  },
  {
    field: 'is_external',
    allowed: (s) => MAY_BE_EXTERNAL.has(s.kind) || !s.is_external,
    why: 'only behavior and boundary nodes may be external',
  },
  {
    field: 'external_kind',
    allowed: (s) => (s.is_external && s.kind === 'behavior') || s.external_kind === null,
    why: 'external_kind is for external behavior nodes only',
  },
  {
    field: 'protocol',
    allowed: (s) => (s.is_external && s.kind === 'behavior') || s.protocol === null,
    why: 'protocol is for external behavior nodes only',
  },
];

export function checkNodeShape(
  state: NodeState,
  ctx: ReaderContext,
  pathOf: (field: string) => string,
): void {
  const fail = (error: string, field: string, message: string): never => {
    throw deltaError({
      error,
      message,
      field: pathOf(field),
      index: ctx.index,
      type: ctx.type,
      entityId: ctx.entityId,
    });
  };
  for (const rule of RULES) {
    if (!rule.allowed(state))
      fail(
        'field_not_allowed',
        rule.field,
        `${rule.why} (this node is ${state.is_external ? 'an external' : 'an internal'} ${state.kind})`,
      );
  }
  if (state.kind === 'behavior' && state.is_external && state.external_kind === null) {
    fail('validation_error', 'external_kind', 'an external behavior node requires external_kind');
  }
  if (state.kind === 'io') {
    const sides = state.ports.inputs.length + state.ports.outputs.length;
    if (sides !== 1) {
      fail(
        'io_port_shape',
        state.ports.inputs.length > 0 ? 'inputs' : 'outputs',
        'an io node carries exactly one port, on one side: an output (source) or an input (sink)',
      );
    }
  }
  const ids = new Set<string>();
  const names = new Set<string>();
  for (const channel of PORT_CHANNELS) {
    state.ports[channel].forEach((port, i) => {
      if (ids.has(port.id))
        fail(
          'id_collision',
          `${channel}[${i}].id`,
          `port id ${port.id} is used twice on this node`,
        );
      ids.add(port.id);
      if (port.name !== '') {
        if (names.has(port.name))
          fail(
            'duplicate_port_name',
            `${channel}[${i}].name`,
            `port name ${quote(port.name)} is used twice on this node`,
          );
        names.add(port.name);
      }
    });
  }
}
