/**
 * Users as other code meets them: a user name's rule, the user of a name (created
 * on first use, as `graphctl keys create`, `graphctl members add` and
 * `graphctl import` do), and the per-user write lock.
 */
import { randomUUID } from 'node:crypto';
import { InvalidInputError } from '../../shared/errors/domainErrors';
import { nowTimestamp } from '../../shared/http/timestamps';
import type { QueryRunner } from '../../shared/neo4j/namedQuery';
import { lockUser as lockUserQuery, mergeUserByName } from './store/identityQueries';

/** A user name trimmed, 1 to 200 characters. */
export function checkUserName(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length === 0 || trimmed.length > 200) {
    throw new InvalidInputError('invalid_user', 'user names are 1 to 200 characters');
  }
  return trimmed;
}

/** The id of the user called `name` (already checked), created in `tx` when new. */
export async function ensureUser(tx: QueryRunner, name: string): Promise<string> {
  const row = await tx.one<{ id: string }>(mergeUserByName, {
    name,
    newId: randomUUID(),
    now: nowTimestamp(),
  });
  if (!row) throw new Error('user was not created');
  return row.id;
}

/**
 * Takes the exclusive lock on the user's node for the rest of the transaction, so
 * that the name-uniqueness and cap checks of one user's concurrent writes serialize.
 */
export async function lockUser(tx: QueryRunner, userId: string): Promise<void> {
  await tx.run(lockUserQuery, { userId });
}
