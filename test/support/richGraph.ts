/** A graph for the graph file's tests that exercises every part of the file but positions. */
import { addEdge, addNode, port, uuid } from './graphBuilders';

/**
 * A graph with every kind, nesting, ports of all channels and a dangling wire, as the
 * deltas of one batch; positions are not deltas, so a test sets them beside the batch.
 */
export function richGraph() {
  const [app, worker, store, sink, api] = [uuid(), uuid(), uuid(), uuid(), uuid()];
  const [out, cfg, read, write, sinkIn, apiIn, workerIn] = [
    port('out', 'str'),
    port('cfg', 'int'),
    port('read', 'str'),
    port('write', 'str'),
    port('sink', 'str'),
    port('req', 'str'),
    port('in', 'str'),
  ];
  const deltas = [
    addNode({ id: worker, parent_id: app, data: { name: 'worker', aliases: ['w', 'wk'] } }),
    addNode({
      id: app,
      kind: 'boundary',
      data: { name: 'app', user_kind: 'service', path_prefix: 'src/app', language: 'go' },
    }),
    addNode({
      id: store,
      kind: 'state',
      data: { name: 'store', user_kind: 'kv', outputs: [read], inputs: [write] },
    }),
    addNode({ id: sink, kind: 'io', data: { name: 'sink', inputs: [sinkIn] } }),
    addNode({
      id: api,
      kind: 'interface',
      data: {
        name: 'api',
        inputs: [{ ...apiIn, external: true, contract_name: 'Request' }],
        verifications: [{ id: uuid(), author: 'user', text: 'answers', type: 'smoke' }],
      },
    }),
    {
      type: 'update_node_data',
      node_id: worker,
      after: {
        description: 'does work',
        inputs: [workerIn],
        outputs: [out],
        config: [cfg],
        constraints: ['fast'],
        status: 'running',
        is_test_node: true,
        is_external: true,
        external_kind: 'saas',
        protocol: 'https',
        documentation_url: 'https://example.invalid/doc',
        source_decisions: [],
      },
    },
    addEdge(out.id, sinkIn.id),
    addEdge(read.id, workerIn.id),
    addEdge(uuid(), write.id), // dangling source handle: committed
  ];
  return { deltas, ids: { app, worker, store, sink, api } };
}
