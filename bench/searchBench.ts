/**
 * Name search (searchNodes) against graph size: for each size, a project whose main
 * holds the nested fixture (webFixture.ts: boundaries `area*` and `module*`, leaves
 * `step*`) and a fresh working branch of it, all in one store. Every size is loaded
 * first, then the queries of every size are timed through the API in turn, run by run:
 * the flatness target compares sizes, and timed in turn the sizes see the same moments
 * of a machine whose speed drifts (timed size after size, one whole run found the largest
 * size 1.36x the smallest on a query measured at 0.89x when run alone). The queries:
 *   - selective: the last leaf's name, one match at every size;
 *   - broad: `step4`, about an eighth of the nodes at every size (step4, step40..49, ...);
 *   - broad, on the working branch (its view reads main at its base under its own line);
 *   - substring only: `tep4`, as many matches as `step4` and none starting with it, so
 *     every match has to be found and ordered (reported, not a target: the cost follows
 *     the matches).
 */
import type { Executor } from '../shared/neo4j/executor';
import { BenchClient } from './benchClient';
import { measureInterleaved, Sample } from './stats';
import { loadNestedFixture } from './webFixture';

export const SEARCHES = {
  selective: 'searchNodes selective (API)',
  broad: 'searchNodes broad q=step4 (API)',
  branch: 'searchNodes broad q=step4, working branch (API)',
  substring: 'searchNodes substring only q=tep4 (API)',
} as const;

/** The searches with a flatness target (100k within 1.3x of 1k). */
export const FLAT_SEARCHES = [SEARCHES.selective, SEARCHES.broad, SEARCHES.branch];

/** The name of the fixture's last leaf (loadNestedFixture's counts). */
function lastLeaf(size: number, top = 10): string {
  const middle = Math.max(top, Math.round((size - top) / 11));
  return `step${size - top - middle - 1}`;
}

export async function runSearchBench(options: {
  client: BenchClient;
  executor: Executor;
  sizes: number[];
}): Promise<Sample[]> {
  const { client, executor } = options;
  const sides: { label: string; size: number; step: () => Promise<void> }[] = [];
  for (const size of options.sizes) {
    process.stderr.write(`search @ ${size} nodes: loading fixture ...\n`);
    const { projectId, mainId } = await client.createProject();
    await loadNestedFixture(executor, mainId, size);
    const branchId = await client.fork(projectId);
    const search = (branch: string, q: string) => async () => {
      const body = await client.call(
        'GET',
        `/v1/branches/${branch}/nodes/search?q=${encodeURIComponent(q)}&limit=20`,
      );
      if (body.nodes.length === 0) throw new Error(`search ${q} @ ${size} found nothing`);
    };
    sides.push(
      { label: SEARCHES.selective, size, step: search(mainId, lastLeaf(size)) },
      { label: SEARCHES.broad, size, step: search(mainId, 'step4') },
      { label: SEARCHES.branch, size, step: search(branchId, 'step4') },
      { label: SEARCHES.substring, size, step: search(mainId, 'tep4') },
    );
  }
  // the warm-up also warms the service and the database up
  return measureInterleaved(sides, options.sizes[0], 30, 20);
}
