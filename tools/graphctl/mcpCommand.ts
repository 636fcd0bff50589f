/**
 * `graphctl mcp --url URL [--token KEY]`: the MCP server on stdio for agents
 * that start their tools as child processes. The key comes from --token or,
 * when absent, from GDS_TOKEN (read by shared/config like every setting). No
 * Neo4j or Redis connection: every tool is an HTTP call to the service at URL.
 * stdout carries only MCP messages; problems go to stderr as one JSON line.
 */
import { parseArgs } from 'node:util';
import type { Config } from '../../shared/config/config';

export const MCP_USAGE = `  mcp --url URL [--token KEY]
      Serves the Model Context Protocol on stdin/stdout: one tool per API
      operation an agent uses, generated from URL/openapi.json at start-up,
      plus graph-file and decisions resources and the change_graph_safely
      prompt. Every call is an HTTP call to URL with the key from --token,
      or from GDS_TOKEN when --token is absent. URL defaults to
      http://127.0.0.1:PORT (PORT from the environment, default 8080).`;

function problem(error: string, message: string): number {
  process.stderr.write(`${JSON.stringify({ error, message })}\n`);
  return error === 'usage' ? 2 : 1;
}

export async function runMcpCommand(args: string[], config: Config): Promise<number> {
  let values: { url?: string; token?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      args,
      options: {
        url: { type: 'string' },
        token: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }));
  } catch (error) {
    return problem('usage', `${(error as Error).message}\n${MCP_USAGE}`);
  }
  if (values.help) {
    process.stderr.write(`usage: graphctl\n${MCP_USAGE}\n`);
    return 0;
  }
  const url = values.url ?? `http://127.0.0.1:${config.port}`;
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('not http(s)');
  } catch {
    return problem('usage', `--url must be an http(s) URL, got ${JSON.stringify(url)}`);
  }
  const token = values.token ?? config.clientToken;
  if (!token) return problem('usage', 'an API key is needed: --token KEY or GDS_TOKEN');
  // the MCP server's modules (its SDK among them) are loaded by this command alone: loaded
  // with graphctl, they were about a fifth of a second of every other command's start
  const { runStdioServer, ServiceDocumentError } = await import('../../services/mcp');
  try {
    await runStdioServer({ url, token, version: config.serviceVersion });
    return 0;
  } catch (error) {
    if (error instanceof ServiceDocumentError) return problem('unreachable', error.message);
    throw error;
  }
}
