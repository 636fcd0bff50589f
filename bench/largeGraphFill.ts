/**
 * bench/largeGraph.ts --fill: a branch of the imported project filled through the API in
 * batches of 1000 (`nodes` behaviors with two ports each, then a wire between each
 * consecutive pair), then merged into main (staged: far above STAGE_RECORDS). Prints
 * each step's time.
 */
import { randomUUID } from 'node:crypto';
import { Api, expectStatus, timed } from './largeGraphApi';

const BATCH = 1000;

export async function fillAndMerge(api: Api, projectId: string, size: number): Promise<void> {
  const fork = await api('POST', `/v1/projects/${projectId}/branches`, { name: 'filled' });
  expectStatus('fork', fork, 201);
  const branchId = (JSON.parse(fork.text) as { branch: { id: string } }).branch.id;
  const nodes = Array.from({ length: size }, (_, i) => ({
    id: randomUUID(),
    input: randomUUID(),
    output: randomUUID(),
    name: `filled${i}`,
  }));
  let version = 0;
  const apply = async (deltas: unknown[]) => {
    const answer = await api('POST', `/v1/branches/${branchId}/deltas`, {
      deltas,
      expected_version: version,
    });
    expectStatus(`batch at version ${version}`, answer, 200);
    version = (JSON.parse(answer.text) as { branch: { version: number } }).branch.version;
  };
  await timed(`fill: ${size} nodes (2 ports each) in batches of ${BATCH}`, async () => {
    for (let i = 0; i < nodes.length; i += BATCH)
      await apply(
        nodes.slice(i, i + BATCH).map((n) => ({
          type: 'add_node',
          node: {
            id: n.id,
            kind: 'behavior',
            data: {
              name: n.name,
              inputs: [{ id: n.input, name: 'in', type: 'int' }],
              outputs: [{ id: n.output, name: 'out', type: 'int' }],
            },
          },
        })),
      );
  });
  await timed(`fill: ${size - 1} wires in batches of ${BATCH}`, async () => {
    for (let i = 1; i < nodes.length; i += BATCH)
      await apply(
        nodes.slice(i, i + BATCH).map((n, j) => ({
          type: 'add_edge',
          edge: {
            id: randomUUID(),
            source_handle: nodes[i + j - 1].output,
            target_handle: n.input,
          },
        })),
      );
  });
  const [merged] = await timed('merge the filled branch into main (staged)', () =>
    api('POST', `/v1/branches/${branchId}/merge`, { expected_version: version }),
  );
  expectStatus('merge', merged, 200);
}
