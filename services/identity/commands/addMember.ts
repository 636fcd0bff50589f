/** graphctl members add: grants editor or viewer on a project (the owner keeps owner). */
import { randomUUID } from 'node:crypto';
import { InvalidInputError, NotFoundError } from '../../../shared/errors/domainErrors';
import { nowTimestamp } from '../../../shared/http/timestamps';
import type { Executor } from '../../../shared/neo4j/executor';
import { mergeUserByName, upsertMembership } from '../store/identityQueries';
import { checkUserName } from './createApiKey';

export async function addMember(
  executor: Executor,
  input: { projectId: string; user: string; role: string },
) {
  if (input.role !== 'editor' && input.role !== 'viewer') {
    throw new InvalidInputError('invalid_role', 'role must be editor or viewer');
  }
  const user = checkUserName(input.user);
  return executor.writeTx(async (tx) => {
    const now = nowTimestamp();
    const userRow = await tx.one<{ id: string }>(mergeUserByName, {
      name: user,
      newId: randomUUID(),
      now,
    });
    if (!userRow) throw new Error('user was not created');
    const row = await tx.one<{ role: string }>(upsertMembership, {
      userId: userRow.id,
      projectId: input.projectId,
      role: input.role,
      now,
    });
    if (!row) throw new NotFoundError('project');
    return { project_id: input.projectId, user_id: userRow.id, user: user, role: row.role };
  });
}
