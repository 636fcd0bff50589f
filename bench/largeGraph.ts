/**
 * A 100k-node graph through a running service (`make run`, its default memory), the way a
 * team would make one: a branch filled through the API in batches, merged into main
 * (staged: far above STAGE_RECORDS), main exported through the API, the file imported
 * with the operator CLI (`graphctl import`; the API's 5 MiB body limit is below such a
 * file), then main read whole (streamed). Prints each step's time and the service's
 * answers; exits non-zero when one fails.
 *
 *   npx tsx bench/largeGraph.ts --url http://127.0.0.1:8080 --token <key> --user <name>
 *     [--nodes 100000]
 *
 * `make bench-large` runs it against the service `make run` serves (scripts/bench-large.sh).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { randomUUID } from 'node:crypto';

const BATCH = 1000;

async function call(
  url: string,
  token: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; text: string }> {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, text: await response.text() };
}

function expectStatus(step: string, answer: { status: number; text: string }, status: number) {
  if (answer.status !== status) {
    throw new Error(`${step}: answered ${answer.status}: ${answer.text.slice(0, 500)}`);
  }
}

async function timed<T>(step: string, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const value = await work();
  console.log(`${step}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return value;
}

function graphctl(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      'npx',
      ['tsx', 'tools/graphctl/main.ts', ...args],
      { maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) =>
        error
          ? reject(new Error(`graphctl ${args[0]}: ${stderr || error.message}`))
          : resolve(stdout),
    );
  });
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      url: { type: 'string', default: 'http://127.0.0.1:8080' },
      token: { type: 'string' },
      user: { type: 'string' },
      nodes: { type: 'string', default: '100000' },
    },
  });
  const { url, token, user } = values;
  if (!token || !user) throw new Error("--token and --user (the key's user) are required");
  const size = Number(values.nodes);
  const api = (method: string, path: string, body?: unknown) =>
    call(url, token, method, path, body);

  const created = await api('POST', '/v1/projects', { name: `large-${randomUUID().slice(0, 8)}` });
  expectStatus('create project', created, 201);
  const project = JSON.parse(created.text) as {
    project: { id: string };
    main_branch: { id: string };
  };
  const fork = await api('POST', `/v1/projects/${project.project.id}/branches`, { name: 'large' });
  expectStatus('fork', fork, 201);
  const branchId = (JSON.parse(fork.text) as { branch: { id: string } }).branch.id;

  const nodes = Array.from({ length: size }, (_, i) => ({
    id: randomUUID(),
    input: randomUUID(),
    output: randomUUID(),
    name: `n${i}`,
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
  await timed(`${size} nodes (2 ports each) in batches of ${BATCH}`, async () => {
    for (let i = 0; i < nodes.length; i += BATCH) {
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
    }
  });
  await timed(`${size - 1} wires in batches of ${BATCH}`, async () => {
    for (let i = 1; i < nodes.length; i += BATCH) {
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
    }
  });
  const merged = await timed('merge into main (staged)', () =>
    api('POST', `/v1/branches/${branchId}/merge`, { expected_version: version }),
  );
  expectStatus('merge', merged, 200);
  const mainId = project.main_branch.id;
  const validated = await timed('validate main', () =>
    api('POST', `/v1/branches/${mainId}/validate`, {}),
  );
  expectStatus('validate', validated, 200);
  console.log(`  valid: ${(JSON.parse(validated.text) as { valid: boolean }).valid}`);
  const read = await timed('full read of main (streamed)', () =>
    api('GET', `/v1/graph/${project.project.id}`),
  );
  expectStatus('full read', read, 200);
  const graph = JSON.parse(read.text) as { nodes: unknown[]; edges: unknown[] };
  console.log(
    `  ${graph.nodes.length} nodes, ${graph.edges.length} wires, ${read.text.length} bytes`,
  );
  const exported = await timed('export main (graph file)', () =>
    api('GET', `/v1/branches/${mainId}/file`),
  );
  expectStatus('export', exported, 200);
  const dir = await mkdtemp(join(tmpdir(), 'large-graph-'));
  try {
    const file = join(dir, 'main.json');
    // a project of the same name is the user's already: the copy gets its own
    const graphFile = JSON.parse(exported.text) as { project_name: string };
    graphFile.project_name = `${graphFile.project_name} (imported)`;
    await writeFile(file, JSON.stringify(graphFile));
    console.log(`  file: ${((await stat(file)).size / 1024 / 1024).toFixed(1)} MiB`);
    const imported = await timed('import the file (graphctl import, staged)', () =>
      graphctl(['import', '--file', file, '--user', user]),
    );
    console.log(`  ${imported.trim().split('\n').join(' ')}`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
