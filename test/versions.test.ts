/**
 * Reads at a version (the `version` query parameter) through HTTP: every graph read of
 * a branch or of main answers, at an earlier version, exactly what it answered when
 * that version was the head; a version the line never had is 404 version_not_found
 * naming the readable range; a pinned read does not move while batches land; and a
 * pinned read shows nodes at their current positions (positions are not history).
 * Every response is checked against the OpenAPI document by the client.
 */
import { expect } from 'chai';
import type { ApiResponse } from './support/client';
import { addEdge, addNode, port, uuid, workspace, Workspace } from './support/graphBuilders';
import { newUser, TestUser } from './support/harness';
import { mergeProject } from './support/mergeWorkspace';

type Api = TestUser['api'];

/** A read's answer without the BranchRef, which always names the branch's head. */
interface Answer {
  status: number;
  body: unknown;
}

function answerOf(res: ApiResponse): Answer {
  const body = { ...(res.body as Record<string, unknown>) };
  delete body.branch;
  return { status: res.status, body };
}

const at = (path: string, version?: number | string) =>
  version === undefined ? path : `${path}${path.includes('?') ? '&' : '?'}version=${version}`;

/** Reads every path (optionally at a version) and returns the answers by path. */
async function readAll(
  api: Api,
  paths: string[],
  version?: number | string,
): Promise<Map<string, Answer>> {
  const out = new Map<string, Answer>();
  for (const path of paths) out.set(path, answerOf(await api.get(at(path, version))));
  return out;
}

function expectSame(pinned: Map<string, Answer>, head: Map<string, Answer>, where: string): void {
  for (const [path, answer] of head) {
    expect(pinned.get(path), `${where}: ${path}`).to.deep.equal(answer);
  }
}

function expectVersionNotFound(res: ApiResponse, newest: number, where: string): void {
  expect(res.status, `${where}: ${JSON.stringify(res.body)}`).to.equal(404);
  expect(res.body.detail, where).to.deep.include({
    code: 'version_not_found',
    oldest: 0,
    newest,
  });
  expect(res.body.detail.message, where).to.be.a('string');
}

describe('reads at a version (?version=)', function () {
  this.timeout(240_000); // many HTTP writes and reads per case on a shared machine

  describe('a branch with three batches', () => {
    let w: Workspace;
    const box = uuid();
    const inner = uuid();
    const top = uuid();
    const second = uuid();
    const out = port('out');
    const inp = port('in');
    let paths: string[];
    /** What each read answered when version k was the head. */
    const heads: Map<string, Answer>[] = [];

    before(async () => {
      w = await workspace(await newUser());
      const b = `/v1/branches/${w.branchId}`;
      paths = [
        `${b}/graph`,
        `${b}/subtree/${box}?depth=2`,
        `${b}/node/${inner}`,
        `${b}/top-level`,
        `${b}/nodes/search?q=in`,
      ];
      heads.push(await readAll(w.user.api, paths));
      await w.apply([
        addNode({ id: box, kind: 'boundary', data: { name: 'box' } }),
        addNode({ id: inner, parent_id: box, data: { name: 'inner', outputs: [out] } }),
        addNode({ id: top, data: { name: 'top', inputs: [inp] } }),
      ]);
      heads.push(await readAll(w.user.api, paths));
      await w.apply([
        addEdge(out.id, inp.id),
        { type: 'update_node_data', node_id: inner, after: { name: 'inner2' } },
      ]);
      heads.push(await readAll(w.user.api, paths));
      await w.apply([
        { type: 'delete_node', node_id: top },
        addNode({ id: second, parent_id: box, data: { name: 'second inner' } }),
      ]);
      heads.push(await readAll(w.user.api, paths));
      expect(w.version).to.equal(3);
    });

    it('answers at versions 0..3 what each read answered when that version was the head', async () => {
      for (let version = 0; version <= 3; version += 1) {
        expectSame(await readAll(w.user.api, paths, version), heads[version]!, `v${version}`);
      }
      // the answers did change from version to version (the comparison is not vacuous)
      const full = paths[0]!;
      const names = (k: number) =>
        (heads[k]!.get(full)!.body as any).nodes.map((n: any) => n.data.name).sort();
      expect(names(0)).to.deep.equal([]);
      expect(names(1)).to.deep.equal(['box', 'inner', 'top']);
      expect(names(2)).to.deep.equal(['box', 'inner2', 'top']);
      expect(names(3)).to.deep.equal(['box', 'inner2', 'second inner']);
      expect((heads[1]!.get(full)!.body as any).edges).to.deep.equal([]);
      expect((heads[2]!.get(full)!.body as any).edges).to.have.length(1);
      expect((heads[3]!.get(full)!.body as any).edges).to.deep.equal([]);
      expect(heads[0]!.get(paths[1]!)!.status).to.equal(404);
      expect(heads[1]!.get(paths[2]!)!.body).to.deep.include({ edges: [], neighbors: [] });
      expect((heads[2]!.get(paths[2]!)!.body as any).neighbors[0].id).to.equal(top);
    });

    it('answers the head without a version and with version = the head alike', async () => {
      expectSame(await readAll(w.user.api, paths, 3), await readAll(w.user.api, paths), 'head');
    });

    it('answers 404 version_not_found above the head, naming the readable range', async () => {
      for (const path of paths) {
        expectVersionNotFound(await w.user.api.get(at(path, 4)), 3, path);
      }
    });

    it('refuses a negative or non-integer version as a malformed request', async () => {
      for (const version of [-1, 'x', 1.5]) {
        const res = await w.user.api.get(at(paths[0]!, version));
        expect(res.status, `${version}: ${JSON.stringify(res.body)}`).to.equal(422);
      }
    });

    it('still answers 404 not_found for a missing node at a readable version', async () => {
      const res = await w.user.api.get(`/v1/branches/${w.branchId}/node/${uuid()}?version=1`);
      expect(res.status).to.equal(404);
      expect(res.body.detail.code).to.equal('not_found');
    });
  });

  it('reads main at earlier versions after two merges', async () => {
    const p = await mergeProject(await newUser());
    const box = uuid();
    const inner = uuid();
    const top = uuid();
    const g = `/v1/graph/${p.projectId}`;
    const paths = [g, `${g}/boundary/${box}`, `${g}/top-level`, `${g}/nodes/search?q=o`];
    const heads = new Map<number, Map<string, Answer>>();
    const mainVersion = async () => (await p.main()).branch.version as number;
    heads.set(await mainVersion(), await readAll(p.user.api, paths));

    const first = await p.fork();
    await first.apply([
      addNode({ id: box, kind: 'boundary', data: { name: 'box' } }),
      addNode({ id: inner, parent_id: box, data: { name: 'inner' } }),
      addNode({ id: top, data: { name: 'top' } }),
    ]);
    await first.mergeOk();
    heads.set(await mainVersion(), await readAll(p.user.api, paths));
    const early = await p.fork(); // its base is main at version 1
    const mainAtOne = await p.main();

    const second = await p.fork();
    await second.apply([
      { type: 'update_node_data', node_id: inner, after: { name: 'core' } },
      { type: 'delete_node', node_id: top },
    ]);
    await second.mergeOk();
    const head = await mainVersion();
    heads.set(head, await readAll(p.user.api, paths));
    expect([...heads.keys()]).to.deep.equal([0, 1, 2]);

    for (const [version, answers] of heads) {
      expectSame(await readAll(p.user.api, paths, version), answers, `main v${version}`);
    }
    const boundaryAt = (k: number) => heads.get(k)!.get(paths[1]!)!;
    expect(boundaryAt(0).status).to.equal(404);
    expect((boundaryAt(1).body as any).children.map((c: any) => c.data.name)).to.deep.equal([
      'inner',
    ]);
    expect((boundaryAt(2).body as any).children.map((c: any) => c.data.name)).to.deep.equal([
      'core',
    ]);
    // a branch forked between the merges still reads main as it was at its base
    expect((await early.graph()).nodes).to.deep.equal(mainAtOne.nodes);
    const mainAtOnePinned = await p.user.api.get(`${g}?version=1`);
    expect(mainAtOnePinned.body.nodes).to.deep.equal(mainAtOne.nodes);
    for (const path of paths) {
      expectVersionNotFound(await p.user.api.get(at(path, head + 1)), head, path);
    }
    expectVersionNotFound(
      await p.user.api.get(`/v1/branches/${p.mainId}/graph?version=${head + 5}`),
      head,
      'main through its branch id',
    );
  });

  it('keeps a pinned read stable while new batches land', async () => {
    const w = await workspace(await newUser());
    const box = uuid();
    await w.apply([
      addNode({ id: box, kind: 'boundary', data: { name: 'box' } }),
      addNode({ parent_id: box, data: { name: 'one' } }),
    ]);
    const b = `/v1/branches/${w.branchId}`;
    const paths = [`${b}/graph`, `${b}/subtree/${box}?depth=3`, `${b}/top-level`];
    const pinned = await readAll(w.user.api, paths, 1);
    expectSame(pinned, await readAll(w.user.api, paths), 'v1 at the head');

    let writing = true;
    const writer = (async () => {
      try {
        for (let k = 0; k < 4; k += 1) {
          await w.apply([addNode({ parent_id: box, data: { name: `later ${k}` } })]);
        }
      } finally {
        writing = false;
      }
    })();
    let reads = 0;
    while (writing || reads < 3) {
      expectSame(await readAll(w.user.api, paths, 1), pinned, `pinned read ${reads}`);
      reads += 1;
    }
    await writer;
    expect(w.version).to.equal(5);
    expect((await w.graph()).nodes).to.have.length(6);
    expectSame(await readAll(w.user.api, paths, 1), pinned, 'after the writes');
  });

  it('shows the nodes of a pinned read at their current positions', async () => {
    const w = await workspace(await newUser());
    const box = uuid();
    const child = uuid();
    const gone = uuid();
    await w.apply([
      addNode({ id: box, kind: 'boundary', data: { name: 'box' } }),
      addNode({ id: child, parent_id: box, data: { name: 'child' } }),
      addNode({ id: gone, data: { name: 'gone' } }),
    ]);
    await w.apply([{ type: 'update_node_data', node_id: child, after: { name: 'renamed' } }]);
    const moved = await w.post([], {
      positions: { [child]: { x: 7, y: -2 }, [box]: { x: 1, y: 2 }, [gone]: { x: 5, y: 5 } },
    });
    expect(moved.status, JSON.stringify(moved.body)).to.equal(200);
    expect(w.version).to.equal(2);
    await w.apply([{ type: 'delete_node', node_id: gone }]);

    const b = `/v1/branches/${w.branchId}`;
    const full = await w.user.api.get(`${b}/graph?version=1`);
    const byId = new Map((full.body.nodes as any[]).map((n) => [n.id, n]));
    expect(byId.get(child).data.name).to.equal('child');
    expect(byId.get(child).position).to.deep.equal({ x: 7, y: -2 });
    expect(byId.get(box).position).to.deep.equal({ x: 1, y: 2 });
    // a node gone since keeps the position of the record read
    expect(byId.get(gone).position).to.deep.equal({ x: 5, y: 5 });
    // the pinned full read is streamed as the head's is
    expect(full.headers.get('transfer-encoding')).to.equal('chunked');
    const subtree = await w.user.api.get(`${b}/subtree/${box}?version=1`);
    expect(subtree.body.root.position).to.deep.equal({ x: 1, y: 2 });
    expect(subtree.body.nodes[0].data.name).to.equal('child');
    expect(subtree.body.nodes[0].position).to.deep.equal({ x: 7, y: -2 });
    const neighborhood = await w.user.api.get(`${b}/node/${child}?version=1`);
    expect(neighborhood.body.node.data.name).to.equal('child');
    expect(neighborhood.body.node.position).to.deep.equal({ x: 7, y: -2 });
    const top = await w.user.api.get(`${b}/top-level?version=1`);
    const tops = new Map((top.body.nodes as any[]).map((n) => [n.id, n.position]));
    expect(tops.get(box)).to.deep.equal({ x: 1, y: 2 });
    expect(tops.get(gone)).to.deep.equal({ x: 5, y: 5 });
    // at the head the same reads answer the records as they are
    const headTop = await w.user.api.get(`${b}/top-level?version=${w.version}`);
    expect(headTop.body.nodes.map((n: any) => n.id)).to.deep.equal([box]);
    expect(headTop.body.nodes[0].position).to.deep.equal({ x: 1, y: 2 });
  });

  it('shows the nodes of a pinned boundary view and neighborhood of main at their current positions', async () => {
    const p = await mergeProject(await newUser());
    const box = uuid();
    const inner = uuid();
    const peer = uuid();
    const [innerOut, peerIn] = [uuid(), uuid()];
    const first = await p.fork();
    await first.apply([
      addNode({ id: box, kind: 'boundary', data: { name: 'box' } }),
      addNode({
        id: inner,
        parent_id: box,
        data: { name: 'inner', outputs: [{ id: innerOut, name: 'o', type: 'int' }] },
      }),
      addNode({
        id: peer,
        data: { name: 'peer', inputs: [{ id: peerIn, name: 'i', type: 'int' }] },
      }),
      addEdge(innerOut, peerIn),
    ]);
    await first.mergeOk();
    const second = await p.fork();
    await second.apply([{ type: 'update_node_data', node_id: inner, after: { name: 'core' } }], {
      positions: { [inner]: { x: 3, y: 4 }, [box]: { x: -1, y: 9 }, [peer]: { x: 6, y: 0 } },
    });
    await second.mergeOk();
    const g = `/v1/graph/${p.projectId}`;
    const boundary = await p.user.api.get(`${g}/boundary/${box}?version=1`);
    expect(boundary.status, JSON.stringify(boundary.body)).to.equal(200);
    expect(boundary.body.boundary.position).to.deep.equal({ x: -1, y: 9 });
    expect(boundary.body.children.map((c: any) => [c.data.name, c.position])).to.deep.equal([
      ['inner', { x: 3, y: 4 }],
    ]);
    const around = await p.user.api.get(`/v1/branches/${p.mainId}/node/${inner}?version=1`);
    expect(around.body.node.data.name).to.equal('inner');
    expect(around.body.node.position).to.deep.equal({ x: 3, y: 4 });
    expect(around.body.neighbors.map((n: any) => [n.id, n.position])).to.deep.equal([
      [peer, { x: 6, y: 0 }],
    ]);
  });
});
