/**
 * 422s of the graph file: the file is validated like one batch of add_node deltas followed by
 * add_edge deltas, so its errors are the per-delta envelope, with field paths and indexes that
 * point into the file:
 * `nodes[2].data.name`, `edges[0].source_handle`, delta_index = the position in
 * that list.
 */
import { DeltaError } from '../../shared/errors/domainErrors';
import { deltaError } from '../graph';

/** A file-level validation_error at `field` (e.g. `nodes`, `nodes[3].position`). */
export function fileError(
  field: string,
  message: string,
  item: { index: number; type: 'add_node' | 'add_edge'; entityId?: string | null } | null = null,
): DeltaError {
  return deltaError({
    error: 'validation_error',
    message,
    field,
    index: item?.index ?? null,
    type: item?.type ?? null,
    entityId: item?.entityId ?? null,
  });
}

/**
 * Rewrites an error of the synthetic batch (nodes then edges, indexed in file
 * order) into file terms: `deltas[5].node.data.name` -> `nodes[5].data.name`,
 * `deltas[7].edge.id` -> `edges[1].id` with 6 nodes.
 */
export function inFileTerms(error: DeltaError, nodeCount: number): DeltaError {
  const envelope = error.envelope;
  const i = envelope.delta_index;
  if (i === null) return error;
  const isNode = i < nodeCount;
  const j = isNode ? i : i - nodeCount;
  const list = isNode ? 'nodes' : 'edges';
  const inner = isNode ? 'node' : 'edge';
  const field =
    envelope.field === null
      ? null
      : envelope.field.replace(
          new RegExp(`^deltas\\[${i}\\](\\.${inner}(?=\\.|$))?`),
          `${list}[${j}]`,
        );
  return new DeltaError({ ...envelope, field, delta_index: j });
}
