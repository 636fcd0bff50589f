/** graphctl keys create: mints a key for a user (created when new); only its hash is kept. */
import { randomUUID } from 'node:crypto';
import { InvalidInputError } from '../../../shared/errors/domainErrors';
import { KNOWN_SCOPES } from '../../../shared/http/principal';
import { nowTimestamp } from '../../../shared/http/timestamps';
import type { Executor } from '../../../shared/neo4j/executor';
import { hashToken, mintToken } from '../keyTokens';
import { createApiKey as createApiKeyQuery } from '../store/identityQueries';
import { checkUserName, ensureUser } from '../users';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface CreatedKey {
  token: string;
  key_id: string;
  user_id: string;
}

export async function createApiKey(
  executor: Executor,
  input: { user: string; scopes: string[]; projects: string[] | null },
): Promise<CreatedKey> {
  const user = checkUserName(input.user);
  const unknown = input.scopes.filter((s) => !(KNOWN_SCOPES as readonly string[]).includes(s));
  if (unknown.length > 0) {
    throw new InvalidInputError(
      'unknown_scope',
      `unknown scopes: ${unknown.join(', ')} (known: ${KNOWN_SCOPES.join(', ')})`,
    );
  }
  const badIds = (input.projects ?? []).filter((id) => !UUID.test(id));
  if (badIds.length > 0)
    throw new InvalidInputError('invalid_project_id', `not uuids: ${badIds.join(', ')}`);
  const token = mintToken();
  const keyId = randomUUID();
  return executor.writeTx(async (tx) => {
    const userId = await ensureUser(tx, user);
    await tx.run(createApiKeyQuery, {
      userId,
      keyId,
      hash: hashToken(token),
      scopes: [...new Set(input.scopes)],
      projects: input.projects ? input.projects.map((p) => p.toLowerCase()) : null,
      now: nowTimestamp(),
    });
    return { token, key_id: keyId, user_id: userId };
  });
}
