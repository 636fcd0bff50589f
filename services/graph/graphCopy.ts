/** Copies all graph content of one branch onto an empty branch in the caller's transaction. */
import type { QueryRunner } from '../../shared/neo4j/namedQuery';
import type { ForkContent } from '../branches';
import { usageOf } from './branchUsage';
import { copyContainment, copyEdges, copyNodes, copyPorts } from './store/graphCopyQueries';

export async function copyBranchContent(tx: QueryRunner, from: string, to: string): Promise<void> {
  await tx.run(copyNodes, { from, to });
  await tx.run(copyContainment, { to });
  await tx.run(copyPorts, { from, to });
  await tx.run(copyEdges, { from, to });
}

/** The graph service's part of a fork, handed to branchRoutes by the process wiring. */
export const forkContent: ForkContent = {
  usageOf: (tx, main) => usageOf(tx, main),
  copy: copyBranchContent,
};
