/**
 * The plan warm-up (services/graph/planWarmup.ts warmPlans): as a process starts, it runs
 * the first statement of the scoped reads and of a batch for ids that name nothing, and
 * an import's writes on an unknown line rolled back, so Neo4j plans each before a request
 * needs it. Neo4j finds a kept plan by the statement's
 * text and the types of its parameters, so a warm-up helps only if it sends the very
 * statement a request sends, with parameters of the same types: these tests hold it to
 * that, against the same commands run for a real project, and to writing nothing.
 */
import { expect } from 'chai';
import { WARMED_OPERATIONS, warmPlans, warmPlansAtStart } from '../services/graph';
import { neo4jStartTime } from '../services/graph/store/planWarmupQueries';
import { applyDeltas } from '../services/graph/commands/applyDeltas';
import { readBoundary } from '../services/graph/commands/readBoundary';
import { readNeighborhood } from '../services/graph/commands/readNeighborhood';
import { readSubtree } from '../services/graph/commands/readSubtree';
import { readTopLevel } from '../services/graph/commands/readTopLevel';
import { searchNodes } from '../services/graph/commands/searchNodes';
import { importProject } from '../services/graphfile/commands/importProject';
import { rehearseStagedImport } from '../services/graphfile';
import type { Rehearsal } from '../services/graphfile';
import type { ServiceContext } from '../shared/http/serviceContext';
import { createLogger } from '../shared/logging/logger';
import { cypher } from '../shared/neo4j/namedQuery';
import { eventually } from './support/decisionFixtures';
import { addNode, port, uuid } from './support/graphBuilders';
import { currentHarness, newUser, principalOf } from './support/harness';
import { answering, noting, Sent } from './support/hookedExecutor';
import { BranchHandle, mergeProject, MergeProject } from './support/mergeWorkspace';

function context(sent: Sent[], warm = true): ServiceContext {
  const { service, config } = currentHarness();
  return {
    executor: noting(service.executor, sent),
    config: { ...config, neo4j: { ...config.neo4j, warmPlans: warm } },
    logger: createLogger({ level: 'silent' }),
  };
}

/** Node records named as the warm-up's batch names its node, on any line. */
const warmupNodes = cypher(
  'testWarmupNodes',
  "MATCH (n:GNode) WHERE n.name = 'plan warm-up' RETURN count(n) AS nodes",
);

/** Every record of a line, its stage included. */
const recordsOnLine = cypher(
  'testRecordsOnLine',
  `CALL () {
     MATCH (n:GNode {branch_id: $line}) RETURN n
     UNION ALL MATCH (n:Port {branch_id: $line}) RETURN n
     UNION ALL MATCH (n:Edge {branch_id: $line}) RETURN n
     UNION ALL MATCH (n:GFinding {branch_id: $line}) RETURN n
     UNION ALL MATCH (n:Touch {branch_id: $line}) RETURN n
     UNION ALL MATCH (n:VStage {line: $line}) RETURN n
   }
   RETURN count(n) AS records`,
);

/** The statement each warmed operation plans: the largest a request of it runs first. */
const WARMS = {
  getTopLevel: 'readTopLevelOf',
  getSubtree: 'readSubtree1',
  getNeighborhood: 'readNeighborhoodOf',
  getBoundary: 'readBoundaryOf',
  searchNodes: 'searchNodesOf',
  importProject: 'createNewLineStates',
  applyDeltas: 'lockAndPrefetchAddRun',
};

/** The statements of an import's writes, planned by a rehearsal rolled back (its touches
 * are derived from its records, never written: importTouches.ts). */
const IMPORT_WRITES = ['createNewLineStates'];

describe('plan warm-up (warmPlans)', function () {
  this.timeout(300_000);
  let project: MergeProject;
  let branch: BranchHandle;
  let nodeId: string;

  before(async () => {
    // a boundary with a child on main (the boundary view reads main), and a working branch
    project = await mergeProject(await newUser());
    nodeId = uuid();
    await project.seed([
      addNode({ id: nodeId, kind: 'boundary', data: { name: 'outer' } }),
      addNode({ kind: 'behavior', parent_id: nodeId, data: { name: 'inner', inputs: [port()] } }),
    ]);
    branch = await project.fork();
  });

  it('runs each warmed operation to its not-found answer, the statement it plans among those sent', async () => {
    const sent: Sent[] = [];
    const report = await warmPlans(context(sent), WARMED_OPERATIONS);
    expect(Object.keys(report.operations)).to.deep.equal(Object.keys(WARMS));
    for (const [operationId, { outcome }] of Object.entries(report.operations))
      expect(outcome, operationId).to.equal('planned');
    expect(sent.map((s) => s.name)).to.include.members(Object.values(WARMS));
  });

  it('sends each planned statement with the parameter types a request of its operation sends', async () => {
    const warmed: Sent[] = [];
    await warmPlans(context(warmed), WARMED_OPERATIONS);
    const real: Sent[] = [];
    const ctx = context(real);
    const principal = principalOf(project.user);
    // the calls the routes make for a request without optional parameters
    await readTopLevel(ctx, principal, branch.id);
    await readSubtree(ctx, principal, branch.id, nodeId);
    await readNeighborhood(ctx, principal, branch.id, nodeId);
    await readBoundary(ctx, principal, project.projectId, nodeId);
    await searchNodes(ctx, principal, branch.id, 'inner');
    await applyDeltas(ctx, principal, branch.id, {
      expected_version: branch.version,
      deltas: [addNode({ kind: 'behavior', parent_id: nodeId, data: { name: 'added' } })],
    });
    // an import's writes come in several shapes: held by a test of their own
    for (const name of Object.values(WARMS).filter((n) => !IMPORT_WRITES.includes(n))) {
      const sentByWarmup = warmed.find((s) => s.name === name);
      const sentByRequest = real.find((s) => s.name === name);
      expect(sentByRequest, `${name} in a request`).to.not.equal(undefined);
      expect(sentByWarmup?.shape, name).to.deep.equal(sentByRequest?.shape);
    }
  });

  it('writes nothing: the batch it sends finds no branch', async () => {
    const sent: Sent[] = [];
    await warmPlans(context(sent), ['applyDeltas']);
    const batch = sent.find((s) => s.name === WARMS.applyDeltas);
    expect(batch).to.not.equal(undefined);
    // the lock statement was the batch's last: with no branch, nothing after it ran
    expect(sent[sent.length - 1]).to.equal(batch);
    const [row] = await currentHarness().service.executor.read<{ nodes: number }>(warmupNodes);
    expect(row?.nodes).to.equal(0);
  });

  it("plans an import's writes in every shape a small and a staged import send them, and leaves nothing written", async () => {
    const warmed: Sent[] = [];
    const report = await warmPlans(context(warmed), ['importProject']);
    expect(report.operations.importProject.outcome).to.equal('planned');
    const real: Sent[] = [];
    const user = await newUser();
    // a boundary, a behavior inside it with an input nothing feeds (a kept finding), and
    // one feeding another: every kind of record an import writes
    const [outer, a, b] = [uuid(), uuid(), uuid()];
    const [aIn, aOut, bIn] = [uuid(), uuid(), uuid()];
    const file = (name: string) => ({
      schema_version: 6,
      project_name: name,
      nodes: [
        { id: outer, kind: 'boundary', parent_id: null, data: { name: 'outer' } },
        {
          id: a,
          kind: 'behavior',
          parent_id: outer,
          data: {
            name: 'a',
            inputs: [{ id: aIn, name: 'in' }],
            outputs: [{ id: aOut, name: 'out' }],
          },
        },
        {
          id: b,
          kind: 'behavior',
          parent_id: outer,
          data: { name: 'b', inputs: [{ id: bIn, name: 'in' }] },
        },
      ],
      edges: [{ id: uuid(), source_handle: aOut, target_handle: bIn }],
    });
    await importProject(context(real), principalOf(user), file('warm small'));
    await importProject(context(real), principalOf(user), file('warm staged'), {
      stageAbove: 2,
      stageChunk: 2,
    });
    const shapesOf = (sent: Sent[], name: string) =>
      new Set(sent.filter((s) => s.name === name).map((s) => JSON.stringify(s.shape)));
    for (const name of IMPORT_WRITES) {
      const byImports = shapesOf(real, name);
      expect(byImports.size, `${name} sent by the imports`).to.be.greaterThan(0);
      expect([...shapesOf(warmed, name)], name).to.include.members([...byImports]);
    }
    const [row] = await currentHarness().service.executor.read<{ nodes: number }>(warmupNodes);
    expect(row?.nodes, 'records left by the rehearsal').to.equal(0);
  });

  it('commits a small import and removes it before the rolled-back rehearsal, when the process gives one (WarmupOptions.stagedImport)', async () => {
    // A rollback never runs the code that commits records, which Neo4j's JVM would
    // otherwise compile during the first large import: the rehearsal is committed.
    const sent: Sent[] = [];
    const rehearsals: Rehearsal[] = [];
    const report = await warmPlans(context(sent), ['importProject'], {
      stagedImport: async (ctx) => rehearsals.push(await rehearseStagedImport(ctx, 40)),
    });
    expect(report.operations.importProject.outcome).to.equal('planned');
    expect(rehearsals).to.have.length(1);
    const [{ line, removed }] = rehearsals;
    // written in parts as a staged import writes them, each holding a lane of the stage,
    // and committed: the removal found every node, port and wire (10 boundaries and 30
    // behaviors with an input and an output each, chained three to a boundary: 20 wires)
    const names = sent.map((s) => s.name);
    for (const name of ['holdStageLane', 'createNewLineStates'])
      expect(names, name).to.include(name);
    expect(names, 'an import writes no touches').not.to.include('recordTouches');
    expect(removed).to.deep.equal({ nodes: 40, ports: 60, edges: 20 });
    // the rolled-back rehearsal came after it, as before
    expect(names.lastIndexOf('createNewLineStates')).to.be.greaterThan(
      names.lastIndexOf('holdStageLane'),
    );
    const [left] = await currentHarness().service.executor.read<{ records: number }>(
      recordsOnLine,
      { line },
    );
    expect(left?.records, 'records left on the rehearsal line, its stage included').to.equal(0);
  });

  it('reads when the Neo4j process answering started', async () => {
    const [row] = await currentHarness().service.executor.read<{ startedAt: string }>(
      neo4jStartTime,
    );
    const startedAt = Number(row.startedAt);
    // this run's Neo4j started for it: within the last day, not later than now
    expect(startedAt, row.startedAt).to.be.within(Date.now() - 86_400_000, Date.now());
  });

  /** Waits until `done()` holds (polled every 20 ms), failing after a minute. */
  const until = (what: string, done: () => boolean) =>
    eventually(what, async () => (done() ? true : undefined), 60_000, 20);

  it('warms the plans again after Neo4j starts again, and not while it runs on', async () => {
    const sent: Sent[] = [];
    let startedAt = '1767254400000';
    let checks = 0;
    const ctx = context(sent);
    // each read of when Neo4j started is a check, answered with the test's start
    const checked = () => (checks++, [{ startedAt }]);
    const warmup = warmPlansAtStart(
      { ...ctx, executor: answering(ctx.executor, neo4jStartTime, checked) },
      ['getTopLevel'],
      { checkEveryMs: 20 },
    );
    const warmed = () => sent.filter((s) => s.name === WARMS.getTopLevel).length;
    try {
      await until('the first warm-up', () => warmed() === 1);
      // no check runs while a warm-up does: five more checks, the first warm-up over, and
      // Neo4j's start unchanged
      const before = checks;
      await until('five checks', () => checks >= before + 5);
      expect(warmed()).to.equal(1);
      startedAt = '1767258000000';
      await until('the warm-up after a start', () => warmed() === 2);
    } finally {
      await warmup.close();
    }
  });

  it('runs nothing once the process is stopping, nor when NEO4J_WARM_PLANS is false', async () => {
    const sent: Sent[] = [];
    const stopping = new AbortController();
    stopping.abort();
    const report = await warmPlans({ ...context(sent), stopping: stopping.signal }, [
      'getBoundary',
    ]);
    expect(report.operations.getBoundary.outcome).to.equal('skipped');
    await warmPlansAtStart(context(sent, false), WARMED_OPERATIONS);
    expect(sent).to.deep.equal([]);
  });
});
