/**
 * openChangeRequest (POST /v1/branches/{id}/change-request): the branch's owner asks for
 * review before merging into main. The checks of any change to a working branch
 * (requireBranchChangeable: graph:write, the editor role, an active branch that is not
 * main, a project not archived), under the branch's write lock, so two requests for one
 * branch serialize and at most one change request per branch is open (409
 * change_request_exists; the open_branch_id constraint holds it as well). The feed's
 * change_request_opened event is written in the same transaction.
 */
import { randomUUID } from 'node:crypto';
import { ConflictError } from '../../../shared/errors/domainErrors';
import { bodyObject } from '../../../shared/http/operation';
import type { Principal } from '../../../shared/http/principal';
import type { ServiceContext } from '../../../shared/http/serviceContext';
import { nowTimestamp } from '../../../shared/http/timestamps';
import { markUnderReview, requireBranchChangeable, visibleBranch } from '../../branches';
import { recordEvent } from '../../feed';
import { ChangeRequestRecord, checkTitle, optionalText } from '../changeRequestRecord';
import { createChangeRequest, findOpenOfBranch } from '../store/reviewQueries';

export interface OpenedChangeRequest {
  changeRequest: ChangeRequestRecord;
  branchName: string;
}

export async function openChangeRequest(
  ctx: ServiceContext,
  principal: Principal,
  branchId: string,
  rawBody: unknown,
): Promise<OpenedChangeRequest> {
  const body = bodyObject(rawBody);
  return ctx.executor.writeTx(async (tx) => {
    const { branch, ...grant } = await visibleBranch(tx, principal, branchId, { lock: true });
    requireBranchChangeable(principal, grant, branch);
    const title = checkTitle(body.title);
    const description = optionalText(body.description, ['body', 'description']);
    const open = await tx.one<{ changeRequest: ChangeRequestRecord }>(findOpenOfBranch, {
      branchId: branch.id,
    });
    if (open) {
      throw new ConflictError(
        'change_request_exists',
        'the branch already has an open change request',
        { change_request_id: open.changeRequest.id },
      );
    }
    const now = nowTimestamp();
    const row = await tx.one<{ changeRequest: ChangeRequestRecord }>(createChangeRequest, {
      id: randomUUID(),
      projectId: branch.project_id,
      branchId: branch.id,
      ownerId: principal.userId,
      title,
      description,
      now,
    });
    if (!row) throw new Error('the change request was not created');
    // members read the branch they are asked to review, from now until it is merged or closed
    await markUnderReview(tx, branch.id, true);
    await recordEvent(tx, {
      projectId: branch.project_id,
      kind: 'change_request_opened',
      actorId: principal.userId,
      now,
      branchId: branch.id,
      branchVersion: branch.version,
      changeRequestId: row.changeRequest.id,
    });
    return { changeRequest: row.changeRequest, branchName: branch.name };
  });
}
