/**
 * graphctl, the operator CLI (interpretations "Operator interface"), run as
 * `npm run -s graphctl -- <command>`. Each command prints one JSON object on
 * stdout; failures print {"error", "message"} on stderr and exit non-zero.
 */
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { loadConfig } from '../../shared/config/config';
import { DomainError, InvalidInputError } from '../../shared/errors/domainErrors';
import { createLogger } from '../../shared/logging/logger';
import { Executor } from '../../shared/neo4j/executor';
import { importDecisions } from '../../services/decisions/commands/importDecisions';
import { ensureSchema } from '../../services/gateway/ensureSchema';
import { addMember } from '../../services/identity/commands/addMember';
import { createApiKey } from '../../services/identity/commands/createApiKey';
import { revokeApiKey } from '../../services/identity/commands/revokeApiKey';

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
      [{"line": N, "reason"}]} (exit 1). Blank lines are skipped.`;

class UsageError extends Error {}

function list(value: string | undefined): string[] {
  return (value ?? '').split(',').map((s) => s.trim()).filter((s) => s.length > 0);
}

function required(values: Record<string, string | boolean | undefined>, name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value === '') throw new UsageError(`--${name} is required`);
  return value;
}

async function run(argv: string[], executor: Executor): Promise<unknown> {
  const [group, action, ...rest] = argv;
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
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  const command = `${group ?? ''} ${action ?? ''}`;
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
      return revokeApiKey(executor, required(values, 'key'));
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
    default:
      throw new UsageError(`unknown command: ${command.trim() || '(none)'}`);
  }
}

async function main(): Promise<number> {
  const config = loadConfig();
  const logger = createLogger({ level: 'warn', name: 'graphctl' });
  const executor = new Executor({ ...config.neo4j, logger });
  try {
    await ensureSchema(executor);
    const result = await run(process.argv.slice(2), executor);
    process.stdout.write(`${JSON.stringify(result)}\n`);
    return 0;
  } catch (error) {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      process.stderr.write(`${JSON.stringify({ error: 'usage', message: (error as Error).message })}\n${USAGE}\n`);
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
