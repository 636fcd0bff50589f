/**
 * Staged merges: a merge above the staging bound is written in chunks at main's next
 * version and published by one last small transaction. The merge command runs directly
 * with a bound of two entities (the service's bound is far above what a test writes);
 * everything is read back through HTTP.
 */
import { expect } from 'chai';
import { mergeBranch } from '../services/merge/commands/mergeBranch';
import { previewMerge } from '../services/merge/commands/previewMerge';
import {
  openStaging,
  STAGE_LEASE_MS,
  sweepMergeStagings,
  writeStaged,
} from '../services/merge/stagedMerge';
import { loadMainBranch, visibleBranch } from '../services/branches';
import { mainView } from '../services/graph';
import { createLogger } from '../shared/logging/logger';
import type { ServiceContext } from '../shared/http/serviceContext';
import { ConflictError, ForbiddenError } from '../shared/errors/domainErrors';
import { cypher } from '../shared/neo4j/namedQuery';
import { currentHarness, grant, newUser, principalOf } from './support/harness';
import { addEdge, addNode, port, uuid } from './support/graphBuilders';
import { hookedExecutor } from './support/hookedExecutor';
import { expectAgree } from './support/keptFindings';
import { branchHandle, content, conflictsOf, mergeProject } from './support/mergeWorkspace';

const STAGE = { stageRecords: 2 };

function context(): ServiceContext {
  const h = currentHarness();
  return {
    executor: h.service.executor,
    config: h.config,
    logger: createLogger({ level: h.config.logLevel }),
  };
}

const countAt = cypher(
  'testCountStagedRecords',
  `CALL () {
     MATCH (s:GNode) WHERE s.branch_id = $line AND (s.vfrom = $version OR s.vto = $version)
     RETURN s
     UNION ALL
     MATCH (s:Port) WHERE s.branch_id = $line AND (s.vfrom = $version OR s.vto = $version)
     RETURN s
     UNION ALL
     MATCH (s:Edge) WHERE s.branch_id = $line AND (s.vfrom = $version OR s.vto = $version)
     RETURN s
     UNION ALL
     MATCH (s:GFinding) WHERE s.branch_id = $line AND (s.vfrom = $version OR s.vto = $version)
     RETURN s
   }
   RETURN count(s) AS n`,
);
const leaseOf = cypher('testMainLease', 'MATCH (b:Branch {id: $id}) RETURN b.stage_id AS stageId');

/** Main's records opened or closed at `version` (a staging's). */
async function recordsAt(mainId: string, version: number): Promise<number> {
  const rows = await context().executor.read<{ n: number }>(countAt, { line: mainId, version });
  return rows[0]?.n ?? 0;
}

async function lease(mainId: string): Promise<string | null> {
  const rows = await context().executor.read<{ stageId: string | null }>(leaseOf, { id: mainId });
  return rows[0]?.stageId ?? null;
}

describe('staged merges', function () {
  this.timeout(180_000);

  it('a fast-forward above the bound is written in chunks and published at once', async () => {
    const p = await mergeProject(await newUser());
    const kept = uuid();
    await p.seed([addNode({ id: kept, data: { name: 'kept' } })]);
    const b = await p.fork();
    const [o, i] = [port('o'), port('i')];
    await b.apply([
      addNode({ data: { name: 'x', outputs: [o] } }),
      addNode({ data: { name: 'y', inputs: [i] } }),
      addEdge(o.id, i.id),
      { type: 'update_node_data', node_id: kept, after: { description: 'changed' } },
    ]);
    const expected = await b.graph();
    // the preview of a staged merge stages it too, and always removes it
    const preview = await b.preview();
    const staged = await previewMerge(context(), principalOf(p.user), b.id, STAGE);
    expect(staged).to.deep.include({ mode: 'fast_forward', canMerge: true, conflicts: [] });
    expect(staged.counts).to.deep.equal(preview.counts);
    expect(staged.findingsAdded).to.deep.equal(preview.findings_added);
    expect(await recordsAt(p.mainId, 2)).to.equal(0);
    expect(await lease(p.mainId)).to.equal(null);
    const result = await mergeBranch(context(), principalOf(p.user), b.id, b.version, STAGE);
    expect(result.mode).to.equal('fast_forward');
    expect(result.main.version).to.equal(2);
    const main = await p.main();
    expect(main.branch).to.deep.equal({ id: p.mainId, version: 2 });
    expect(content(main)).to.deep.equal(content(expected));
    await expectAgree(mainView(p.mainId, 2), 'main after a staged fast-forward');
    expect(await lease(p.mainId)).to.equal(null);
    const trail = await p.user.api.get(`/v1/branches/${p.mainId}/changes`);
    expect(trail.body.changes[0]).to.include({ version: 2, kind: 'merge', mode: 'fast_forward' });
  });

  it('a replay above the bound is written batch page by batch page; a conflict removes it all', async () => {
    const p = await mergeProject(await newUser());
    const shared = uuid();
    await p.seed([addNode({ id: shared, kind: 'boundary', data: { name: 'app' } })]);
    const a = await p.fork();
    const b = await p.fork();
    const c = await p.fork();
    await a.apply([{ type: 'update_node_data', node_id: shared, after: { description: 'a' } }]);
    await b.apply([
      addNode({ parent_id: shared, data: { name: 'b1' } }),
      addNode({ parent_id: shared, data: { name: 'b2' } }),
    ]);
    await b.apply([addNode({ data: { name: 'b3' } })]);
    await c.apply([
      addNode({ data: { name: 'c1' } }),
      addNode({ data: { name: 'c2' } }),
      { type: 'update_node_data', node_id: shared, after: { description: 'c' } },
    ]);
    await a.mergeOk(); // main 2
    const replayed = await mergeBranch(context(), principalOf(p.user), b.id, b.version, STAGE);
    expect(replayed.mode).to.equal('replay');
    const main = await p.main();
    expect(main.branch.version).to.equal(3);
    expect(main.nodes.map((n: any) => n.data.name).sort()).to.deep.equal(['app', 'b1', 'b2', 'b3']);
    await expectAgree(mainView(p.mainId, 3), 'main after a staged replay');

    let error: any;
    try {
      await mergeBranch(context(), principalOf(p.user), c.id, c.version, STAGE);
    } catch (e) {
      error = e;
    }
    expect(error?.code).to.equal('merge_conflict');
    expect(error.extra.conflicts.map((x: any) => x.reason)).to.deep.equal(['modified_on_both']);
    expect(await recordsAt(p.mainId, 4)).to.equal(0);
    expect(await lease(p.mainId)).to.equal(null);
    expect(content(await p.main())).to.deep.equal(content(main));
    conflictsOf(await c.merge()); // the same answer through HTTP, unstaged
  });

  it('publishing rechecks the role and the project: demoted or archived while staging, nothing is merged', async () => {
    for (const change of ['demoted', 'archived'] as const) {
      const owner = await newUser();
      const p = await mergeProject(owner);
      const bob = await newUser();
      await grant(p.projectId, bob, 'editor');
      const forked = await bob.api.post(`/v1/projects/${p.projectId}/branches`, { name: 'b' });
      const b = branchHandle(bob, forked.body.branch.id);
      await b.apply([
        addNode({ data: { name: 'n1' } }),
        addNode({ data: { name: 'n2' } }),
        addNode({ data: { name: 'n3' } }),
      ]);
      const before = await p.main();
      // while the merge's first chunk is being written, the owner demotes bob or archives
      const executor = hookedExecutor(context().executor, 2, async () => {
        if (change === 'demoted') await grant(p.projectId, bob, 'viewer');
        else
          expect(
            (await owner.api.patch(`/v1/projects/${p.projectId}`, { archived: true })).status,
          ).to.equal(200);
      });
      let refused: unknown;
      try {
        await mergeBranch({ ...context(), executor }, principalOf(bob), b.id, b.version, STAGE);
      } catch (error) {
        refused = error;
      }
      if (change === 'demoted') {
        expect(refused, change).to.be.instanceOf(ForbiddenError);
        expect((refused as ForbiddenError).code).to.equal('forbidden');
      } else {
        expect(refused, change).to.be.instanceOf(ConflictError);
        expect((refused as ConflictError).code).to.equal('project_archived');
      }
      expect(await p.main(), change).to.deep.equal(before);
      expect(await recordsAt(p.mainId, 1), change).to.equal(0);
      expect(await lease(p.mainId), change).to.equal(null);
      expect((await b.graph()).branch.version, change).to.equal(1);
    }
  });

  it('an abandoned staging is invisible, holds other merges off with 503, and the sweep removes it', async () => {
    const p = await mergeProject(await newUser());
    const kept = uuid();
    await p.seed([addNode({ id: kept, data: { name: 'kept' } })]);
    const b = await p.fork();
    await b.apply([
      addNode({ data: { name: 'n1' } }),
      addNode({ data: { name: 'n2' } }),
      { type: 'update_node_data', node_id: kept, after: { name: 'renamed' } },
    ]);
    const before = await p.main();
    const ctx = context();
    // a merge that stops after writing its chunks, before publishing (a crash)
    const staging = await ctx.executor.writeTx(async (tx) => {
      const main = await loadMainBranch(tx, p.projectId, { lock: true });
      const { branch } = await visibleBranch(tx, principalOf(p.user), b.id, { lock: true });
      return openStaging(tx, main, branch);
    });
    await writeStaged(ctx.executor, staging, { maxDepth: 32 }, 2);
    expect(await recordsAt(p.mainId, 2)).to.be.greaterThan(2); // opened, and kept's closed
    expect(await p.main()).to.deep.equal(before);
    const busy = await b.merge();
    expect(busy.status).to.equal(503);
    expect(Number(busy.headers.get('retry-after'))).to.be.within(1, STAGE_LEASE_MS / 1000);

    expect(await sweepMergeStagings(ctx.executor)).to.equal(0); // the lease still runs
    expect(await sweepMergeStagings(ctx.executor, Date.now() + 2 * STAGE_LEASE_MS)).to.equal(1);
    expect(await recordsAt(p.mainId, 2)).to.equal(0);
    expect(await lease(p.mainId)).to.equal(null);
    expect(await p.main()).to.deep.equal(before);
    const expected = await b.graph();
    await b.mergeOk();
    expect(content(await p.main())).to.deep.equal(content(expected));
  });
});
