/**
 * Dry runs (validateDeltas, getMergePreview, rebaseBranch's dry_run) and callers who cannot write: a read-only
 * caller never holds a branch's write lock, so it cannot make an editor's write or merge
 * wait; a caller who hangs up leaves no transaction running behind it; and a transaction
 * the database ends (timed out, terminated) answers 503 with Retry-After, never 500.
 * The test holds locks itself, through the service's executor, in transactions it rolls
 * back: what a request waits for is then under the test's control, not a matter of timing.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { lockBranchWithAccess, lockMainBranchOf } from '../services/branches/store/branchQueries';
import { cypher } from '../shared/neo4j/namedQuery';
import { OPEN } from '../services/graph/view';
import { startLimited } from './abuse/limitedService';
import { addNode, workspace } from './support/graphBuilders';
import { currentHarness, grant, newKeyFor, newUser } from './support/harness';
import { mergeProject } from './support/mergeWorkspace';
import { within } from './support/within';

/** The current record of node $id on line $line, written to (so locked) and never kept. */
const holdNodeRecord = cypher(
  'testHoldNodeRecord',
  `MATCH (n:GNode {branch_id: $line, id: $id}) WHERE n.vto = $open
   SET n.test_hold = true RETURN count(n) AS held`,
);

/** Transactions waiting for a lock, with the parameters of the statement that waits. */
const blockedTransactions = cypher(
  'testBlockedTransactions',
  `SHOW TRANSACTIONS YIELD transactionId, status, parameters
   WHERE status STARTS WITH 'Blocked'
   RETURN transactionId, parameters`,
);

interface Held {
  /** Ends the holding transaction (rolled back: nothing it wrote is kept). */
  release(): Promise<void>;
}

/** Runs `take` in a transaction the test keeps open (so its locks held) until release(). */
async function holding(
  take: (tx: import('../shared/neo4j/namedQuery').QueryRunner) => Promise<void>,
) {
  const { executor } = currentHarness().service;
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let taken!: () => void;
  let failed!: (e: unknown) => void;
  const ready = new Promise<void>((resolve, reject) => ((taken = resolve), (failed = reject)));
  const done = executor
    .rolledBackTx(async (tx) => {
      await take(tx);
      taken();
      await held;
    })
    .catch(failed);
  await ready;
  return {
    async release() {
      release();
      await done;
    },
  } satisfies Held;
}

async function waitFor(what: string, check: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The blocked transactions whose waiting statement names `id` among its parameters. */
async function blockedOn(id: string): Promise<string[]> {
  const rows = await currentHarness().service.executor.read<{
    transactionId: string;
    parameters: Record<string, unknown>;
  }>(blockedTransactions);
  return rows
    .filter((r) => JSON.stringify(r.parameters ?? {}).includes(id))
    .map((r) => r.transactionId);
}

describe('dry runs: read-only callers hold no write lock, hung-up callers leave no transaction', function () {
  this.timeout(60_000);

  it("validateDeltas on main answers while main's write lock is held: a viewer's dry run never takes it", async () => {
    const owner = await newUser();
    const viewer = await newUser();
    const p = await mergeProject(owner);
    await grant(p.projectId, viewer, 'viewer');
    const seeded = addNode({ data: { name: 'seeded' } });
    await p.seed([seeded]);
    const lock = await holding(async (tx) => {
      await tx.run(lockMainBranchOf, { projectId: p.projectId });
    });
    try {
      const validate = viewer.api.post(`/v1/branches/${p.mainId}/validate`, {
        deltas: [{ type: 'delete_node', node_id: seeded.node.id }],
      });
      const res = await within(10_000, validate);
      expect(res, "the viewer's validate waited for main's lock").to.not.equal('pending');
      if (res === 'pending') return;
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.branch).to.deep.equal({ id: p.mainId, version: 1 });
    } finally {
      await lock.release();
    }
    // the dry run left main as it was
    expect((await p.main()).nodes.map((n: { id: string }) => n.id)).to.deep.equal([seeded.node.id]);
  });

  it("an editor's merge completes while a record a viewer's validate deletes on main is held by a writer", async () => {
    const owner = await newUser();
    const viewer = await newUser();
    const p = await mergeProject(owner);
    await grant(p.projectId, viewer, 'viewer');
    const seeded = Array.from({ length: 3 }, (_, i) => addNode({ data: { name: `s${i}` } }));
    await p.seed(seeded);
    const branch = await p.fork();
    await branch.apply([addNode({ data: { name: 'merged' } })]);
    // a writer holds the first seeded node's record on main: a dry run that writes main's
    // records waits for it, and (before) held main's lock while it waited
    const record = await holding(async (tx) => {
      const [row] = await tx.run<{ held: number }>(holdNodeRecord, {
        line: p.mainId,
        id: seeded[0].node.id,
        open: OPEN,
      });
      expect(row.held).to.equal(1);
    });
    try {
      const validates = Array.from({ length: 8 }, () =>
        viewer.api.post(`/v1/branches/${p.mainId}/validate`, {
          deltas: seeded.map((s) => ({ type: 'delete_node', node_id: s.node.id })),
        }),
      );
      // the validates are sent first and reach Neo4j before the merge
      await new Promise((resolve) => setTimeout(resolve, 500));
      const merged = await within(15_000, branch.merge());
      expect(merged, 'the merge waited behind the viewer’s validates').to.not.equal('pending');
      if (merged === 'pending') return;
      expect(merged.status, JSON.stringify(merged.body)).to.equal(200);
      for (const res of await Promise.all(validates)) {
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        expect(res.body.valid).to.equal(true);
      }
    } finally {
      await record.release();
    }
    expect((await p.main()).nodes).to.have.length(4);
  });

  it("validateDeltas from the owner's key without graph:write does not wait for the branch's lock; the owner's writing key still does", async () => {
    const w = await workspace(await newUser());
    await w.apply([addNode({ data: { name: 'one' } })]);
    const readOnly = await newKeyFor(w.user, { scopes: [] });
    const body = { deltas: [addNode({ data: { name: 'two' } })] };
    const lock = await holding(async (tx) => {
      await tx.run(lockBranchWithAccess, { id: w.branchId, userId: w.user.userId });
    });
    let writer: ReturnType<typeof w.user.api.post> | undefined;
    try {
      const res = await within(
        10_000,
        readOnly.api.post(`/v1/branches/${w.branchId}/validate`, body),
      );
      expect(res, 'the read-only validate waited for the lock').to.not.equal('pending');
      if (res === 'pending') return;
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.branch).to.deep.equal({ id: w.branchId, version: 1 });
      // a caller who could apply the batch dry-runs it under the lock apply takes
      writer = w.user.api.post(`/v1/branches/${w.branchId}/validate`, body);
      expect(await within(1_000, writer)).to.equal('pending');
    } finally {
      await lock.release();
    }
    expect((await writer)?.status).to.equal(200);
  });

  it("getMergePreview from the owner's key without graph:write does not wait for main's lock", async () => {
    const owner = await newUser();
    const p = await mergeProject(owner);
    const branch = await p.fork();
    await branch.apply([addNode({ data: { name: 'previewed' } })]);
    const readOnly = await newKeyFor(owner, { scopes: [] });
    const lock = await holding(async (tx) => {
      await tx.run(lockMainBranchOf, { projectId: p.projectId });
    });
    try {
      const res = await within(10_000, readOnly.api.get(`/v1/branches/${branch.id}/merge-preview`));
      expect(res, "the read-only preview waited for main's lock").to.not.equal('pending');
      if (res === 'pending') return;
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.can_merge).to.equal(false);
      expect(res.body.counts.nodes.added).to.equal(1);
    } finally {
      await lock.release();
    }
  });

  it("rebaseBranch's dry run from the owner's key without graph:write does not wait for the branch's lock; the owner's writing key still does", async () => {
    const owner = await newUser();
    const p = await mergeProject(owner);
    const branch = await p.fork();
    await branch.apply([addNode({ data: { name: 'own' } })]);
    await p.seed([addNode({ data: { name: 'from main' } })]);
    const readOnly = await newKeyFor(owner, { scopes: [] });
    const url = `/v1/branches/${branch.id}/rebase`;
    const body = { expected_version: 1, dry_run: true };
    const lock = await holding(async (tx) => {
      await tx.run(lockBranchWithAccess, { id: branch.id, userId: owner.userId });
    });
    let writer: ReturnType<typeof owner.api.post> | undefined;
    try {
      const res = await within(10_000, readOnly.api.post(url, body));
      expect(res, 'the read-only dry run waited for the lock').to.not.equal('pending');
      if (res === 'pending') return;
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.deep.include({ dry_run: true, can_rebase: false });
      expect(res.body.counts.nodes.added).to.equal(1);
      // a caller who could rebase dry-runs under the lock the rebase takes
      writer = owner.api.post(url, body);
      expect(await within(1_000, writer)).to.equal('pending');
    } finally {
      await lock.release();
    }
    expect((await writer)?.status).to.equal(200);
  });

  it("getMergePreview of a merge large enough to be staged (main's lease) is refused a caller who could not merge it", async () => {
    const limited = await startLimited({ STAGE_RECORDS: '2' });
    try {
      const owner = await newUser();
      const p = await mergeProject(owner);
      const branch = await p.fork();
      await branch.apply(Array.from({ length: 3 }, (_, i) => addNode({ data: { name: `n${i}` } })));
      const readOnly = await newKeyFor(owner, { scopes: [] });
      const refused = await limited.api(readOnly).get(`/v1/branches/${branch.id}/merge-preview`);
      expect(refused.status, JSON.stringify(refused.body)).to.equal(403);
      expect(refused.body.detail.code).to.equal('insufficient_scope');
      const staged = await limited.api(owner).get(`/v1/branches/${branch.id}/merge-preview`);
      expect(staged.status, JSON.stringify(staged.body)).to.equal(200);
      expect(staged.body.can_merge).to.equal(true);
      expect(staged.body.counts.nodes.added).to.equal(3);
    } finally {
      await limited.close();
    }
  });

  it('a caller who hangs up has its transaction ended, not left waiting for a lock', async () => {
    const w = await workspace(await newUser());
    await w.apply([addNode({ data: { name: 'one' } })]);
    const lock = await holding(async (tx) => {
      await tx.run(lockBranchWithAccess, { id: w.branchId, userId: w.user.userId });
    });
    try {
      const hangUp = new AbortController();
      const sent = fetch(`${currentHarness().service.url}/v1/branches/${w.branchId}/validate`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${w.user.token}`,
          'Content-Type': 'application/json',
          'X-Request-Id': randomUUID(),
        },
        body: JSON.stringify({ deltas: [addNode({})] }),
        signal: hangUp.signal,
      }).catch((error: unknown) => error);
      await waitFor('the validate to wait for the lock', async () => {
        return (await blockedOn(w.branchId)).length > 0;
      });
      hangUp.abort();
      expect(await sent).to.be.instanceOf(Error);
      // the lock is still held: only a cancelled transaction is gone by now
      await waitFor(
        'the hung-up validate’s transaction to end',
        async () => (await blockedOn(w.branchId)).length === 0,
        5_000,
      );
    } finally {
      await lock.release();
    }
  });
});

describe('a transaction the database ends answers 503 with Retry-After', function () {
  this.timeout(60_000);

  it('validateDeltas and applyDeltas past NEO4J_TX_TIMEOUT_MS: 503 service_unavailable with Retry-After', async () => {
    const limited = await startLimited({ NEO4J_TX_TIMEOUT_MS: '1000' });
    try {
      const w = await workspace(await newUser());
      await w.apply([addNode({})]);
      const api = limited.api(w.user);
      const lock = await holding(async (tx) => {
        await tx.run(lockBranchWithAccess, { id: w.branchId, userId: w.user.userId });
      });
      try {
        const answers = await Promise.all([
          api.post(`/v1/branches/${w.branchId}/validate`, { deltas: [addNode({})] }),
          api.post(`/v1/branches/${w.branchId}/deltas`, {
            expected_version: w.version,
            deltas: [addNode({})],
          }),
        ]);
        for (const res of answers) {
          expect(res.status, JSON.stringify(res.body)).to.equal(503);
          expect(res.body.detail.code).to.equal('service_unavailable');
          expect(Number(res.headers.get('retry-after'))).to.be.greaterThan(0);
        }
      } finally {
        await lock.release();
      }
      expect((await w.graph()).branch.version).to.equal(w.version);
    } finally {
      await limited.close();
    }
  });
});
