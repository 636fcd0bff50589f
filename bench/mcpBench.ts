/**
 * `make bench-mcp`: the latency of MCP (Streamable HTTP at /mcp, the SDK's own
 * Client) beside the same call over plain HTTP, on the service in process: a
 * subtree read (a boundary with 100 children, depth 2) and a 10-delta apply.
 * The two ways alternate call by call so both see the same machine load; prints
 * p50/p95 per way and the p50 ratio (target: MCP within 1.3x of HTTP). The HTTP
 * apply sends an Idempotency-Key as the MCP tool does, so both make the same request.
 *   npx tsx bench/mcpBench.ts [--runs 200]
 */
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createLogger } from '../shared/logging/logger';
import { startService } from '../services/gateway';
import { benchConfig, benchUser, branchWith } from './benchService';
import { percentile, verdict } from './stats';

/** MCP's price over plain HTTP: each operation's p50 within this of its HTTP p50. */
const MCP_TARGET = 1.3;

const addNode = (parentId: string | null = null, kind = 'behavior') => ({
  type: 'add_node',
  node: { id: randomUUID(), kind, parent_id: parentId },
});

interface Way {
  label: string;
  subtree(): Promise<void>;
  apply(deltas: unknown[], expected: number): Promise<number>;
}

function toolBody(answer: unknown): any {
  const result = answer as { isError?: boolean; content: { text: string }[] };
  const text = result.content[0].text;
  if (result.isError) throw new Error(`tool error: ${text.slice(0, 400)}`);
  return JSON.parse(text);
}

function summary(times: number[]) {
  const sorted = [...times].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95) };
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { runs: { type: 'string', default: '200' } } });
  const runs = Number(values.runs);
  const service = await startService(benchConfig(), createLogger({ level: 'warn' }));
  const mcp = new Client({ name: 'bench', version: '1.0.0' });
  try {
    // plain HTTP through fetch, as the MCP client's transport: the ratio is MCP's own cost
    const { client: http, token } = await benchUser(service, 'bench-mcp', ['graph:write'], 'fetch');
    const root = addNode(null, 'boundary');
    const children = Array.from({ length: 100 }, () => addNode(root.node.id));
    const start = await branchWith(http, [root, ...children]);
    const branchId = start.branchId;
    let version = start.version;
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL('/mcp', service.url), {
        requestInit: { headers: { Authorization: `Bearer ${token}` } },
      }),
    );
    await mcp.listTools(); // as an agent does; the client then checks each structured result
    const subtreeArgs = { branch_id: branchId, node_id: root.node.id, depth: 2 };
    const ways: Way[] = [
      {
        label: 'HTTP',
        subtree: async () => {
          await http.call('GET', `/v1/branches/${branchId}/subtree/${root.node.id}?depth=2`);
        },
        // the request the MCP tool makes: with an Idempotency-Key (kept in Redis)
        apply: async (deltas, expected) =>
          (
            await http.call(
              'POST',
              `/v1/branches/${branchId}/deltas`,
              { deltas, expected_version: expected },
              { 'Idempotency-Key': `bench-${randomUUID()}` },
            )
          ).branch.version as number,
      },
      {
        label: 'MCP (HTTP transport)',
        subtree: async () => {
          toolBody(await mcp.callTool({ name: 'get_subtree', arguments: subtreeArgs }));
        },
        apply: async (deltas, expected) =>
          toolBody(
            await mcp.callTool({
              name: 'apply_deltas',
              arguments: { branch_id: branchId, deltas, expected_version: expected },
            }),
          ).branch.version as number,
      },
    ];
    const operations: [string, (way: Way) => Promise<void>][] = [
      ['subtree read (100 children, depth 2)', (way) => way.subtree()],
      [
        'apply 10 deltas',
        async (way) => {
          version = await way.apply(
            Array.from({ length: 10 }, () => addNode(root.node.id)),
            version,
          );
        },
      ],
    ];
    console.log(
      `\n| operation | HTTP p50 / p95 ms | MCP p50 / p95 ms | p50 ratio MCP / HTTP | target <= ${MCP_TARGET}x |`,
    );
    console.log('|---|---|---|---|---|');
    for (const [label, step] of operations) {
      const times: number[][] = ways.map(() => []);
      for (let i = -20; i < runs; i++) {
        for (const [w, way] of ways.entries()) {
          const started = performance.now();
          await step(way);
          if (i >= 0) times[w].push(performance.now() - started);
        }
      }
      const [a, b] = times.map(summary);
      process.stderr.write(
        `  ${label}: HTTP p50 ${a.p50.toFixed(1)} ms, MCP p50 ${b.p50.toFixed(1)} ms\n`,
      );
      console.log(
        `| ${label} | ${a.p50.toFixed(1)} / ${a.p95.toFixed(1)} | ${b.p50.toFixed(1)} / ${b.p95.toFixed(1)} | ${(b.p50 / a.p50).toFixed(2)}x | ${verdict(b.p50 <= MCP_TARGET * a.p50)} |`,
      );
    }
    console.log(`\n${runs} runs per way and operation, alternating`);
  } finally {
    await mcp.close().catch(() => undefined);
    await service.close();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
