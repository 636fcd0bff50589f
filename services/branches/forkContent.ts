/**
 * What forking a branch needs from the graph service, given to branchRoutes by
 * whoever wires the processes: the usage counters a fork inherits from main and
 * the copy of main's content onto the new branch. Branches defines the shape and
 * graph supplies it, so the branches service never imports graph's code (graph
 * depends on branches for access checks, not the other way round).
 */
import type { QueryRunner } from '../../shared/neo4j/namedQuery';
import type { BranchRecord } from './branchRecord';

export interface ForkContent {
  /** The usage counters stored on the new branch: main's, since it starts as a copy. */
  usageOf(tx: QueryRunner, main: BranchRecord): Promise<object>;
  /** Copies the graph content of branch `from` onto the empty branch `to`. */
  copy(tx: QueryRunner, from: string, to: string): Promise<void>;
}
