/**
 * TEST FIXTURES ONLY — they write to Neo4j directly through the harness executor,
 * bypassing the public API, to reach states the API cannot (yet) produce:
 *  - copyOntoMain: main changes only by merge (§1.2, §4.19); until a test can merge,
 *    this copies a working branch's content onto a still-empty main with the same
 *    copyBranchContent the fork uses.
 *  - forceNodeName: renames a node without the sibling-uniqueness check (§2.9.1), to
 *    build the duplicate-name data that makes two paths collide (§2.12 ambiguous).
 * Never use them for anything the API can do.
 */
import { copyBranchContent } from '../../services/graph/graphCopy';
import { cypher } from '../../shared/neo4j/namedQuery';
import { currentHarness } from './harness';

const testForceNodeName = cypher(
  'testForceNodeName',
  `MATCH (n:GNode {branch_id: $branchId, id: $id})
   SET n.name = $name
   RETURN n.id AS id`,
);

/** Copies all content of `fromBranchId` onto the (empty) main branch `mainId`. */
export async function copyOntoMain(fromBranchId: string, mainId: string): Promise<void> {
  await currentHarness().service.executor.writeTx((tx) =>
    copyBranchContent(tx, fromBranchId, mainId),
  );
}

/** Sets a node's name as stored, with no invariant checks. */
export async function forceNodeName(branchId: string, id: string, name: string): Promise<void> {
  const rows = await currentHarness().service.executor.write(testForceNodeName, {
    branchId,
    id,
    name,
  });
  if (rows.length !== 1) throw new Error(`fixture: node ${id} not found on branch ${branchId}`);
}
