/**
 * Dotted paths of the nodes a scoped read returns. Pure: the caller supplies,
 * for every returned node, the names of its containment chain from the top level down
 * to the node itself (ancestors first, the node last), as read by walking parent_id upward.
 *
 * A node is addressable when every name on its chain is non-empty and free of the
 * separator, and no other returned node renders the same path. Otherwise it gets one
 * reason, checked in this order:
 *   empty_name         the node or an ancestor has an empty name
 *   reserved_separator a name on the chain contains '.'
 *   ambiguous          another returned node renders the same path (both get it)
 * Every node handed in lands in exactly one of `paths` or `unaddressable`.
 */

export const PATH_SEPARATOR = '.';

export type UnaddressableReason = 'empty_name' | 'reserved_separator' | 'ambiguous';

export interface NodeChain {
  /** Node id. */
  id: string;
  /** Names from the top-level ancestor down to the node itself. */
  names: readonly string[];
}

export interface NodeAddresses {
  paths: Record<string, string>;
  unaddressable: Record<string, UnaddressableReason>;
}

/** Why a single chain cannot be rendered, before ambiguity is considered. */
export function chainProblem(names: readonly string[]): UnaddressableReason | null {
  if (names.length === 0 || names.some((name) => name === '')) return 'empty_name';
  if (names.some((name) => name.includes(PATH_SEPARATOR))) return 'reserved_separator';
  return null;
}

export function renderPath(names: readonly string[]): string {
  return names.join(PATH_SEPARATOR);
}

/**
 * Paths and unaddressable reasons of the returned nodes. A node id given
 * twice counts once (the first chain wins); ambiguity is among distinct nodes only.
 */
export function addressNodes(chains: Iterable<NodeChain>): NodeAddresses {
  const paths: Record<string, string> = {};
  const unaddressable: Record<string, UnaddressableReason> = {};
  const seen = new Set<string>();
  const byPath = new Map<string, string[]>();
  for (const { id, names } of chains) {
    if (seen.has(id)) continue;
    seen.add(id);
    const problem = chainProblem(names);
    if (problem) {
      unaddressable[id] = problem;
      continue;
    }
    const path = renderPath(names);
    const holders = byPath.get(path);
    if (holders) holders.push(id);
    else byPath.set(path, [id]);
  }
  for (const [path, ids] of byPath) {
    for (const id of ids) {
      if (ids.length > 1) unaddressable[id] = 'ambiguous';
      else paths[id] = path;
    }
  }
  return { paths, unaddressable };
}
