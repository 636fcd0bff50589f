/**
 * What forking a branch needs from the graph service, given to branchRoutes by
 * whoever wires the processes: the usage counters a fork inherits from main (a
 * fork copies no content: the branch reads main at its base). Branches defines the shape and
 * graph supplies it, so the branches service never imports graph's code (graph
 * depends on branches for access checks, not the other way round).
 */
import type { QueryRunner } from '../../shared/neo4j/namedQuery';
import type { BranchRecord } from './branchRecord';

export interface ForkContent {
  /** The usage counters stored on the new branch: main's, since it starts as main's content. */
  usageOf(tx: QueryRunner, main: BranchRecord): Promise<object>;
}
