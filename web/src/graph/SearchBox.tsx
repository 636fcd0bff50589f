/**
 * Search by node name: the nodes read so far answer at once, and the service
 * (searchNodes) answers for the whole branch, so a node inside a boundary not opened
 * yet is found too. Picking one opens its boundaries and selects it.
 */
import { useEffect, useMemo, useState } from 'react';
import { api, unwrap } from '../api';
import type { LoadedGraph } from './graphModel';

const MAX_HITS = 20;
/** Wait this long after the last keystroke before asking the service. */
const SEARCH_DELAY_MS = 250;
const MAX_QUERY = 200;

interface Hit {
  id: string;
  name: string;
  /** Ancestor ids from the top level down, when the service answered this hit. */
  path?: string[];
}

export function SearchBox({
  graph,
  branchId,
  revision,
  version,
  onPick,
}: {
  graph: LoadedGraph;
  branchId: string;
  revision: number;
  /** The version on screen when it is pinned (searchNodes reads that version). */
  version?: number | null;
  onPick: (id: string, path?: string[]) => void;
}) {
  const [query, setQuery] = useState('');
  const [remote, setRemote] = useState<{ q: string; hits: Hit[] } | null>(null);
  const q = query.trim().toLowerCase().slice(0, MAX_QUERY);

  const local = useMemo(() => {
    if (!q) return [];
    const out: Hit[] = [];
    for (const node of graph.nodes.values()) {
      if (node.data.name.toLowerCase().includes(q)) out.push({ id: node.id, name: node.data.name });
      if (out.length >= MAX_HITS) break;
    }
    return out;
  }, [graph, revision, q]);

  useEffect(() => {
    if (!q || !branchId) return;
    let live = true;
    const timer = setTimeout(() => {
      unwrap(
        api.GET('/v1/branches/{branch_id}/nodes/search', {
          params: {
            path: { branch_id: branchId },
            query: {
              q,
              limit: MAX_HITS,
              ...(version === null || version === undefined ? {} : { version }),
            },
          },
        }),
      ).then(
        (found) => {
          if (live) setRemote({ q, hits: found.nodes });
        },
        // the loaded nodes still answer; a failed search only means fewer hits
        () => undefined,
      );
    }, SEARCH_DELAY_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [q, branchId, version]);

  const hits = useMemo(() => {
    const fromService = remote && remote.q === q ? remote.hits : [];
    const seen = new Set(fromService.map((h) => h.id));
    return [...fromService, ...local.filter((h) => !seen.has(h.id))].slice(0, MAX_HITS);
  }, [remote, local, q]);

  return (
    <div className="search" role="search">
      <label htmlFor="node-search">Find node</label>
      <input
        id="node-search"
        type="search"
        value={query}
        placeholder="name"
        maxLength={MAX_QUERY}
        onChange={(e) => setQuery(e.target.value)}
      />
      {hits.length > 0 && (
        <ul className="search-hits" aria-label="Matching nodes">
          {hits.map((h) => (
            <li key={h.id}>
              <button
                type="button"
                className="link-button"
                onClick={() => {
                  onPick(h.id, h.path);
                  setQuery('');
                }}
              >
                {h.name}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
