/**
 * getChangeRequest (GET /v1/change-requests/{id}) and listChangeRequests (GET
 * /v1/projects/{id}/change-requests): every member of the project reads its change
 * requests, whoever owns the branches (others: 404, as a missing one). An open change
 * request shows the branch's diff against main and the merge preview (merge's
 * diffForReview and previewForReview, with main's protection rules), read after the
 * change request itself; reviews carry `stale` against the branch's current version.
 */
import { NotFoundError } from '../../../shared/errors/domainErrors';
import type { Principal } from '../../../shared/http/principal';
import type { ServiceContext } from '../../../shared/http/serviceContext';
import type { QueryRunner } from '../../../shared/neo4j/namedQuery';
import { reviewedBranch } from '../../branches';
import type { BranchRecord } from '../../branches';
import { visibleProject } from '../../identity';
import type { ProjectGrant } from '../../identity';
import { diffForReview, MergeGate, MergePreview, previewForReview } from '../../merge';
import { Approvals, approvalsOfRequest } from '../approvals';
import type {
  ChangeRequestRecord,
  ChangeRequestState,
  CommentRecord,
  ReviewRecord,
} from '../changeRequestRecord';
import { rulesOfProject } from '../protectionRules';
import { findChangeRequest, listChangeRequestsPage, reviewsOf } from '../store/reviewQueries';

export type ReviewWithComments = {
  review: ReviewRecord;
  comments: CommentRecord[];
};

export interface ChangeRequestView {
  changeRequest: ChangeRequestRecord;
  /** The caller's role on the project (presented as `caller`). */
  grant: ProjectGrant;
  branch: BranchRecord;
  approvals: Approvals & { required: number };
  reviews: ReviewWithComments[];
  diff: Awaited<ReturnType<typeof diffForReview>> | null;
  preview: MergePreview | null;
}

/** The change request and the caller's grant on its project; 404 when not a member. */
export async function visibleChangeRequest(
  tx: QueryRunner,
  principal: Principal,
  id: string,
  query = findChangeRequest,
): Promise<{ changeRequest: ChangeRequestRecord; grant: ProjectGrant }> {
  const row = await tx.one<{ changeRequest: ChangeRequestRecord }>(query, { id });
  if (!row) throw new NotFoundError('change request');
  try {
    const grant = await visibleProject(tx, principal, row.changeRequest.project_id);
    return { changeRequest: row.changeRequest, grant };
  } catch (error) {
    if (error instanceof NotFoundError) throw new NotFoundError('change request');
    throw error;
  }
}

export async function readChangeRequest(
  ctx: ServiceContext,
  gate: MergeGate,
  principal: Principal,
  id: string,
): Promise<ChangeRequestView> {
  const found = await ctx.executor.readTx(async (tx) => {
    const { changeRequest, grant } = await visibleChangeRequest(tx, principal, id);
    const { branch } = await reviewedBranch(tx, principal, changeRequest.branch_id);
    const rows = await tx.run<ReviewWithComments>(reviewsOf, { crId: changeRequest.id });
    const approvals = await approvalsOfRequest(tx, changeRequest.id, branch.version);
    const { rules } = await rulesOfProject(tx, changeRequest.project_id);
    return {
      changeRequest,
      grant,
      branch,
      reviews: rows,
      approvals: { ...approvals, required: rules.required_approvals },
    };
  });
  if (found.changeRequest.state !== 'open') return { ...found, diff: null, preview: null };
  const diff = await diffForReview(ctx, found.branch);
  const preview = await previewForReview(ctx, gate, found.branch, found.grant);
  return { ...found, diff, preview };
}

export interface ChangeRequestPage {
  items: { changeRequest: ChangeRequestRecord; branchName: string }[];
  hasMore: boolean;
}

export async function listChangeRequests(
  ctx: ServiceContext,
  principal: Principal,
  projectId: string,
  page: { state: ChangeRequestState; limit: number; offset: number },
): Promise<ChangeRequestPage> {
  return ctx.executor.readTx(async (tx) => {
    await visibleProject(tx, principal, projectId);
    const rows = await tx.run<{ changeRequest: ChangeRequestRecord; branchName: string }>(
      listChangeRequestsPage,
      { projectId, ...page },
    );
    return { items: rows.slice(0, page.limit), hasMore: rows.length > page.limit };
  });
}
