/**
 * The purge hook the deleting commands call after their transaction commits. Implemented by
 * services/purge/purgeQueue.ts (a BullMQ job); it never throws and never hangs: when the queue is
 * unreachable the worker's periodic sweep finds the deleted project or discarded branch in Neo4j
 * and purges it later, so nothing is lost.
 */
export type PurgeTarget =
  { kind: 'project'; projectId: string } | { kind: 'branch'; branchId: string };

export interface PurgeRequests {
  request(target: PurgeTarget): Promise<void>;
}
