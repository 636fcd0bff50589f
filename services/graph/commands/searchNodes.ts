/**
 * Name search (searchNodes): the nodes of a branch whose name contains a text,
 * case-insensitively, names starting with it first, each part ordered by lower-cased
 * name, then name, then id, each node with the ids of its ancestors from the top level
 * down, at the head or at `version`. A viewer that opened a large graph at its top level
 * finds a node inside boundaries it has not opened yet, then opens that path. Does not
 * touch last_opened_at.
 *
 * Served from indexes on the lower-cased name (store/searchQueries.ts says how): the
 * cost follows the limit for a text names start with, and the records containing the
 * text otherwise, not the size of the graph. The matches' ancestors are then read at the
 * same view, level by level for all matches at once (each boundary several matches sit
 * under is read once), a round trip per CHAIN_STEPS levels of the deepest match.
 */
import type { Principal } from '../../../shared/http/principal';
import type { ServiceContext } from '../../../shared/http/serviceContext';
import { BranchAccessRow, branchGrant } from '../../branches';
import type { BranchRecord } from '../../branches';
import type { NodeKind } from '../graphRecords';
import { completeChains } from '../scopedLoader';
import { DEFAULT_SEARCH_LIMIT } from '../store/scopedReadQueries';
import { searchNodesOf } from '../store/searchQueries';
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
  /** The matches, at most limit + 1; null on a discarded branch. */
  found: Omit<NodeMatch, 'path'>[] | null;
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
    shown.map((f) => ({ chain: [], rest: f.parent_id })),
    { byId: true, maxDepth: ctx.config.limits.maxNestingDepth },
  );
  return {
    branch,
    nodes: shown.map((match, i) => ({ ...match, path: paths[i] ?? [] })),
    truncated: found.length > limit,
  };
}
