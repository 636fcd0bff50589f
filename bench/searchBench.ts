/**
 * Name search (searchNodes) against graph size: for each size, a project whose main
 * holds the nested fixture (webFixture.ts: boundaries `area*` and `module*`, leaves
 * `step*`) and a fresh working branch of it, each size in the same store as the sizes
 * before it. Timed through the API, interleaved query by query:
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
  const samples: Sample[] = [];
  for (const size of options.sizes) {
    process.stderr.write(`search @ ${size} nodes: loading fixture ...\n`);
    const { projectId, mainId } = await client.createProject();
    const { total } = await loadNestedFixture(executor, mainId, size);
    const branchId = await client.fork(projectId);
    const search = (branch: string, q: string) => async () => {
      const body = await client.call(
        'GET',
        `/v1/branches/${branch}/nodes/search?q=${encodeURIComponent(q)}&limit=20`,
      );
      if (body.nodes.length === 0) throw new Error(`search ${q} @ ${size} found nothing`);
    };
    samples.push(
      ...(await measureInterleaved(
        [
          { label: SEARCHES.selective, step: search(mainId, lastLeaf(size)) },
          { label: SEARCHES.broad, step: search(mainId, 'step4') },
          { label: SEARCHES.branch, step: search(branchId, 'step4') },
          { label: SEARCHES.substring, step: search(mainId, 'tep4') },
        ],
        total,
        30,
        // the first size also warms the service and the database up
        size === options.sizes[0] ? 30 : 5,
      )),
    );
  }
  return samples;
}
