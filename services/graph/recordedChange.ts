/**
 * The Neo4j side of an Idempotency-Key for the writes that record a change on a branch's
 * trail (applyDeltas, revertBranch): the key is stored on the change it made, so a retry
 * whose Redis answer is gone finds the change itself, inside the write's transaction and
 * under the branch's lock. A key is kept as long as its Redis answer (IDEMPOTENCY_TTL_S).
 */
import { InvalidInputError } from '../../shared/errors/domainErrors';
import type { ServiceContext } from '../../shared/http/serviceContext';
import type { QueryRunner } from '../../shared/neo4j/namedQuery';
import { findChangeByIdempotencyKey } from './store/trailQueries';

/** What a write sends with its Idempotency-Key: the key and its body's fingerprint. */
export interface IdempotencyClaim {
  key: string;
  fingerprint: string;
}

export type RecordedChange = {
  version: number;
  positionsApplied: number | null;
  revertedVersion: number | null;
};

/**
 * The change `claim`'s key recorded on the branch's trail by this user, or null. The
 * same key sent with another body, or for another kind of write, is refused (422
 * idempotency_key_reused). A change recorded before fingerprints were kept matches any
 * batch body.
 */
export async function recordedChange(
  ctx: ServiceContext,
  tx: QueryRunner,
  request: { branchId: string; userId: string; kind: 'batch' | 'revert' | 'rebase' },
  claim: IdempotencyClaim,
): Promise<RecordedChange | null> {
  const done = await tx.one<RecordedChange & { kind: string | null; fingerprint: string | null }>(
    findChangeByIdempotencyKey,
    {
      branchId: request.branchId,
      key: claim.key,
      scope: request.userId,
      since: new Date(Date.now() - ctx.config.idempotencyTtlSeconds * 1000).toISOString(),
    },
  );
  if (!done) return null;
  const sameKind = (done.kind ?? 'batch') === request.kind;
  const sameBody =
    done.fingerprint === claim.fingerprint ||
    (done.fingerprint === null && request.kind === 'batch');
  if (!sameKind || !sameBody) {
    throw new InvalidInputError(
      'idempotency_key_reused',
      'this Idempotency-Key was used with a different body',
    );
  }
  return {
    version: done.version,
    positionsApplied: done.positionsApplied,
    revertedVersion: done.revertedVersion,
  };
}
