/**
 * graphctl, the operator CLI (interpretations "Operator interface"), run as
 * `npm run -s graphctl -- <command>`. Each command prints one JSON object on
 * stdout; failures print {"error", "message"} on stderr and exit non-zero.
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../../shared/config/config';
import { DomainError } from '../../shared/errors/domainErrors';
import { createLogger } from '../../shared/logging/logger';
import { Executor } from '../../shared/neo4j/executor';
import { ensureSchema } from '../../services/gateway/ensureSchema';
import { addMember } from '../../services/identity/commands/addMember';
import { createApiKey } from '../../services/identity/commands/createApiKey';
import { revokeApiKey } from '../../services/identity/commands/revokeApiKey';

const USAGE = `usage: graphctl <command>
  keys create --user NAME --scopes a,b,c [--projects ID,ID]
  keys revoke --key KEY_ID
  members add --project ID --user NAME --role editor|viewer`;

class UsageError extends Error {}

function list(value: string | undefined): string[] {
  return (value ?? '').split(',').map((s) => s.trim()).filter((s) => s.length > 0);
}

function required(values: Record<string, string | undefined>, name: string): string {
  const value = values[name];
  if (value === undefined || value === '') throw new UsageError(`--${name} is required`);
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
    },
    strict: true,
  });
  const command = `${group ?? ''} ${action ?? ''}`;
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
      process.stderr.write(`${JSON.stringify({ error: error.code, message: error.message })}\n`);
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
