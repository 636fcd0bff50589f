/**
 * Parsed deltas back to their wire shape (the Delta schema): what the change trail
 * records for a batch after parse-time normalisation (empty strings of nullable
 * fields already null, uuids lower case, unknown keys dropped), never the body as
 * sent; how the trail presents it, and how a merge records the branch's deltas on
 * main. Key presence in node data is kept.
 */
import type { components } from '../../../shared/api/openapi.generated';
import type { Delta } from './deltaTypes';
import { deltaError } from './deltaErrors';
import { parseDeltaBatch } from './parseDeltas';

export type WireDelta = components['schemas']['Delta'];

export function toWireDelta(delta: Delta): WireDelta {
  switch (delta.type) {
    case 'add_node':
      return {
        type: delta.type,
        node: {
          id: delta.node.id,
          kind: delta.node.kind,
          parent_id: delta.node.parent_id,
          data: delta.node.data as components['schemas']['NodeData'],
        },
      };
    case 'update_node_data':
      return {
        type: delta.type,
        node_id: delta.node_id,
        after: delta.after as components['schemas']['NodeData'],
      };
    case 'reparent_node':
      return { type: delta.type, node_id: delta.node_id, parent_id: delta.parent_id };
    case 'add_edge':
      return { type: delta.type, edge: { ...delta.edge } };
    case 'delete_edge':
      return { type: delta.type, edge_id: delta.edge_id };
    default:
      return { type: delta.type, node_id: delta.node_id };
  }
}

/** The JSON text a batch is recorded as: its parsed deltas in wire shape. */
export function recordedText(deltas: Delta[]): string {
  return JSON.stringify(deltas.map(toWireDelta));
}

/**
 * The size in bytes of recordedText(deltas), without building the text: a large
 * import's deltas would make a text longer than one string may be.
 */
export function recordedBytes(deltas: readonly Delta[]): number {
  let bytes = 2; // the brackets
  for (const d of deltas) bytes += Buffer.byteLength(JSON.stringify(toWireDelta(d)));
  return bytes + Math.max(0, deltas.length - 1); // the commas
}

/**
 * A batch's recorded text and its size, refused (422 batch_too_large) above
 * `maxBytes`: what one batch adds to the change trail is bounded.
 */
export function recordBatchText(
  deltas: Delta[],
  maxBytes: number,
): { text: string; bytes: number } {
  const text = recordedText(deltas);
  const bytes = Buffer.byteLength(text);
  if (bytes > maxBytes) {
    throw deltaError({
      error: 'batch_too_large',
      field: 'deltas',
      message: `the batch would record ${bytes} bytes on the change trail; at most ${maxBytes} per batch (split it)`,
    });
  }
  return { text, bytes };
}

/**
 * Parses a recorded batch (JSON text of its deltas; batches recorded before the
 * trail held parsed deltas hold the body as sent). It parsed when it was applied,
 * so it parses again; the indexes are those of the recorded batch.
 */
export function parseRecordedDeltas(text: string | null): Delta[] {
  const raw = text ? (JSON.parse(text) as unknown) : [];
  return parseDeltaBatch(
    { deltas: raw },
    { maxDeltas: Number.MAX_SAFE_INTEGER, requireVersion: false },
  ).deltas;
}
