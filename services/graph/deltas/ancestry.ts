/**
 * Ancestor walks through a view. Containment is the property join GNode.parent_id
 * (no relationships), so a walk is unrolled levels of parents (store/deltaQueries.ts
 * ancestorChains, CHAIN_STEPS per query), repeated from where a chain stopped; the
 * nesting limit bounds it (and guards against a cycle in stored data).
 */
import type { QueryRunner } from '../../../shared/neo4j/namedQuery';
import { ancestorChains, CHAIN_STEPS } from '../store/deltaQueries';
import type { View } from '../view';

/** Up to CHAIN_STEPS ancestors of `id`, nearest first, and where the walk goes on. */
export interface ChainRow {
  id: string;
  chain: string[];
  next: string | null;
}

/** A node as ancestorChains reads it. */
export interface LevelNode {
  id: string;
  kind: string;
  parent_id: string | null;
}

/**
 * The ChainRows of `parents` (the nodes that exist of the ids asked), from
 * the nodes read level by level above them (`ancestors`, store/deltaQueries.ts
 * ancestorChains): each parent's first CHAIN_STEPS ancestors, nearest first, and the
 * parent id of the last of them. A chain ends where the next ancestor was not read
 * (the top, or a parent the view does not have), as one query per parent would end it.
 */
export function firstChainSteps(
  parents: readonly LevelNode[],
  ancestors: readonly LevelNode[],
): ChainRow[] {
  const byId = new Map<string, LevelNode>();
  for (const node of [...ancestors, ...parents]) byId.set(node.id, node);
  return parents.map((parent) => {
    const chain: string[] = [];
    let at: LevelNode | undefined = parent;
    while (chain.length < CHAIN_STEPS) {
      at = at.parent_id === null ? undefined : byId.get(at.parent_id);
      if (!at) break;
      chain.push(at.id);
    }
    return { id: parent.id, chain, next: at ? at.parent_id : null };
  });
}

/** The ChainRows of those of `ids` that exist in the view (ancestorChains). */
async function levelsAbove(tx: QueryRunner, view: View, ids: string[]): Promise<ChainRow[]> {
  const row = await tx.one<{ parents: LevelNode[]; ancestors: LevelNode[] }>(ancestorChains, {
    view,
    ids,
  });
  return row ? firstChainSteps(row.parents, row.ancestors) : [];
}

/**
 * The ancestors of each of `ids` that exists in the view, nearest first, at most
 * `maxSteps` of them; ids the view does not have are absent from the answer.
 * `firstSteps`: the ChainRows of `ids` when already read (in a statement that read
 * more, addRunQueries.ts), so only deeper chains cost a query.
 */
export async function ancestorsOf(
  tx: QueryRunner,
  view: View,
  ids: readonly string[],
  maxSteps: number,
  firstSteps?: ChainRow[],
): Promise<Map<string, string[]>> {
  const found = new Map<string, string[]>();
  /** chain followers: the start ids whose walk continues at a given node */
  let pending = new Map<string, string[]>(ids.map((id) => [id, [id]]));
  let first = true;
  while (pending.size > 0) {
    const rows =
      first && firstSteps ? firstSteps : await levelsAbove(tx, view, [...pending.keys()]);
    const next = new Map<string, string[]>();
    for (const row of rows) {
      for (const start of pending.get(row.id) ?? []) {
        // past the first round, row.id is itself the next ancestor of `start`
        const chain = first ? [] : [...(found.get(start) ?? []), row.id];
        chain.push(...row.chain);
        found.set(start, chain.slice(0, maxSteps));
        if (row.next !== null && chain.length < maxSteps) {
          next.set(row.next, [...(next.get(row.next) ?? []), start]);
        }
      }
    }
    first = false;
    pending = next;
  }
  return found;
}
