/**
 * The top-level read (getTopLevel) through HTTP: the parentless nodes of a branch
 * with their ports, the wires among them and the wires leaving them, paths, the
 * same 404 as a missing branch for a branch the caller cannot see. Every response
 * is checked against the OpenAPI document by the client.
 */
import { expect } from 'chai';
import { uuid, workspace, Workspace } from './support/graphBuilders';
import { grant, newUser } from './support/harness';
import { build, Built, expectNotFound, ids, wire } from './support/scopedReadSupport';

describe('scoped reads: top level (getTopLevel)', function () {
  this.timeout(60_000);
  let w: Workspace;
  let n: Record<'app' | 'core' | 'step' | 'db' | 'cli', Built>;
  const top = (branchId: string, user = w.user) =>
    user.api.get(`/v1/branches/${branchId}/top-level`);
  const wires = { appToDb: uuid(), dbToCli: uuid(), stepToDb: uuid(), coreToStep: uuid() };

  before(async () => {
    w = await workspace(await newUser());
    n = await build(w, [
      ['app', 'app', null, 'boundary'],
      ['core', 'core', 'app', 'boundary'],
      ['step', 'step', 'core'],
      ['db', 'db', null],
      ['cli', 'cli', null],
    ]);
    await w.apply([
      wire(n.app, n.db, wires.appToDb),
      wire(n.db, n.cli, wires.dbToCli),
      wire(n.step, n.db, wires.stepToDb),
      wire(n.core, n.step, wires.coreToStep),
    ]);
  });

  it('answers the parentless nodes with their ports, the wires among them and those leaving them', async () => {
    const res = await top(w.branchId);
    expect(res.status).to.equal(200);
    const body = res.body;
    expect(body.branch).to.deep.equal({ id: w.branchId, version: w.version });
    expect(body.project_id).to.equal(w.projectId);
    expect(body.nodes.map((x: { id: string }) => x.id)).to.deep.equal(ids([n.app, n.db, n.cli]));
    const app = body.nodes.find((x: { id: string }) => x.id === n.app.id);
    expect(app).to.deep.include({ kind: 'boundary', parent_id: null });
    expect(app.data.outputs.map((p: { id: string }) => p.id)).to.deep.equal([n.app.out.id]);
    expect(ids(body.edges)).to.deep.equal([wires.appToDb, wires.dbToCli].sort());
    // step -> db: db is top level, step is inside app; core -> step touches no top-level node
    expect(ids(body.cross_boundary_edges)).to.deep.equal([wires.stepToDb]);
    expect(body.paths).to.deep.equal({ [n.app.id]: 'app', [n.db.id]: 'db', [n.cli.id]: 'cli' });
    expect(body.unaddressable).to.deep.equal({});
  });

  it('reads main too, by branch id and by project id (getMainTopLevel): empty before any merge', async () => {
    const res = await top(w.mainId);
    expect(res.status).to.equal(200);
    expect(res.body.nodes).to.deep.equal([]);
    expect(res.body.edges).to.deep.equal([]);
    const byProject = await w.user.api.get(`/v1/graph/${w.projectId}/top-level`);
    expect(byProject.status).to.equal(200);
    expect(byProject.body).to.deep.equal(res.body);
    expect(byProject.body.branch.id).to.equal(w.mainId);
  });

  it('getMainTopLevel shows main to a viewer member and is a 404 to a non-member', async () => {
    const viewer = await newUser({ scopes: [] });
    expectNotFound(await viewer.api.get(`/v1/graph/${w.projectId}/top-level`));
    await grant(w.projectId, viewer, 'viewer');
    const res = await viewer.api.get(`/v1/graph/${w.projectId}/top-level`);
    expect(res.status).to.equal(200);
    expect(res.body.branch.id).to.equal(w.mainId);
    expectNotFound(await w.user.api.get(`/v1/graph/${uuid()}/top-level`));
  });

  it('is the same 404 as a missing branch for another user and for an unknown id', async () => {
    expectNotFound(await top(w.branchId, await newUser()));
    expectNotFound(await top(uuid()));
  });
});
