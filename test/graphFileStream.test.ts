/**
 * The graph file written as a stream: read a page at a time at the export's fixed view
 * (pages of 2 rows here, so that every part of the file spans several pages), parents
 * before their children, the same file as the HTTP answer, and imported as the same
 * graph; a refused export still answers an error body.
 */
import { expect } from 'chai';
import { exportBranchFile } from '../services/graphfile/commands/exportBranchFile';
import {
  readLeafKindNodesWithPorts,
  readNodesWithPortsByIds,
  readParentKindNodeIds,
} from '../services/graph/store/graphReadQueries';
import { writeGraphFile } from '../services/graphfile/graphFileWriter';
import type { Executor } from '../shared/neo4j/executor';
import type { ServiceContext } from '../shared/http/serviceContext';
import { createLogger } from '../shared/logging/logger';
import { cypher } from '../shared/neo4j/namedQuery';
import { currentHarness, newUser, principalOf, TestUser } from './support/harness';
import { addEdge, addNode, port, uuid } from './support/graphBuilders';
import { content, mergeProject } from './support/mergeWorkspace';
import { expectIndexSeeksOnly } from './support/queryPlans';

const PARENT_KINDS = ['boundary', 'interface'];

function context(): ServiceContext {
  const { service, config } = currentHarness();
  return { executor: service.executor, config, logger: createLogger({ level: 'silent' }) };
}

/** An executor that counts the read transactions run through it (a page each). */
function countingExecutor(executor: Executor): { executor: Executor; reads: () => number } {
  let reads = 0;
  const counted = new Proxy(executor, {
    get(target, property) {
      const value = Reflect.get(target, property, target) as unknown;
      if (property !== 'readTx' || typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        reads += 1;
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { executor: counted, reads: () => reads };
}

/** The file of `branchId` written with pages of `pageSize` rows, as text. */
async function streamedFile(user: TestUser, branchId: string, pageSize: number, version?: number) {
  const file = await exportBranchFile(context(), principalOf(user), branchId, version);
  const { executor, reads } = countingExecutor(context().executor);
  let text = '';
  const counts = await writeGraphFile(
    executor,
    file,
    {
      async write(piece) {
        text += piece.toString();
      },
    },
    pageSize,
  );
  return { text, counts, reads: reads() };
}

/**
 * Main: boundaries three deep, an interface holding a behavior, leaves with ports of
 * every channel, wires between them. A working branch then removes, changes and moves
 * main's nodes and wires and adds nested nodes of its own.
 */
async function nestedBranch(user: TestUser) {
  const p = await mergeProject(user);
  const id = () => uuid();
  const [sys, core, deep1, deep2, api, handler, worker, store, sink, lonely, leaf] = Array.from(
    { length: 11 },
    id,
  );
  const [hIn, hOut, wIn, wOut, wCfg, sRead, kIn, kIn2, lIn] = Array.from({ length: 9 }, (_, i) =>
    port(`p${i}`, 'str'),
  );
  const [w1, w2, w3] = [id(), id(), id()];
  await p.seed([
    addNode({ id: sys, kind: 'boundary', data: { name: 'sys' } }),
    addNode({ id: core, kind: 'boundary', parent_id: sys, data: { name: 'core' } }),
    addNode({ id: deep1, kind: 'boundary', parent_id: core, data: { name: 'deep1' } }),
    addNode({ id: deep2, kind: 'boundary', parent_id: deep1, data: { name: 'deep2' } }),
    addNode({ id: api, kind: 'interface', parent_id: core, data: { name: 'api' } }),
    addNode({
      id: handler,
      parent_id: api,
      data: { name: 'handler', inputs: [hIn], outputs: [hOut] },
    }),
    addNode({
      id: worker,
      parent_id: core,
      data: { name: 'worker', aliases: ['w'], inputs: [wIn], outputs: [wOut], config: [wCfg] },
    }),
    addNode({
      id: store,
      kind: 'state',
      parent_id: sys,
      data: { name: 'store', outputs: [sRead] },
    }),
    addNode({ id: sink, data: { name: 'sink', inputs: [kIn, kIn2] } }),
    addNode({ id: lonely, data: { name: 'lonely' } }),
    addNode({ id: leaf, parent_id: deep2, data: { name: 'leaf', inputs: [lIn] } }),
    addEdge(hOut.id, wIn.id, w1),
    addEdge(wOut.id, kIn.id, w2),
    addEdge(sRead.id, lIn.id, w3),
  ]);
  const b = await p.fork();
  const [box, inner, added] = [id(), id(), id()];
  const addedOut = port('out', 'str');
  await b.apply(
    [
      { type: 'delete_node', node_id: lonely },
      { type: 'update_node_data', node_id: worker, after: { description: 'changed here' } },
      { type: 'reparent_node', node_id: store, parent_id: deep1 },
      { type: 'delete_edge', edge_id: w3 },
      addNode({ id: box, kind: 'boundary', parent_id: deep2, data: { name: 'box' } }),
      addNode({ id: inner, kind: 'boundary', parent_id: box, data: { name: 'inner' } }),
      addNode({ id: added, parent_id: inner, data: { name: 'added', outputs: [addedOut] } }),
      addEdge(addedOut.id, kIn2.id),
      addEdge(uuid(), hIn.id), // a dangling handle is exported as it is
    ],
    { positions: { [worker]: { x: 12.5, y: -3 }, [inner]: { x: 7, y: 8 } } },
  );
  return { p, b, ids: { sys, core, deep2, box, inner, added, lonely, worker } };
}

/** The order the file promises: parent kinds by depth then id, then the rest by id. */
function expectedOrder(nodes: { id: string; kind: string; parent_id: string | null }[]) {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const depth = (n: { parent_id: string | null }): number => {
    const parent = n.parent_id === null ? undefined : byId.get(n.parent_id);
    return parent ? depth(parent) + 1 : 0;
  };
  const code = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  const parents = nodes
    .filter((n) => PARENT_KINDS.includes(n.kind))
    .sort((a, b) => depth(a) - depth(b) || code(a.id, b.id));
  const others = nodes
    .filter((n) => !PARENT_KINDS.includes(n.kind))
    .sort((a, b) => code(a.id, b.id));
  return [...parents, ...others].map((n) => n.id);
}

describe('graph file as a stream', function () {
  this.timeout(90_000);

  it('pages of two rows write the file the HTTP export answers: parents first, the same graph', async () => {
    const user = await newUser();
    const { b, ids } = await nestedBranch(user);
    const http = await user.api.get(`/v1/branches/${b.id}/file`);
    expect(http.status).to.equal(200);
    expect(http.headers.get('content-type')).to.match(/^application\/json/);

    const paged = await streamedFile(user, b.id, 2);
    // 11 - 1 + 3 nodes (6 of a parent kind) and 2 - 1 + 2 wires, in pages of two
    expect(paged.counts).to.deep.equal({ nodes: 13, edges: 4 });
    expect(paged.reads).to.be.greaterThan(10);
    const file = JSON.parse(paged.text);
    expect(Object.keys(file)).to.deep.equal(['schema_version', 'project_name', 'nodes', 'edges']);
    expect(file).to.deep.equal(http.body);
    // the same bytes whatever the page size
    expect(paged.text).to.equal((await streamedFile(user, b.id, 1000)).text);

    const order = file.nodes.map((n: any) => n.id);
    expect(order).to.deep.equal(expectedOrder(file.nodes));
    for (const node of file.nodes)
      if (node.parent_id !== null)
        expect(order.indexOf(node.parent_id), node.data.name).to.be.lessThan(
          order.indexOf(node.id),
        );
    expect(order).to.not.include(ids.lonely);
    expect(Object.keys(file.nodes[0])).to.deep.equal([
      'id',
      'kind',
      'parent_id',
      'data',
      'position',
    ]);
    const worker = file.nodes.find((n: any) => n.id === ids.worker);
    expect(worker.data).to.deep.include({ description: 'changed here', aliases: ['w'] });
    expect(worker.position).to.deep.equal({ x: 12.5, y: -3 });
    expect(worker.data.config).to.have.length(1);
    expect(file.edges.map((e: any) => e.id)).to.deep.equal(
      [...file.edges.map((e: any) => e.id)].sort(),
    );
    expect(Object.keys(file.edges[0])).to.deep.equal(['id', 'source_handle', 'target_handle']);

    // the nodes and wires the full read of the branch shows, no more, no fewer
    const graph = await b.graph();
    const byId = (a: any, c: any) => (a.id < c.id ? -1 : 1);
    expect(
      [...file.nodes].sort(byId).map((n: any) => [n.id, n.parent_id, n.position]),
    ).to.deep.equal([...graph.nodes].sort(byId).map((n: any) => [n.id, n.parent_id, n.position]));
    expect(file.edges).to.deep.equal(
      graph.edges.map((e: any) => ({
        id: e.id,
        source_handle: e.source_handle,
        target_handle: e.target_handle,
      })),
    );

    // importing it gives the same graph, whose own file is the same file
    const other = await newUser();
    const imported = await other.api.post('/v1/projects/import', file);
    expect(imported.status, JSON.stringify(imported.body)).to.equal(201);
    const main = await other.api.get(`/v1/graph/${imported.body.project.id}`);
    expect(content(main.body)).to.deep.equal(content(graph));
    const again = await streamedFile(other, imported.body.main_branch.id, 2);
    expect(JSON.parse(again.text).nodes).to.deep.equal(file.nodes);
    expect(JSON.parse(again.text).edges).to.deep.equal(file.edges);
  });

  it('a pinned version streams that version, as the HTTP export at it answers', async () => {
    const user = await newUser();
    const { b, ids } = await nestedBranch(user);
    await b.apply([{ type: 'delete_node', node_id: ids.box }]);
    const before = await user.api.get(`/v1/branches/${b.id}/file?version=1`);
    expect(before.status).to.equal(200);
    const paged = await streamedFile(user, b.id, 2, 1);
    expect(JSON.parse(paged.text)).to.deep.equal(before.body);
    expect(before.body.nodes.map((n: any) => n.id)).to.include.members([ids.box, ids.added]);
    const head = await user.api.get(`/v1/branches/${b.id}/file`);
    expect(head.body.nodes.map((n: any) => n.id)).to.not.include.members([ids.box]);
    expect(head.body.nodes).to.have.length(before.body.nodes.length - 3);
  });

  it("plans the export's page statements with index seeks only", async () => {
    await expectIndexSeeksOnly([
      readParentKindNodeIds,
      readNodesWithPortsByIds,
      readLeafKindNodesWithPorts,
    ]);
  });

  it('a version not readable answers 404 version_not_found with its error body, before any file', async () => {
    const user = await newUser();
    const p = await mergeProject(user);
    await p.seed([addNode({ data: { name: 'n' } })]);
    const b = await p.fork();
    await b.apply([addNode({ data: { name: 'first' } })]);
    await b.apply([addNode({ data: { name: 'second' } })]);

    const later = await user.api.get(`/v1/branches/${b.id}/file?version=3`);
    expect(later.status).to.equal(404);
    expect(later.headers.get('content-type')).to.match(/^application\/json/);
    expect(later.body.detail).to.deep.include({ code: 'version_not_found', oldest: 0, newest: 2 });
    expect(later.body).to.not.have.property('nodes');

    // versions below the line's oldest kept one are no longer readable either
    await currentHarness().service.executor.write(
      cypher('testHistoryFloor', 'MATCH (b:Branch {id: $id}) SET b.history_floor = 1'),
      { id: b.id },
    );
    const gone = await user.api.get(`/v1/branches/${b.id}/file?version=0`);
    expect(gone.status).to.equal(404);
    expect(gone.body.detail).to.deep.include({ code: 'version_not_found', oldest: 1, newest: 2 });
    expect((await user.api.get(`/v1/branches/${b.id}/file?version=1`)).status).to.equal(200);

    const stranger = await newUser();
    const hidden = await stranger.api.get(`/v1/branches/${b.id}/file?version=1`);
    expect(hidden.status).to.equal(404);
    expect(hidden.body.detail.code).to.equal('not_found');
  });
});
