/**
 * What discarding a branch needs from a service above branches, given to branchRoutes by
 * whoever wires the processes: the reviews service closes the branch's open change
 * request in the discard's transaction. Branches defines the shape; it never imports
 * reviews.
 */
import type { QueryRunner } from '../../shared/neo4j/namedQuery';
import type { BranchRecord } from './branchRecord';

export type DiscardHook = (
  tx: QueryRunner,
  input: { branch: BranchRecord; actorId: string; now: string },
) => Promise<void>;
