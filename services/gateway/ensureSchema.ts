/** Creates every service's constraints and indexes (idempotent) and waits for them. */
import { cypher, NamedQuery } from '../../shared/neo4j/namedQuery';
import type { Executor } from '../../shared/neo4j/executor';
import { branchSchema } from '../branches/store/branchQueries';
import { decisionSchema } from '../decisions/store/decisionQueries';
import { changeSchema } from '../graph/store/changeQueries';
import { graphSchema } from '../graph/store/graphSchema';
import { identitySchema } from '../identity/store/identityQueries';
import { projectSchema } from '../projects/store/projectQueries';
import { purgeSchema } from '../purge/store/purgeQueries';

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

export async function ensureSchema(executor: Executor): Promise<void> {
  for (const statement of ALL_SCHEMA) await executor.autoCommit(statement);
  await executor.autoCommit(awaitIndexes);
}
