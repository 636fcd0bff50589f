/**
 * Change request page benchmark (`--only review`): what the viewer's change request page
 * (web/src/reviews/ChangeRequestView.tsx) asks for when a reviewer opens it, on a main of
 * each size: getChangeRequest (the diff against main, the merge preview with its
 * findings and rules, the reviews), then the first graph read of useLoadedGraph.ts for
 * the branch under review, getTopLevel of the branch with listBranches beside it. Each
 * call is timed alone, and the page's opening as the page makes them (the change request,
 * then the two reads together), the four on every size run by run in turn
 * (measureInterleaved), once every size's main is loaded.
 *
 * Main is the nested fixture of the web bench (webFixture.ts: ten boundaries at the top
 * level whatever the size), so the top level read is the same size at 1k and 100k; the
 * flat fixture (graphFixture.ts) has a tenth of its nodes at the top level, and its top
 * level read would measure that instead. The branch under review forks main and holds
 * one 10-delta batch; its change request has two reviews, one a comment anchored on a
 * node the batch changed. Neither the diff, the preview nor the top level read should
 * follow main's size: target, every figure at the largest size within 1.5x of the
 * smallest.
 */
import { randomUUID } from 'node:crypto';
import { keepFindingsOf, mainView } from '../services/graph';
import type { Executor } from '../shared/neo4j/executor';
import type { BenchClient } from './benchClient';
import { benchMember } from './benchService';
import { pick } from './graphFixture';
import { measureInterleaved, printTable, Sample, verdict } from './stats';
import { loadNestedFixture, NestedFixture } from './webFixture';

const RUNS = 30;
/** Untimed openings of each call before the timed ones (a statement's first plan takes long). */
const WARMUP = 15;
const CHUNK = 5000;

export const REVIEW_CALLS = {
  detail: 'getChangeRequest',
  top: 'getTopLevel of the branch',
  branches: 'listBranches',
  page: 'page opening (getChangeRequest, then getTopLevel with listBranches)',
};

/**
 * The batch under review (10 deltas): four leaves' descriptions changed, three nodes added
 * in boundaries of the second level, each wired from a leaf's output. Returns the deltas
 * and the ids of the changed nodes.
 */
export function reviewBatch(fixture: NestedFixture): { deltas: unknown[]; changed: string[] } {
  const changed = [...new Set(Array.from({ length: 4 }, () => pick(fixture.leaves).id))];
  const deltas: unknown[] = changed.map((id) => ({
    type: 'update_node_data',
    node_id: id,
    after: { description: `reviewed ${id.slice(0, 8)}` },
  }));
  for (let i = 0; i < 3; i++) {
    const [id, input] = [randomUUID(), randomUUID()];
    deltas.push(
      {
        type: 'add_node',
        node: {
          id,
          parent_id: pick(fixture.middles),
          data: { name: `r${id.slice(0, 12)}`, inputs: [{ id: input, name: 'in', type: 'int' }] },
        },
      },
      {
        type: 'add_edge',
        edge: {
          id: randomUUID(),
          source_handle: pick(fixture.leaves).output,
          target_handle: input,
        },
      },
    );
  }
  return { deltas, changed };
}

export async function runReviewBench(options: {
  service: { executor: Executor; url: string };
  client: BenchClient;
  sizes: number[];
}): Promise<Sample[]> {
  const { service, client } = options;
  const { executor } = service;
  const sides: Parameters<typeof measureInterleaved>[0] = [];
  for (const size of options.sizes) {
    process.stderr.write(`review @ ${size} nodes: loading fixture on main ...\n`);
    const { projectId, mainId } = await client.createProject();
    const fixture = await loadNestedFixture(executor, mainId, size);
    await keepFindingsOf(executor, mainView(mainId, 0), CHUNK);

    // the branch under review (the bench user's), its change request and two reviews
    const branchId = await client.fork(projectId);
    const batch = reviewBatch(fixture);
    await client.applyDeltas(branchId, batch.deltas, 0);
    const opened = await client.call('POST', `/v1/branches/${branchId}/change-request`, {
      title: 'Bench change request',
      description: 'Changes four steps and adds three.',
    });
    const crId: string = opened.change_request.id;
    const commenter = await benchMember(service, projectId, 'editor', 'reviewer');
    const approver = await benchMember(service, projectId, 'editor', 'approver');
    await commenter.client.call('POST', `/v1/change-requests/${crId}/reviews`, {
      verdict: 'comment',
      body: 'One question.',
      comments: [{ body: 'Why this description?', anchor: { kind: 'node', id: batch.changed[0] } }],
    });
    await approver.client.call('POST', `/v1/change-requests/${crId}/reviews`, {
      verdict: 'approve',
      body: 'Looks right.',
    });

    // what the page asks for, as the reviewer who commented
    const viewer = commenter.client;
    const detail = async () => {
      const body = await viewer.call('GET', `/v1/change-requests/${crId}`);
      if (body.reviews.length !== 2 || !body.diff || !body.preview)
        throw new Error(`expected two reviews, a diff and a preview: ${JSON.stringify(body)}`);
    };
    const top = async () => {
      const body = await viewer.call('GET', `/v1/branches/${branchId}/top-level`);
      if (body.nodes.length !== fixture.top)
        throw new Error(`expected ${fixture.top} top-level nodes, read ${body.nodes.length}`);
    };
    const branches = () => viewer.call('GET', `/v1/projects/${projectId}/branches`);
    const page = async () => {
      await detail();
      await Promise.all([top(), branches()]);
    };
    sides.push(
      { label: REVIEW_CALLS.detail, size, step: detail },
      { label: REVIEW_CALLS.top, size, step: top },
      { label: REVIEW_CALLS.branches, size, step: branches },
      { label: REVIEW_CALLS.page, size, step: page },
    );
  }
  // every size's page is opened run by run in turn, so that the ratios between sizes
  // compare the same moments of a machine whose speed drifts
  return measureInterleaved(sides, options.sizes[0], RUNS, WARMUP);
}

/** The table, then each figure at the largest size against the smallest, with its target. */
export function reportReview(samples: Sample[], sizes: number[]): void {
  printTable('Change request page, opened by a reviewer (p50 / p95 ms)', samples);
  const [small, large] = [Math.min(...sizes), Math.max(...sizes)];
  const find = (label: string, size: number) =>
    samples.find((s) => s.label === label && s.size === size);
  console.log('\nThe change request page against its target (p50 ratios, this run):');
  for (const label of Object.values(REVIEW_CALLS)) {
    const [a, b] = [find(label, large), find(label, small)];
    if (!a || !b) continue;
    if (large === small) {
      console.log(`  ${label}: one size only (target @ 100000 within 1.5x of @ 1000)`);
      continue;
    }
    const r = a.p50 / b.p50;
    console.log(
      `  ${label}: @ ${large} / @ ${small} = ${r.toFixed(2)}x (target <= 1.5x): ${verdict(r <= 1.5)}`,
    );
  }
}
