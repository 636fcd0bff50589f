/** Copies all graph content of one branch onto an empty branch in the caller's transaction. */
import type { QueryRunner } from '../../shared/neo4j/namedQuery';
import { copyContainment, copyEdges, copyNodes, copyPorts } from './store/graphCopyQueries';

export async function copyBranchContent(tx: QueryRunner, from: string, to: string): Promise<void> {
  await tx.run(copyNodes, { from, to });
  await tx.run(copyContainment, { to });
  await tx.run(copyPorts, { from, to });
  await tx.run(copyEdges, { from, to });
}
