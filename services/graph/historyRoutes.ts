/**
 * HTTP operations of a node's history (getNodeHistory, getMainNodeHistory): parse,
 * call the command, present (NodeHistoryResponse).
 */
import type { components } from '../../shared/api/openapi.generated';
import { ok, OperationRequest, OperationTable } from '../../shared/http/operation';
import type { ServiceContext } from '../../shared/http/serviceContext';
import { presentBranchRef } from '../branches';
import {
  HistoryPage,
  NodeHistoryRead,
  readMainNodeHistory,
  readNodeHistory,
} from './commands/readNodeHistory';
import type { NodeChange } from './trail/nodeHistory';
import { graphVersion } from './viewResolver';

type Schemas = components['schemas'];

/** Page size when the caller sends none (PageLimit's default). */
export const HISTORY_PAGE_DEFAULT = 50;

function pageOf(req: OperationRequest): HistoryPage {
  return {
    limit: req.query.limit === undefined ? HISTORY_PAGE_DEFAULT : Number(req.query.limit),
    offset: req.query.offset === undefined ? 0 : Number(req.query.offset),
  };
}

function presentNodeChange(change: NodeChange): Schemas['NodeHistoryChange'] {
  return {
    branch_id: change.line,
    version: change.version,
    kind: change.kind,
    actor: change.actorId,
    created_at: change.createdAt,
    action: change.action,
    fields: change.fields,
    ports: change.ports,
    wires: change.wires,
    merged_branch_id: change.mergedBranchId,
    ...(change.kind === 'revert' &&
      change.revertedVersion !== null && { reverted_version: change.revertedVersion }),
  };
}

export function historyRoutes(ctx: ServiceContext): OperationTable {
  const version = ctx.config.serviceVersion;
  const present = (read: NodeHistoryRead, page: HistoryPage) =>
    ok({
      branch: presentBranchRef(read.branch),
      node_id: read.nodeId.toLowerCase(),
      changes: read.changes.map(presentNodeChange),
      fields: Object.fromEntries(
        Object.entries(read.fields).map(([field, set]) => [
          field,
          { branch_id: set.line, version: set.version },
        ]),
      ),
      has_more: read.hasMore,
      limit: page.limit,
      offset: page.offset,
      project_id: read.branch.project_id,
      version,
    });

  return {
    getNodeHistory: async (req) => {
      const page = pageOf(req);
      const { branch_id, node_id } = req.params;
      return present(
        await readNodeHistory(ctx, req.principal, branch_id, node_id, page, graphVersion(req)),
        page,
      );
    },

    getMainNodeHistory: async (req) => {
      const page = pageOf(req);
      const { project_id, node_id } = req.params;
      return present(
        await readMainNodeHistory(ctx, req.principal, project_id, node_id, page, graphVersion(req)),
        page,
      );
    },
  };
}
