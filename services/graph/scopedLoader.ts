/**
 * Row shapes shared by the scoped reads: nodes with their ports and
 * containment chains, and wires with how many of their endpoints were read. The
 * rows of store/scopedReadQueries.ts map to graphRecords here, and walks a statement
 * left unfinished (deeper than CHAIN_STEPS levels) are finished here.
 */
import { EdgeRecord, groupPorts, NodeRecord, NodeWithPorts, PortRecord } from './graphRecords';
import type { Executor } from '../../shared/neo4j/executor';
import type { NodeChain } from './paths';
import { CHAIN_STEPS } from './store/scopedReadFragments';
import { ancestorsFrom, descendantIdsFrom } from './store/scopedReadQueries';
import type { View } from './view';

/** A returned node with the names of its containment chain (top level first). */
export interface ChainedNode {
  entry: NodeWithPorts;
  names: string[];
}

/** A wire with the number of its endpoints inside the node set it was read for (1 or 2). */
export interface ScopedEdge extends EdgeRecord {
  inside: number;
}

export function withPorts(node: NodeRecord, ports: PortRecord[]): NodeWithPorts {
  const [entry] = groupPorts([node], ports);
  if (!entry) throw new Error(`node ${node.id} lost while grouping its ports`);
  return entry;
}

export function chainOf({ entry, names }: ChainedNode): NodeChain {
  return { id: entry.node.id, names };
}

export type ChildRow = { node: NodeRecord; ports: PortRecord[] };

/** Children rows as chained nodes, their chains extending the parent's. */
export function chainChildren(parent: ChainedNode, rows: ChildRow[]): ChainedNode[] {
  return rows.map((r) => ({
    entry: withPorts(r.node, r.ports),
    names: [...parent.names, r.node.name],
  }));
}

/** A chain as a statement returns it: cut after CHAIN_STEPS levels when `rest` (the id
 * of the next ancestor up) is not null. */
export type ChainPart = {
  chain: string[];
  rest: string | null;
};

/** A node as ancestorsFrom reads it. */
type ChainLink = { id: string; parent_id: string | null; name: string };

/**
 * Completes chains cut by the statement that read them (store/scopedReadFragments.ts
 * CHAIN_STEPS), at the same view: the ancestors above each `rest`, names or (`byId`)
 * ids, top level first. The ancestors of all the parts are read together, level by
 * level (ancestorsFrom), each distinct one once, CHAIN_STEPS levels per round trip; a
 * graph within CHAIN_STEPS levels of nesting takes one. `maxRounds` (the nesting limit,
 * rounded up to whole walks) stops a walk that would not end; a chain stops below an
 * ancestor the view does not hold.
 */
export async function completeChains(
  executor: Executor,
  view: View,
  parts: ChainPart[],
  options: { byId: boolean; maxDepth: number },
): Promise<string[][]> {
  const links = new Map<string, ChainLink>();
  const asked = new Set<string>();
  let next = [...new Set(parts.flatMap((p) => (p.rest === null ? [] : [p.rest])))];
  const maxRounds = Math.ceil(options.maxDepth / CHAIN_STEPS) + 1;
  for (let round = 0; round < maxRounds && next.length > 0; round += 1) {
    for (const id of next) asked.add(id);
    const [row] = await executor.read<{ nodes: ChainLink[] }>(ancestorsFrom, { view, ids: next });
    for (const link of row?.nodes ?? []) links.set(link.id, link);
    const parents = [...links.values()].map((link) => link.parent_id);
    next = [
      ...new Set(
        parents.filter((id): id is string => id !== null && !links.has(id) && !asked.has(id)),
      ),
    ];
  }
  return parts.map(({ chain, rest }) => {
    const above: string[] = [];
    const linkOf = (id: string | null) => (id === null ? undefined : links.get(id));
    for (let at = linkOf(rest); at; at = linkOf(at.parent_id)) {
      above.push(options.byId ? at.id : at.name);
      if (above.length > links.size) break; // a containment loop: never in a valid graph
    }
    return [...above.reverse(), ...chain];
  });
}

/**
 * The ids below a boundary past the CHAIN_STEPS levels its statement walked: from the
 * ids at the last level walked (`frontier`) down to the leaves, CHAIN_STEPS levels per
 * round trip, at the same view.
 */
export async function idsBelow(
  executor: Executor,
  view: View,
  frontier: string[],
  maxDepth: number,
): Promise<string[]> {
  const all: string[] = [];
  let level = frontier;
  const maxRounds = Math.ceil(maxDepth / CHAIN_STEPS) + 1;
  for (let round = 0; round < maxRounds && level.length > 0; round += 1) {
    const [row] = await executor.read<{ found: string[]; frontier: string[] }>(descendantIdsFrom, {
      view,
      ids: level,
    });
    for (const found of row?.found ?? []) all.push(found);
    level = row?.frontier ?? [];
  }
  return all;
}
