/** graphctl members add: grants editor or viewer on a project (the owner keeps owner). */
import { InvalidInputError, NotFoundError } from '../../../shared/errors/domainErrors';
import { nowTimestamp } from '../../../shared/http/timestamps';
import type { Executor } from '../../../shared/neo4j/executor';
import { upsertMembership } from '../store/identityQueries';
import { checkUserName, ensureUser } from '../users';

export async function addMember(
  executor: Executor,
  input: { projectId: string; user: string; role: string },
) {
  if (input.role !== 'editor' && input.role !== 'viewer') {
    throw new InvalidInputError('invalid_role', 'role must be editor or viewer');
  }
  const user = checkUserName(input.user);
  return executor.writeTx(async (tx) => {
    const userId = await ensureUser(tx, user);
    const row = await tx.one<{ role: string }>(upsertMembership, {
      userId,
      projectId: input.projectId,
      role: input.role,
      now: nowTimestamp(),
    });
    if (!row) throw new NotFoundError('project');
    return { project_id: input.projectId, user_id: userId, user: user, role: row.role };
  });
}
