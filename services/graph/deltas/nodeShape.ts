/**
 * Checks a node as it would be after a delta: the kind rules of the node model
 * (shared/model/kindRules.ts) and the port rules (port ids and non-empty port names
 * unique on the node). Pure: the caller supplies the merged state and a function
 * that turns a field name into its path in the request.
 */
import { quote } from '../../../shared/text/clip';
import { kindProblem } from '../../../shared/model/kindRules';
import { CHANNELS, NodeState } from '../../../shared/model/nodeModel';
import { deltaError } from './deltaErrors';
import type { ReaderContext } from './fieldReader';

export type { NodeState } from '../../../shared/model/nodeModel';

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
  const problem = kindProblem(state);
  if (problem) fail(problem.error, problem.field, problem.message);
  const ids = new Set<string>();
  const names = new Set<string>();
  for (const channel of CHANNELS) {
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
