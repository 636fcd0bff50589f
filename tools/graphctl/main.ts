/**
 * graphctl, the operator CLI, run as
 * `npm run -s graphctl -- <command>`. Each command prints one JSON object on
 * stdout; failures print {"error", "message"} on stderr and exit non-zero.
 */
import { open, readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { loadConfig } from '../../shared/config/config';
import type { Config } from '../../shared/config/config';
import { DeltaError, DomainError, InvalidInputError } from '../../shared/errors/domainErrors';
import type { ServiceContext } from '../../shared/http/serviceContext';
import { createLogger } from '../../shared/logging/logger';
import { Executor } from '../../shared/neo4j/executor';
import { connectRedis, createRedis, RedisClient } from '../../shared/redis/redisClient';
import { presentBranchRef } from '../../services/branches';
import { importDecisions } from '../../services/decisions';
import { ensureSchema } from '../../services/platform';
import { importProjectForUser, readGraphFileStream } from '../../services/graphfile';
import type { ImportProgress } from '../../services/graphfile';
import { addMember, createApiKey, revokeApiKey } from '../../services/identity';
import { presentProject } from '../../services/projects';
import { exportToFile, exportToStdout } from './exportCommand';
import { MCP_USAGE, runMcpCommand } from './mcpCommand';

const USAGE = `usage: graphctl <command>
  keys create --user NAME --scopes a,b,c [--projects ID,ID]
  keys revoke --key KEY_ID
  members add --project ID --user NAME --role editor|viewer
  decisions import --project ID --file PATH
      JSON Lines, one DecisionOut-shaped decision a line (any state: accepted,
      rejected, superseded, retired, captured, interviewing); a missing
      project_id is taken from --project, a different one is an invalid line.
      Written directly to Neo4j, upserted by id; prints {"imported": N}.
      All or nothing: if any line is invalid, nothing is imported and stderr
      lists every bad line: {"error": "invalid_lines", "message", "lines":
      [{"line": N, "reason"}]} (exit 1). Blank lines are skipped.
  export --branch ID [--out PATH]
      The branch's graph file (schema_version 6; any live branch, main
      included), written as a stream (never held whole). Without --out the
      file itself is the printed object; with --out it is written to PATH and
      {"branch_id", "out", "nodes", "edges"} is printed.
  import --file PATH --user NAME
      Creates a project owned by NAME (created when new) from a graph file
      (schema_version 3-6), validated like POST /v1/projects/import; prints
      {"main_branch", "project", "version"} like the 201 answer. The file is
      read as a stream (refused once it holds more than a branch's quotas) and
      checked whole before anything is written; progress lines go to stderr.
      A bad file prints the 422 detail on stderr (exit 1) and creates nothing.
${MCP_USAGE}`;

/** Commands of one word (the others are "group action"). */
const SINGLE_WORD = new Set(['export', 'import']);

class UsageError extends Error {}

/** What a command answers when it has printed its output itself (a streamed export). */
const PRINTED = Symbol('printed');

function list(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

function required(values: Record<string, string | boolean | undefined>, name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value === '') throw new UsageError(`--${name} is required`);
  return value;
}

/** A graph file read from disk as a stream (its text is never held whole). */
async function readGraphFileFrom(path: string, quotas: Config['quotas']): Promise<unknown> {
  const file = await open(path).catch((error: Error) => {
    throw new InvalidInputError('file_unreadable', `cannot read ${path}: ${error.message}`);
  });
  try {
    const text = file.createReadStream({ encoding: 'utf8', highWaterMark: 1 << 20 });
    return await readGraphFileStream(text, quotas, (read) =>
      reportProgress({ stage: 'read', ...read }),
    );
  } finally {
    await file.close();
  }
}

/** The written share last reported, in steps of 5% (a line per part would be hundreds). */
let reportedShare = -1;

/** An import's progress, one line on stderr per step (stdout keeps the one JSON answer). */
function reportProgress(progress: ImportProgress): void {
  if (progress.stage === 'written') {
    const share = Math.floor((20 * progress.written) / progress.records);
    if (share === reportedShare) return;
    reportedShare = share;
  }
  const line =
    progress.stage === 'read'
      ? `read: ${progress.nodes} nodes, ${progress.edges} wires`
      : progress.stage === 'checked'
        ? `checked: ${progress.nodes} nodes, ${progress.edges} wires; ${progress.records} records to write`
        : progress.stage === 'written'
          ? `written: ${progress.written} of ${progress.records} records (${Math.floor((100 * progress.written) / progress.records)}%)`
          : 'published: the project and its main';
  process.stderr.write(`import ${new Date().toISOString()} ${line}\n`);
}

/** A Redis connection for one command (a bounded wait for it, then closed). */
async function withRedis<T>(
  ctx: ServiceContext,
  use: (redis: RedisClient) => Promise<T>,
): Promise<T> {
  const redis = createRedis(ctx.config, ctx.logger, 'graphctl');
  try {
    await connectRedis(redis, 5000).catch(() => undefined);
    return await use(redis);
  } finally {
    redis.disconnect();
  }
}

/**
 * Runs the command of `argv`, once `schema` (the store's schema being ensured) is
 * ready; an import reads its file meanwhile (neither needs the other, and both take a
 * while: a large file's read is most of a second).
 */
async function run(
  argv: string[],
  executor: Executor,
  ctx: ServiceContext,
  schema: Promise<void>,
): Promise<unknown> {
  const [group, ...tail] = argv;
  const single = SINGLE_WORD.has(group ?? '');
  const action = single ? undefined : tail[0];
  const rest = single ? tail : tail.slice(1);
  const { values } = parseArgs({
    args: rest,
    options: {
      user: { type: 'string' },
      scopes: { type: 'string' },
      projects: { type: 'string' },
      key: { type: 'string' },
      project: { type: 'string' },
      role: { type: 'string' },
      file: { type: 'string' },
      branch: { type: 'string' },
      out: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  const command = single ? (group as string) : `${group ?? ''} ${action ?? ''}`;
  if (command !== 'import' || values.help) await schema;
  if (values.help) return { usage: USAGE };
  switch (command) {
    case 'keys create':
      if (values.scopes === undefined) throw new UsageError('--scopes is required');
      return createApiKey(executor, {
        user: required(values, 'user'),
        scopes: list(values.scopes),
        projects: values.projects === undefined ? null : list(values.projects),
      });
    case 'keys revoke':
      return withRedis(ctx, (redis) => revokeApiKey({ executor, redis }, required(values, 'key')));
    case 'members add':
      return addMember(executor, {
        projectId: required(values, 'project'),
        user: required(values, 'user'),
        role: required(values, 'role'),
      });
    case 'decisions import': {
      const path = required(values, 'file');
      const text = await readFile(path, 'utf8').catch((error: Error) => {
        throw new InvalidInputError('file_unreadable', `cannot read ${path}: ${error.message}`);
      });
      return importDecisions(executor, required(values, 'project'), text);
    }
    case 'export': {
      const branchId = required(values, 'branch');
      if (values.out === undefined) {
        await exportToStdout(executor, branchId);
        return PRINTED;
      }
      const out = required(values, 'out');
      const counts = await exportToFile(executor, branchId, out);
      return { branch_id: branchId.toLowerCase(), out, ...counts };
    }
    case 'import': {
      const [body] = await Promise.all([
        readGraphFileFrom(required(values, 'file'), ctx.config.quotas),
        schema,
      ]);
      const { project, main } = await importProjectForUser(
        ctx,
        required(values, 'user'),
        body,
        reportProgress,
      ).catch((error: unknown) => {
        // a bad file: the whole per-delta envelope, as the HTTP 422 gives it
        if (error instanceof DeltaError)
          throw new InvalidInputError(error.code, error.message, { ...error.envelope });
        throw error;
      });
      return {
        main_branch: presentBranchRef(main),
        project: presentProject(project),
        version: ctx.config.serviceVersion,
      };
    }
    default:
      throw new UsageError(`unknown command: ${command.trim() || '(none)'}`);
  }
}

async function main(): Promise<number> {
  const config = loadConfig();
  // the MCP server talks to the service over HTTP only (no database connection)
  if (process.argv[2] === 'mcp') return runMcpCommand(process.argv.slice(3), config);
  const logger = createLogger({ level: 'warn', name: 'graphctl', toStderr: true });
  const executor = new Executor({ ...config.neo4j, logger });
  try {
    const schema = ensureSchema(executor, logger);
    // a command refused before it waited for the schema still waits for it: the store's
    // error, if any, is the one told (as when the schema came first)
    const result = await run(
      process.argv.slice(2),
      executor,
      { executor, config, logger },
      schema,
    ).finally(() => schema);
    if (result !== PRINTED) process.stdout.write(`${JSON.stringify(result)}\n`);
    return 0;
  } catch (error) {
    if (
      error instanceof UsageError ||
      (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')
    ) {
      process.stderr.write(
        `${JSON.stringify({ error: 'usage', message: (error as Error).message })}\n${USAGE}\n`,
      );
      return 2;
    }
    if (error instanceof DomainError) {
      process.stderr.write(
        `${JSON.stringify({ error: error.code, message: error.message, ...error.extra })}\n`,
      );
      return 1;
    }
    throw error;
  } finally {
    await executor.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${JSON.stringify({ error: 'internal', message: String(error) })}\n`);
    process.exit(1);
  },
);
