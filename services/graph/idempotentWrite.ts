/**
 * The Idempotency-Key protocol of the branch writes (applyDeltas, revertBranch), in one
 * place: without a key the write just runs; with one, the key is checked, reserved in
 * Redis (an existing answer is replayed only to a caller allowed to make the write
 * itself), the write runs with the key so it is recorded on the change trail, and its
 * answer is kept for a repeat. Errors that reached the write (listed by the caller) are
 * kept as answers too; any other error frees the key for a retry. A write that finds its
 * key already recorded (Redis had lost the answer) is answered as a replay.
 */
import { DomainError, RequestValidationError } from '../../shared/errors/domainErrors';
import { errorBody } from '../../shared/http/errorResponse';
import { ok, OperationRequest, OperationResult } from '../../shared/http/operation';
import { fingerprint, IdempotencyStore, isValidIdempotencyKey } from './idempotency';
import { bestEffort } from '../../shared/async/promises';

export interface IdempotentWrite<R extends { replayed: boolean }> {
  /** Runs the write; `recorded` is the key to record with it, when one was sent. */
  run(recorded?: { key: string; fingerprint: string }): Promise<R>;
  /** The success body. */
  present(result: R): unknown;
  /** Checks the caller may make this write (before a stored answer is shown). */
  requireAccess(): Promise<void>;
  /** Errors answered by the write itself, kept for a repeat of the key. */
  isReplayable(error: unknown): error is DomainError;
}

const REPLAYED = { 'Idempotent-Replayed': 'true' };

export async function idempotentWrite<R extends { replayed: boolean }>(
  store: IdempotencyStore,
  req: OperationRequest,
  write: IdempotentWrite<R>,
): Promise<OperationResult> {
  const key = req.headers['idempotency-key'];
  if (key === undefined) return ok(write.present(await write.run()));
  if (!isValidIdempotencyKey(key)) {
    throw new RequestValidationError([
      {
        loc: ['header', 'Idempotency-Key'],
        msg: 'Idempotency-Key is 1 to 255 printable ASCII characters',
        type: 'string_pattern_mismatch',
        input: key,
      },
    ]);
  }
  // one key space per user and branch: a key names one write of the branch
  const scope = `${req.principal.userId}:${req.params.branch_id}`;
  const print = fingerprint(req.body);
  const reservation = await store.reserve(scope, key, print, () => write.requireAccess());
  if (reservation.kind === 'replay') return { ...reservation.response, headers: REPLAYED };
  let response: OperationResult;
  try {
    const result = await write.run({ key, fingerprint: print });
    response = result.replayed
      ? { ...ok(write.present(result)), headers: REPLAYED }
      : ok(write.present(result));
  } catch (error) {
    if (write.isReplayable(error)) {
      const { status, body } = errorBody(error);
      await bestEffort(
        store.complete(scope, key, print, { status, body }),
        'the refused batch wrote nothing; its reservation expires and a retry runs it again',
      );
    } else {
      await store.release(scope, key, reservation.token, print);
    }
    throw error;
  }
  await store
    .complete(scope, key, print, { status: response.status, body: response.body })
    .catch((error: unknown) => {
      req.log.warn(
        { err: error },
        'idempotent answer not cached; a retry is answered from the change trail',
      );
    });
  return response;
}
