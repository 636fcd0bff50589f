/**
 * Creates every service's constraints and indexes (idempotent) and waits for them.
 * Each service exports its schema rules as `<service>Schema` from its index.ts; this
 * composes them, and the Executor applies them (it knows which Neo4j answers mean
 * "already there" and which are worth a retry). Every process that opens the graph
 * database runs it at start-up: the gateway, each split-mode service process, the
 * worker and graphctl. Graph content written before the versioned store is moved to it
 * once, right after (graph's migrateStore).
 */
import type { Logger } from 'pino';
import type { Executor } from '../../shared/neo4j/executor';
import type { NamedQuery } from '../../shared/neo4j/namedQuery';
import { branchSchema } from '../branches';
import { decisionSchema } from '../decisions';
import { changeSchema, graphSchema, migrateStore } from '../graph';
import { identitySchema } from '../identity';
import { projectSchema } from '../projects';
import { purgeSchema } from '../purge';
import { feedSchema } from '../feed';
import { reviewsSchema } from '../reviews';
import { webhookSchema } from '../webhooks';
import { awaitIndexes } from './store/schemaQueries';

export const ALL_SCHEMA: readonly NamedQuery[] = [
  ...identitySchema,
  ...projectSchema,
  ...branchSchema,
  ...graphSchema,
  ...changeSchema,
  ...decisionSchema,
  ...purgeSchema,
  ...feedSchema,
  ...reviewsSchema,
  ...webhookSchema,
];

/** The schema, then the one-time move of older graph content to the versioned store. */
export async function ensureSchema(executor: Executor, logger: Logger): Promise<void> {
  await executor.applySchema(ALL_SCHEMA, awaitIndexes);
  await migrateStore(executor, logger);
}
