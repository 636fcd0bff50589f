/**
 * The store's layout choice, measured: containment and port ownership as indexed
 * property joins (what the store does: GNode.parent_id, Port.node_id, one seek per
 * level) against versioned relationships between the same records (the alternative:
 * `{line, vfrom, vto}` on each relationship, checked while expanding). The fixture's
 * main gets such relationships beside its records (bench-only types), and a subtree of
 * depth 3 with the ports of every node in it is read both ways at main's head, straight
 * through the executor.
 */
import { mainView, OPEN, stateOf, statesWhere } from '../services/graph';
import type { Executor } from '../shared/neo4j/executor';
import { cypher } from '../shared/neo4j/namedQuery';
import { BenchClient } from './benchClient';
import { giveMainHistory, loadFixture, pick } from './graphFixture';
import { measure, Sample } from './stats';

const relateChildren = cypher(
  'bench.layout.relateChildren',
  `UNWIND $ids AS id
   MATCH (c:GNode {branch_id: $line, id: id}) WHERE c.vto = $open
   MATCH (p:GNode {branch_id: $line, id: c.parent_id}) WHERE p.vto = $open
   CREATE (p)-[:BENCH_CONTAINS {line: $line, vfrom: 0, vto: $open}]->(c)
   WITH c
   MATCH (pt:Port {branch_id: $line, node_id: c.id}) WHERE pt.vto = $open
   CREATE (c)-[:BENCH_HAS_PORT {line: $line, vfrom: 0, vto: $open}]->(pt)`,
);

/** The subtree to depth 3 with every node's ports, through the versioned relationships. */
const relationshipSubtree = cypher(
  'bench.layout.relationshipSubtree',
  `MATCH (r:GNode {branch_id: $view.line, id: $nodeId})
   WHERE r.vfrom <= $view.ver AND $view.ver < r.vto AND r.gone IS NULL
   CALL (r) {
     MATCH (r) ((a)-[x:BENCH_CONTAINS]->(b)
                WHERE x.line = $view.line AND x.vfrom <= $view.ver AND $view.ver < x.vto){0,3} (n)
     RETURN DISTINCT n
   }
   RETURN n {.*} AS node,
          COLLECT { MATCH (n)-[y:BENCH_HAS_PORT]->(p)
                    WHERE y.vfrom <= $view.ver AND $view.ver < y.vto RETURN p {.*} } AS ports`,
);

/** The same rows through the property joins, one index seek per line and level. */
const joinSubtree = cypher(
  'bench.layout.joinSubtree',
  `${stateOf('r', 'GNode', '$nodeId')}
   WITH r, [r] AS l0
   ${[1, 2, 3]
     .map(
       (level) => `CALL (l${level - 1}) {
     UNWIND l${level - 1} AS up
     ${statesWhere('c', 'GNode', { parent_id: 'up.id' })}
     RETURN collect(c) AS l${level}
   }`,
     )
     .join('\n   ')}
   UNWIND l0 + l1 + l2 + l3 AS n
   RETURN n {.*} AS node,
          COLLECT { ${statesWhere('p', 'Port', { node_id: 'n.id' })} RETURN p {.*} } AS ports`,
);

const CHUNK = 5000;

export async function runLayoutBench(options: {
  client: BenchClient;
  executor: Executor;
  sizes: number[];
}): Promise<Sample[]> {
  const { client, executor } = options;
  const samples: Sample[] = [];
  for (const size of options.sizes) {
    process.stderr.write(`layout @ ${size} nodes: loading fixture and relationships ...\n`);
    const { mainId } = await client.createProject();
    const fixture = await loadFixture(executor, mainId, size);
    const head = await giveMainHistory(executor, mainId, fixture, 10);
    const ids = fixture.nodes.map((n) => n.id);
    for (let i = 0; i < ids.length; i += CHUNK)
      await executor.write(relateChildren, {
        line: mainId,
        ids: ids.slice(i, i + CHUNK),
        open: OPEN,
      });
    const view = mainView(mainId, head);
    const warmup = size === options.sizes[0] ? 200 : 10;
    samples.push(
      await measure(
        'subtree depth 3: property joins',
        size,
        30,
        async () => {
          await executor.read(joinSubtree, { view, nodeId: pick(fixture.boundaries) });
        },
        warmup,
      ),
    );
    samples.push(
      await measure(
        'subtree depth 3: versioned relationships',
        size,
        30,
        async () => {
          await executor.read(relationshipSubtree, { view, nodeId: pick(fixture.boundaries) });
        },
        warmup,
      ),
    );
  }
  return samples;
}
