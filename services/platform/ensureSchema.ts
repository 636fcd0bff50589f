/** Creates every service's constraints and indexes (idempotent) and waits for them. */
import { cypher, NamedQuery } from '../../shared/neo4j/namedQuery';
import type { Executor } from '../../shared/neo4j/executor';
import { branchSchema } from '../branches';
import { decisionSchema } from '../decisions';
import { changeSchema, graphSchema } from '../graph';
import { identitySchema } from '../identity';
import { projectSchema } from '../projects';
import { purgeSchema } from '../purge';

const awaitIndexes = cypher('awaitIndexes', 'CALL db.awaitIndexes(300)');

export const ALL_SCHEMA: NamedQuery[] = [
  ...identitySchema,
  ...projectSchema,
  ...branchSchema,
  ...graphSchema,
  ...changeSchema,
  ...decisionSchema,
  ...purgeSchema,
];

/**
 * Several processes may start at once on a fresh database (separate-process mode,
 * issue 6): `IF NOT EXISTS` does not stop two of them racing, and the loser is told
 * the rule already exists, which is what it wanted.
 */
function createdConcurrently(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  return typeof code === 'string' && /^Neo\.ClientError\.Schema\.\w*AlreadyExists$/.test(code);
}

/** Schema statements racing each other can also deadlock: those are retried. */
function transient(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  return typeof code === 'string' && code.startsWith('Neo.TransientError.');
}

async function applyStatement(executor: Executor, statement: NamedQuery): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await executor.autoCommit(statement);
      return;
    } catch (error) {
      if (createdConcurrently(error)) return;
      if (!transient(error) || attempt >= 8) throw error;
      await new Promise((r) => setTimeout(r, 50 * attempt + Math.random() * 200));
    }
  }
}

export async function ensureSchema(executor: Executor): Promise<void> {
  for (const statement of ALL_SCHEMA) await applyStatement(executor, statement);
  await executor.autoCommit(awaitIndexes);
}
