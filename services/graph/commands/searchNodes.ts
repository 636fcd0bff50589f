/**
 * Name search (searchNodes): the nodes of a branch whose name contains a text,
 * case-insensitively, names starting with it first, each with the ids of its
 * ancestors from the top level down, at the head or at `version`. A viewer that opened a large graph at its top
 * level finds a node inside boundaries it has not opened yet, then opens that path.
 * Does not touch last_opened_at.
 */
import type { Principal } from '../../../shared/http/principal';
import type { ServiceContext } from '../../../shared/http/serviceContext';
import { BranchAccessRow, branchGrant } from '../../branches';
import type { BranchRecord } from '../../branches';
import type { NodeKind } from '../graphRecords';
import { completeChains } from '../scopedLoader';
import { DEFAULT_SEARCH_LIMIT, searchNodesOf } from '../store/scopedReadQueries';
import { resolveView } from '../viewResolver';

export interface NodeMatch {
  id: string;
  name: string;
  kind: NodeKind;
  parent_id: string | null;
  /** Ancestor ids from the top level down, without the node itself. */
  path: string[];
}

export interface NodeSearch {
  branch: BranchRecord;
  nodes: NodeMatch[];
  /** More nodes match than `limit`. */
  truncated: boolean;
}

interface SearchRow extends BranchAccessRow {
  /** Matches with their paths as far as the statement walked (`rest`: the next id up). */
  found: (NodeMatch & { rest: string | null })[] | null;
}

export async function searchNodes(
  ctx: ServiceContext,
  principal: Principal,
  branchId: string,
  query: string,
  limit = DEFAULT_SEARCH_LIMIT,
  version?: number,
): Promise<NodeSearch> {
  const [row] = await ctx.executor.read<SearchRow & Record<string, unknown>>(searchNodesOf, {
    branchId,
    userId: principal.userId,
    q: query.toLowerCase(),
    limit,
    version: version ?? null,
  });
  const { branch } = branchGrant(principal, row);
  const view = resolveView(branch, version);
  const found = row.found ?? [];
  const shown = found.slice(0, limit);
  const paths = await completeChains(
    ctx.executor,
    view,
    shown.map((f) => ({ chain: f.path, rest: f.rest })),
    { byId: true, maxDepth: ctx.config.limits.maxNestingDepth },
  );
  return {
    branch,
    nodes: shown.map(({ rest: _rest, ...match }, i) => ({ ...match, path: paths[i] ?? [] })),
    truncated: found.length > limit,
  };
}
