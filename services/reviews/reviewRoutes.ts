/** HTTP operations of the reviews service: parse, call the command, present. */
import { created, ok, OperationTable } from '../../shared/http/operation';
import type { ServiceContext } from '../../shared/http/serviceContext';
import { presentBranchRef } from '../branches';
import { presentDiff, presentPreview } from '../merge';
import type { ChangeRequestState } from './changeRequestRecord';
import { openChangeRequest } from './commands/openChangeRequest';
import { listChangeRequests, readChangeRequest } from './commands/readChangeRequest';
import { reviewChangeRequest } from './commands/reviewChangeRequest';
import { getProtectionRules, setProtectionRules } from './commands/setProtectionRules';
import type { ProtectionRules, StoredRules } from './protectionRules';
import { presentChangeRequest, presentReview } from './reviewPresenter';
import { reviewGate } from './reviewGate';

export const CHANGE_REQUESTS_PAGE_DEFAULT = 50;

export function reviewRoutes(ctx: ServiceContext): OperationTable {
  const version = ctx.config.serviceVersion;
  const rulesAnswer = (projectId: string, stored: StoredRules) => ({
    rules: stored.rules,
    updated_at: stored.updatedAt,
    project_id: projectId,
    version,
  });
  return {
    openChangeRequest: async (req) => {
      const opened = await openChangeRequest(ctx, req.principal, req.params.branch_id, req.body);
      return created({
        change_request: presentChangeRequest(opened.changeRequest, opened.branchName),
        project_id: opened.changeRequest.project_id,
        version,
      });
    },

    listChangeRequests: async (req) => {
      const { project_id } = req.params;
      const state = (req.query.state ?? 'open') as ChangeRequestState;
      const limit = Number(req.query.limit ?? CHANGE_REQUESTS_PAGE_DEFAULT);
      const offset = Number(req.query.offset ?? 0);
      const page = await listChangeRequests(ctx, req.principal, project_id, {
        state,
        limit,
        offset,
      });
      return ok({
        change_requests: page.items.map((i) => presentChangeRequest(i.changeRequest, i.branchName)),
        has_more: page.hasMore,
        limit,
        offset,
        project_id,
        version,
      });
    },

    getChangeRequest: async (req) => {
      const view = await readChangeRequest(
        ctx,
        reviewGate,
        req.principal,
        req.params.change_request_id,
      );
      const current = view.branch.version;
      return ok({
        change_request: presentChangeRequest(view.changeRequest, view.branch.name),
        branch: presentBranchRef(view.branch),
        approvals: view.approvals,
        caller: {
          role: view.grant.role,
          branch_owner: view.changeRequest.owner_id === req.principal.userId,
        },
        diff: view.diff && presentDiff(view.diff, version),
        preview: view.preview && presentPreview(view.preview, version),
        reviews: view.reviews.map((r) => presentReview(r.review, r.comments, current)),
        project_id: view.changeRequest.project_id,
        version,
      });
    },

    reviewChangeRequest: async (req) => {
      const added = await reviewChangeRequest(
        ctx,
        req.principal,
        req.params.change_request_id,
        req.body,
      );
      const comments = added.comments.map((c) => ({
        id: c.id,
        review_id: added.review.id,
        body: c.body,
        anchor_kind: c.anchor?.kind ?? null,
        anchor_id: c.anchor?.id ?? null,
        anchor_version: c.anchor?.version ?? null,
        anchor_name: c.anchor?.name ?? null,
        in_reply_to: c.inReplyTo,
        created_at: added.review.created_at,
      }));
      return created({
        review: presentReview(added.review, comments, added.review.branch_version),
        change_request: presentChangeRequest(added.changeRequest, added.branchName),
        project_id: added.changeRequest.project_id,
        version,
      });
    },

    getProtectionRules: async (req) => {
      const { project_id } = req.params;
      return ok(rulesAnswer(project_id, await getProtectionRules(ctx, req.principal, project_id)));
    },

    setProtectionRules: async (req) => {
      const { project_id } = req.params;
      const rules = req.body as ProtectionRules;
      const stored = await setProtectionRules(ctx, req.principal, project_id, {
        required_approvals: rules.required_approvals,
        no_error_findings: rules.no_error_findings,
        require_up_to_date: rules.require_up_to_date,
      });
      return ok(rulesAnswer(project_id, stored));
    },
  };
}
