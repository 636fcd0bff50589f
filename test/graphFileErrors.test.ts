/** Bad graph files are refused with a clear 422 and nothing is created; graphctl export/import. */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { findUserByName } from '../services/identity/store/identityQueries';
import { currentHarness, newKeyFor, newUser, TestUser, uniqueName } from './support/harness';
import { addNode, uuid } from './support/graphBuilders';
import { mergeProject } from './support/mergeWorkspace';
import { graphctl, graphctlWith } from './support/graphctl';

async function projectCount(user: TestUser): Promise<number> {
  const res = await user.api.get('/v1/projects?include_archived=true&limit=200');
  return res.body.projects.length;
}

/** Posts a bad file and checks the 422 body, and that no project was created. */
async function refuse(file: unknown, check: (detail: any) => void, raw?: string) {
  const user = await newUser();
  const res = raw
    ? await user.api.post('/v1/projects/import', undefined, { raw })
    : await user.api.post('/v1/projects/import', file);
  expect(res.status, JSON.stringify(res.body)).to.equal(422);
  check(res.body.detail);
  expect(await projectCount(user)).to.equal(0);
}

const v6 = (nodes: unknown[], edges: unknown[] = [], extra: Record<string, unknown> = {}) => ({
  schema_version: 6,
  project_name: uniqueName('bad'),
  nodes,
  edges,
  ...extra,
});

describe('graph file refusals', function () {
  this.timeout(60_000);
  it('422 unsupported_schema_version for versions other than 3 to 6, or none', async () => {
    for (const version of [2, 7, '6', null]) {
      await refuse({ schema_version: version, project_name: 'x', nodes: [], edges: [] }, (d) => {
        expect(d).to.include({ code: 'unsupported_schema_version', schema_version: version });
        expect(d.supported).to.deep.equal([3, 4, 5, 6]);
      });
    }
    await refuse({ project_name: 'x', nodes: [], edges: [] }, (d) =>
      expect(d.code).to.equal('unsupported_schema_version'),
    );
  });

  it('422 per-delta envelopes with paths into the file', async () => {
    const a = uuid();
    await refuse(
      v6([
        { id: a, data: { name: 'x' } },
        { id: uuid(), data: { name: 'x' } },
      ]),
      (d) =>
        expect(d).to.include({
          error: 'duplicate_name',
          field: 'nodes[1].data.name',
          delta_index: 1,
        }),
    );
    await refuse(v6([{ id: a, parent_id: uuid() }]), (d) =>
      expect(d).to.include({ error: 'invalid_parent', field: 'nodes[0].parent_id' }),
    );
    await refuse(v6([{ id: a, position: { x: 'left' } }]), (d) =>
      expect(d).to.include({ error: 'validation_error', field: 'nodes[0].position' }),
    );
    await refuse(v6([{ id: 'not-a-uuid' }]), (d) =>
      expect(d).to.include({
        error: 'validation_error',
        field: 'nodes[0].id',
        delta_type: 'add_node',
      }),
    );
    await refuse(v6([{ id: a }], [{ id: a }]), (d) =>
      expect(d).to.include({
        error: 'id_collision',
        field: 'edges[0].id',
        delta_index: 0,
        delta_type: 'add_edge',
        recovery_hint: 'regenerate_uuid',
      }),
    );
    await refuse(
      v6([{ id: a, kind: 'state', data: { verifications: [], config: [{ id: uuid() }] } }]),
      (d) => expect(d).to.include({ error: 'field_not_allowed', field: 'nodes[0].data.config' }),
    );
    await refuse(v6('nodes' as never), (d) => expect(d).to.include({ field: 'nodes' }));
  });

  it('422 when a kind is newer than the file (no state before 4, no io before 5)', async () => {
    const io = { id: uuid(), kind: 'io', data: { name: 'sink', inputs: [{ id: uuid() }] } };
    await refuse({ schemaVersion: 4, projectName: 'x', nodes: [io], edges: [] }, (d) =>
      expect(d).to.include({ error: 'validation_error', field: 'nodes[0].kind' }),
    );
    const state = { id: uuid(), data: { kind: 'state' } };
    await refuse(
      { schemaVersion: 3, projectName: 'x', nodes: [addNode({}).node, state], edges: [] },
      (d) => expect(d).to.include({ field: 'nodes[1].data.kind' }),
    );
  });

  it('422 invalid_name for a missing or blank project_name; 422 (array form) for bad JSON', async () => {
    await refuse({ schema_version: 6, nodes: [], edges: [] }, (d) =>
      expect(d.code).to.equal('invalid_name'),
    );
    await refuse(v6([], [], { project_name: '  ' }), (d) =>
      expect(d.code).to.equal('invalid_name'),
    );
    await refuse(undefined, (d) => expect(d).to.be.an('array'), '{"schema_version": 6,');
  });

  it('403 without graph:write; 409 name_taken for a name the caller already uses', async () => {
    const user = await newUser();
    const file = v6([]);
    const readOnly = await newKeyFor(user, { scopes: [] });
    const denied = await readOnly.api.post('/v1/projects/import', file);
    expect(denied.status).to.equal(403);
    expect((await user.api.post('/v1/projects/import', file)).status).to.equal(201);
    const taken = await user.api.post('/v1/projects/import', file);
    expect(taken.status).to.equal(409);
    expect(taken.body.detail.code).to.equal('name_taken');
  });
});

describe('graphctl export / import', function () {
  this.timeout(90_000);
  /** The CLI's JSON answer, or its exit code and the JSON error line of stderr. */
  async function cli(...args: string[]) {
    return cliWith({}, ...args);
  }

  async function cliWith(env: Record<string, string>, ...args: string[]) {
    const outcome = await graphctlWith(env, ...args);
    if (outcome.code === 0) return { code: 0, out: JSON.parse(outcome.stdout), err: undefined };
    const line = outcome.stderr.split('\n').find((l) => l.startsWith('{'));
    return { code: outcome.code, out: null, err: line };
  }

  it('export --branch writes the file; import --file --user creates the project for that user', async () => {
    const owner = await newUser();
    const p = await mergeProject(owner);
    await p.seed([addNode({ data: { name: 'exported' } })]);
    const dir = mkdtempSync(join(tmpdir(), 'graphfile-'));
    const path = join(dir, 'main.json');
    const exported = await cli('export', '--branch', p.mainId, '--out', path);
    expect(exported.code, exported.err).to.equal(0);
    expect(exported.out).to.include({ branch_id: p.mainId, out: path, nodes: 1, edges: 0 });
    const file = JSON.parse(readFileSync(path, 'utf8'));
    expect(file.schema_version).to.equal(6);

    const printed = await cli('export', '--branch', p.mainId);
    expect(printed.out).to.deep.equal(file); // without --out the file is the output

    const importer = await newUser();
    const imported = await cli('import', '--file', path, '--user', importer.name);
    expect(imported.code, imported.err).to.equal(0);
    expect(imported.out.project.name).to.equal(file.project_name);
    const main = await importer.api.get(`/v1/graph/${imported.out.project.id}`);
    expect(main.body.nodes.map((n: any) => n.data.name)).to.deep.equal(['exported']);

    writeFileSync(path, JSON.stringify({ schema_version: 1 }));
    const bad = await cli('import', '--file', path, '--user', importer.name);
    expect(bad.code).to.equal(1);
    expect(JSON.parse(bad.err ?? '{}').error).to.equal('unsupported_schema_version');
    // a refused file creates nothing, not even the user it names
    const stranger = uniqueName('never-created');
    const refused = await cli('import', '--file', path, '--user', stranger);
    expect(refused.code).to.equal(1);
    const users = await currentHarness().service.executor.read(findUserByName, { name: stranger });
    expect(users).to.deep.equal([]);
    const missing = await cli('export', '--branch', uuid());
    expect(missing.code).to.equal(1);
  });

  it('import reads the file as a stream and reports its progress; a file that is not JSON, or holds more nodes than a branch may, creates nothing', async () => {
    const importer = await newUser();
    const dir = mkdtempSync(join(tmpdir(), 'graphfile-'));
    const path = join(dir, 'three.json');
    const names = ['a', 'b', 'c'];
    const file = v6(names.map((name) => ({ id: uuid(), kind: 'behavior', data: { name } })));
    writeFileSync(path, JSON.stringify(file, null, 2));
    const outcome = await graphctl('import', '--file', path, '--user', importer.name);
    expect(outcome.code, outcome.stderr).to.equal(0);
    const steps = outcome.stderr.split('\n').filter((l) => l.startsWith('import '));
    expect(steps.map((l) => l.replace(/^import \S+ /, ''))).to.deep.equal([
      'read: 3 nodes, 0 wires',
      // three nodes and their kept orphan_node findings (an import's touches are derived)
      'checked: 3 nodes, 0 wires; 6 records to write',
      'written: 6 of 6 records (100%)',
      'published: the project and its main',
    ]);
    const { project } = JSON.parse(outcome.stdout);
    const main = await importer.api.get(`/v1/graph/${project.id}`);
    expect(main.body.nodes.map((n: any) => n.data.name).sort()).to.deep.equal(names);

    writeFileSync(path, JSON.stringify(file).slice(0, -20));
    const cut = await cli('import', '--file', path, '--user', importer.name);
    expect(cut.code).to.equal(1);
    expect(JSON.parse(cut.err ?? '{}').error).to.equal('invalid_json');

    writeFileSync(path, JSON.stringify({ ...file, project_name: uniqueName('too-many') }));
    const over = await cliWith(
      { BRANCH_MAX_NODES: '2' },
      'import',
      '--file',
      path,
      '--user',
      importer.name,
    );
    expect(over.code).to.equal(1);
    expect(JSON.parse(over.err ?? '{}').error).to.equal('branch_quota_exceeded');
    expect(await projectCount(importer)).to.equal(1);
  });
});
