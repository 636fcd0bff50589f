/**
 * A graph file read from a stream of text (graphctl import reads it from disk this way):
 * its nodes and edges are taken element by element (shared/text/jsonObjectStream.ts), so
 * the file's text is never held whole, only the elements read so far; and the file is
 * refused as soon as it holds more nodes or wires than a branch may (BRANCH_MAX_NODES,
 * BRANCH_MAX_WIRES), before the rest is read. What is kept is therefore bounded by the
 * configured quotas, not by the file's size. The answer is the file as readGraphFile
 * takes it (the same checks follow).
 */
import type { Config } from '../../shared/config/config';
import { InvalidInputError } from '../../shared/errors/domainErrors';
import { JsonStreamError, readObjectStream } from '../../shared/text/jsonObjectStream';
import { requireWithinQuota } from '../graph';

/** How many elements are read between two reports of how far the reading is. */
const REPORT_EVERY = 100_000;

export async function readGraphFileStream(
  chunks: AsyncIterable<string>,
  quotas: Config['quotas'],
  reading: (read: { nodes: number; edges: number }) => void = () => {},
): Promise<Record<string, unknown>> {
  const nodes: unknown[] = [];
  const edges: unknown[] = [];
  const none = { nodes: 0, edges: 0, bytes: 0 };
  let top: Record<string, unknown>;
  try {
    top = await readObjectStream(chunks, {
      streamed: new Set(['nodes', 'edges']),
      onElement: (key, element) => {
        const list = key === 'nodes' ? nodes : edges;
        list.push(element);
        if (nodes.length > quotas.maxNodes || edges.length > quotas.maxWires)
          requireWithinQuota(quotas, none, { nodes: nodes.length, edges: edges.length, bytes: 0 });
        if (list.length % REPORT_EVERY === 0) reading({ nodes: nodes.length, edges: edges.length });
      },
    });
  } catch (error) {
    if (error instanceof JsonStreamError)
      throw new InvalidInputError('invalid_json', `the file is not JSON: ${error.message}`);
    throw error;
  }
  requireWithinQuota(quotas, none, { nodes: nodes.length, edges: edges.length, bytes: 0 });
  reading({ nodes: nodes.length, edges: edges.length });
  // a streamed key was an array (its elements are the lists), or is answered as it was
  return {
    ...top,
    ...(Array.isArray(top.nodes) ? { nodes } : {}),
    ...(Array.isArray(top.edges) ? { edges } : {}),
  };
}
