/**
 * The staged import (importProject of a file above the staging threshold): its records
 * written in chunks on a line no reader knows, while its content is checked, then
 * published at once; what the sweep of abandoned stages may and may not take; a refusal
 * found while writing leaves nothing behind.
 */
import { expect } from 'chai';
import { importProject } from '../services/graphfile/commands/importProject';
import { readGraphFile } from '../services/graphfile/graphFileReader';
import { importRecordsFirst, planImport } from '../services/graphfile/importPlan';
import { abortStage, stageContent } from '../services/graphfile/importStaging';
import type { ImportProgress } from '../services/graphfile/importStaging';
import { mainView } from '../services/graph';
import type { RecordsFirst } from '../services/graph';
import { sweepStages } from '../services/purge';
import { DeltaError, ServiceUnavailableError } from '../shared/errors/domainErrors';
import type { ServiceContext } from '../shared/http/serviceContext';
import { createLogger } from '../shared/logging/logger';
import { cypher } from '../shared/neo4j/namedQuery';
import { currentHarness, newUser, principalOf, uniqueName } from './support/harness';
import { uuid } from './support/graphBuilders';
import { hookedExecutor } from './support/hookedExecutor';
import { expectAgree } from './support/keptFindings';
import { mergeProject } from './support/mergeWorkspace';
import { richGraph } from './support/richGraph';

describe('graph file: staged import', function () {
  this.timeout(120_000);

  const lineRecords = cypher(
    'testLineRecords',
    `CALL () { MATCH (n:GNode {branch_id: $line}) RETURN count(n) AS nodes }
     CALL () { MATCH (s:VStage {line: $line}) RETURN count(s) AS stages }
     RETURN nodes + stages AS records`,
  );
  const staged = { stageAbove: 2, stageChunk: 2 };

  function context(): ServiceContext {
    const { service, config } = currentHarness();
    return { executor: service.executor, config, logger: createLogger({ level: 'silent' }) };
  }

  it('a large file is written in chunks and published at once: the same project as in one transaction', async () => {
    const user = await newUser();
    const p = await mergeProject(user);
    const b = await p.fork();
    const { deltas } = richGraph();
    await b.apply([deltas[1], deltas[0], ...deltas.slice(2)]);
    const file = (await user.api.get(`/v1/branches/${b.id}/file`)).body;
    const other = await newUser();
    const created = await importProject(context(), principalOf(other), file, staged);
    expect(created.main.version).to.equal(0);
    const again = await other.api.get(`/v1/branches/${created.main.id}/file`);
    expect(again.body).to.deep.equal(file);
    const rows = await currentHarness().service.executor.read<{ records: number }>(lineRecords, {
      line: created.main.id,
    });
    expect(rows[0]?.records).to.equal(file.nodes.length); // no stage left open
    await expectAgree(mainView(created.main.id, 0), 'a staged import');
  });

  /** A context whose executor runs `hook` just before its `atCall`-th write transaction. */
  function hookedContext(atCall: number, hook: () => Promise<void>): ServiceContext {
    const ctx = context();
    const executor = hookedExecutor(ctx.executor, atCall, hook);
    return { ...ctx, executor };
  }

  function namedNodes(count: number) {
    return Array.from({ length: count }, (_, i) => ({
      id: uuid(),
      kind: 'behavior',
      parent_id: null,
      data: { name: `n${i}` },
    }));
  }

  const stagesStartedAgo = cypher(
    'testStageStartedAgo',
    `MATCH (s:VStage {kind: 'import'}) WHERE s.started_at > $since
     SET s.started_at = $at
     RETURN s.line AS line`,
  );

  it('an import still writing is never swept, however long ago it started', async () => {
    const user = await newUser();
    const nodes = namedNodes(6);
    const file = { schema_version: 6, project_name: uniqueName('slow'), nodes, edges: [] };
    const { executor } = currentHarness().service;
    const since = new Date(Date.now() - 1000).toISOString();
    // after its first chunk: the import looks as if it had started two hours ago, and
    // the sweep runs
    const ctx = hookedContext(2, async () => {
      const aged = await executor.write(stagesStartedAgo, {
        since,
        at: new Date(Date.now() - 7_200_000).toISOString(),
      });
      expect(aged).to.have.length(1);
      await sweepStages(executor);
    });
    const created = await importProject(ctx, principalOf(user), file, staged);
    const main = await user.api.get(`/v1/graph/${created.project.id}`);
    expect(main.body.nodes.map((n: { id: string }) => n.id).sort()).to.deep.equal(
      nodes.map((n) => n.id).sort(),
    );
  });

  it('a stage the sweep took over is not published: 503, and nothing is created', async () => {
    const user = await newUser();
    const nodes = namedNodes(6);
    const file = { schema_version: 6, project_name: uniqueName('taken'), nodes, edges: [] };
    const { executor } = currentHarness().service;
    // after its first chunk the importer stalls past its lease (the sweep runs later than
    // any lease would last), and the sweep takes the stage for abandoned
    const ctx = hookedContext(2, async () => {
      await sweepStages(executor, Date.now() + 2 * 3_600_000);
    });
    let refused: unknown;
    try {
      await importProject(ctx, principalOf(user), file, staged);
    } catch (error) {
      refused = error;
    }
    expect(refused).to.be.instanceOf(ServiceUnavailableError);
    expect((await user.api.get('/v1/projects')).body.projects).to.deep.equal([]);
    const left = await executor.read<{ n: number }>(
      cypher('testTakenNodes', `MATCH (n:GNode) WHERE n.id IN $ids RETURN count(n) AS n`),
      { ids: nodes.map((n) => n.id) },
    );
    expect(left[0]?.n).to.equal(0);
  });

  it('parts written side by side: the sweep taking a crashed import waits for a part being written, then removes it too', async () => {
    const user = await newUser();
    const nodes = namedNodes(12);
    const file = { schema_version: 6, project_name: uniqueName('lanes'), nodes, edges: [] };
    const { executor } = currentHarness().service;
    let sweep: Promise<unknown> | undefined;
    let sweptWhileWriting = false;
    // the importer's first part, once its lane is held and its records written, sees the
    // sweep start (the import stalled past its lease) before it commits; then the
    // importer crashes: nothing of it runs again, so only the sweep can remove the part
    let calls = 0;
    let crashed = false;
    const ctx = context();
    const crashingImporter = new Proxy(ctx.executor, {
      get(target, property) {
        const value = Reflect.get(target, property, target) as unknown;
        if (typeof value !== 'function') return value;
        if (crashed) return () => Promise.reject(new Error('the importer crashed'));
        if (property !== 'writeTx') return value.bind(target);
        return async (work: Parameters<typeof target.writeTx>[0]) => {
          calls += 1;
          if (calls !== 1) return target.writeTx(work);
          const result = await target.writeTx(async (tx) => {
            const written = await work(tx);
            let settled = false;
            sweep = sweepStages(executor, Date.now() + 2 * 3_600_000).finally(() => {
              settled = true;
            });
            await new Promise((resolve) => setTimeout(resolve, 500));
            sweptWhileWriting = settled;
            return written;
          });
          crashed = true;
          return result;
        };
      },
    });
    const refused = await importProject(
      { ...ctx, executor: crashingImporter },
      principalOf(user),
      file,
      staged,
    ).then(
      () => null,
      (error: unknown) => error,
    );
    expect(refused).to.be.instanceOf(Error);
    await sweep;
    expect(sweptWhileWriting, 'the sweep waited for the part being written').to.equal(false);
    expect((await user.api.get('/v1/projects')).body.projects).to.deep.equal([]);
    const left = await executor.read<{ n: number }>(
      cypher('testLaneNodes', `MATCH (n:GNode) WHERE n.id IN $ids RETURN count(n) AS n`),
      { ids: nodes.map((n) => n.id) },
    );
    expect(left[0]?.n, 'records left behind').to.equal(0);
  });

  it('a refusal anywhere in the file: what was staged while it was checked is removed, and nothing is created', async () => {
    const user = await newUser();
    const [a, b, c] = [uuid(), uuid(), uuid()];
    const file = {
      schema_version: 6,
      project_name: uniqueName('staged'),
      nodes: [
        { id: a, kind: 'behavior', parent_id: null, data: { name: 'a' } },
        { id: b, kind: 'behavior', parent_id: null, data: { name: 'b' } },
        { id: c, kind: 'behavior', parent_id: null, data: { name: 'a' } },
      ],
      edges: [],
    };
    let refused: unknown;
    try {
      await importProject(context(), principalOf(user), file, staged);
    } catch (error) {
      refused = error;
    }
    expect(refused).to.be.instanceOf(DeltaError);
    expect((refused as DeltaError).envelope.error).to.equal('duplicate_name');
    const projects = await user.api.get('/v1/projects');
    expect(projects.body.projects).to.deep.equal([]);
    const stages = await currentHarness().service.executor.read<{ n: number }>(
      cypher('testStagedNodes', `MATCH (n:GNode) WHERE n.id IN $ids RETURN count(n) AS n`),
      { ids: [a, b, c] },
    );
    expect(stages[0]?.n).to.equal(0);
  });

  /** A file of `count` behaviors, each with an input and an output port; the last one's name is `lastName`. */
  function behaviorsFile(count: number, lastName = `n${count - 1}`) {
    const nodes = Array.from({ length: count }, (_, i) => ({
      id: uuid(),
      kind: 'behavior',
      parent_id: null,
      data: {
        name: i === count - 1 ? lastName : `n${i}`,
        inputs: [{ id: uuid(), name: 'in', type: 'int' }],
        outputs: [{ id: uuid(), name: 'out', type: 'int' }],
      },
    }));
    return { schema_version: 6, project_name: uniqueName('overlap'), nodes, edges: [] };
  }

  /** The records a line holds (nodes, ports and the stage record), counted. */
  const lineContent = cypher(
    'testLineContent',
    `CALL () { MATCH (n:GNode {branch_id: $line}) RETURN count(n) AS nodes }
     CALL () { MATCH (p:Port {branch_id: $line}) RETURN count(p) AS ports }
     CALL () { MATCH (s:VStage {line: $line}) RETURN count(s) AS stages }
     RETURN nodes, ports, stages`,
  );
  type LineContent = { nodes: number; ports: number; stages: number };
  const contentOf = async (line: string): Promise<LineContent> =>
    (await currentHarness().service.executor.read<LineContent>(lineContent, { line }))[0];

  /** `content` whose check answers only once `line` holds at least `nodes` node records. */
  function checkedOnceWritten(content: RecordsFirst, line: string, nodes: number): RecordsFirst {
    return {
      ...content,
      rest: async () => {
        const deadline = Date.now() + 30_000;
        while ((await contentOf(line)).nodes < nodes) {
          if (Date.now() > deadline) throw new Error(`fewer than ${nodes} nodes written`);
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        return content.rest();
      },
    };
  }

  it('the records are written while the content is checked; progress is told once the check has ended', async () => {
    const ctx = context();
    const line = uuid();
    const plan = planImport(readGraphFile(behaviorsFile(8)));
    const content = importRecordsFirst(plan, line, ctx.config.limits.maxNestingDepth);
    const told: ImportProgress[] = [];
    await stageContent(ctx, line, checkedOnceWritten(content, line, 8), {
      chunk: 2,
      writers: 2,
      progress: (p) => told.push(p),
    });
    // every node (and its ports) was written before the check answered; then the rest
    expect(told[0]).to.deep.include({ stage: 'checked', nodes: 8, edges: 0 });
    expect(told.slice(1).every((p) => p.stage === 'written')).to.equal(true);
    const last = told[told.length - 1];
    expect(last).to.deep.include({ stage: 'written' });
    if (last.stage !== 'written') throw new Error('the last progress is a part written');
    expect(last.written).to.equal(last.records);
    expect(await contentOf(line)).to.deep.equal({ nodes: 8, ports: 16, stages: 1 });
    expect(await abortStage(ctx, line)).to.deep.equal({ nodes: 8, ports: 16, edges: 0 });
    expect(await contentOf(line)).to.deep.equal({ nodes: 0, ports: 0, stages: 0 });
  });

  it('a refusal the check finds after records were written is answered once the lanes have stopped, and the stage is removed with them', async () => {
    const ctx = context();
    const line = uuid();
    // the last behavior takes the first one's name: the check refuses it
    const plan = planImport(readGraphFile(behaviorsFile(12, 'n0')));
    const content = importRecordsFirst(plan, line, ctx.config.limits.maxNestingDepth);
    const told: ImportProgress[] = [];
    const refused = await stageContent(ctx, line, checkedOnceWritten(content, line, 4), {
      chunk: 2,
      writers: 2,
      progress: (p) => told.push(p),
    }).then(
      () => null,
      (error: unknown) => error,
    );
    expect(refused).to.be.instanceOf(DeltaError);
    expect((refused as DeltaError).envelope).to.deep.include({
      error: 'duplicate_name',
      field: 'nodes[11].data.name',
    });
    expect(told, 'no progress past a refusal').to.deep.equal([]);
    const staged = await contentOf(line);
    expect(staged.nodes, 'nodes written while the content was checked').to.be.at.least(4);
    await abortStage(ctx, line);
    expect(await contentOf(line)).to.deep.equal({ nodes: 0, ports: 0, stages: 0 });
  });
});
