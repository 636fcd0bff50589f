/** Search by node name among the nodes read so far; picking one opens its boundaries and selects it. */
import { useMemo, useState } from 'react';
import type { LoadedGraph } from './graphModel';

const MAX_HITS = 20;

export function SearchBox({
  graph,
  revision,
  onPick,
}: {
  graph: LoadedGraph;
  revision: number;
  onPick: (id: string) => void;
}) {
  const [query, setQuery] = useState('');
  const hits = useMemo(() => {
    const q = query.trim().toLowerCase();
    if (!q) return [];
    const out: { id: string; name: string }[] = [];
    for (const node of graph.nodes.values()) {
      if (node.data.name.toLowerCase().includes(q)) out.push({ id: node.id, name: node.data.name });
      if (out.length >= MAX_HITS) break;
    }
    return out;
  }, [graph, revision, query]);
  return (
    <div className="search" role="search">
      <label htmlFor="node-search">Find node</label>
      <input
        id="node-search"
        type="search"
        value={query}
        placeholder="name"
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
                  onPick(h.id);
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
