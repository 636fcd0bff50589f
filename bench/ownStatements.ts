/**
 * A batch's own statements, the baseline of the target "batches within 2x of their own
 * statements": the statements the applyDeltas handler runs for a batch, with the
 * parameters it sends, recorded in transactions that are rolled back (nothing of the
 * recording is kept), then sent again as they were, one after another in transactions of
 * the same kinds, committed. Only the sending is timed: the API's batch adds to it the
 * handler's logic (parse, checks, planning, presenting), the gateway and HTTP.
 *
 * Sent again on the same store, the statements do the very work they did when recorded:
 * the same locks, reads, writes and records, the branch's version advanced by one.
 */
import type { Executor } from '../shared/neo4j/executor';
import type { NamedQuery, Params, QueryRunner } from '../shared/neo4j/namedQuery';

/** One transaction of a recorded batch: its kind and its statements, in order. */
interface RecordedTx {
  mode: 'read' | 'write';
  statements: { query: NamedQuery; params: Params }[];
}

/** `tx`, noting each statement it is handed into `into`. */
function recordingRunner(tx: QueryRunner, into: RecordedTx): QueryRunner {
  const note = (query: NamedQuery, params: Params = {}) => into.statements.push({ query, params });
  return {
    run: (query, params) => (note(query, params), tx.run(query, params)),
    one: (query, params) => (note(query, params), tx.one(query, params)),
    each: (query, params, onRow) => (note(query, params), tx.each(query, params, onRow)),
  };
}

/** The handler applying a batch through `executor`: resolves with the version it published. */
type ApplierOn = (
  executor: Executor,
) => (branchId: string, deltas: unknown[], version: number) => Promise<number>;

/**
 * Records a batch's statements (`record`) and sends them again (`send`) through
 * `executor`; `applierOn` gives the handler (writeBench.ts inProcessApplier) on an executor.
 */
export function ownStatements(executor: Executor, applierOn: ApplierOn) {
  let recorded: RecordedTx[] = [];
  const open = (mode: RecordedTx['mode']) => {
    const tx: RecordedTx = { mode, statements: [] };
    recorded.push(tx);
    return tx;
  };
  // the handler takes only writeTx and readTx of its executor
  const recording = {
    readTx: <T>(work: (tx: QueryRunner) => Promise<T>) =>
      executor.readTx((tx) => work(recordingRunner(tx, open('read')))),
    writeTx: <T>(work: (tx: QueryRunner) => Promise<T>) =>
      executor.rolledBackTx((tx) => work(recordingRunner(tx, open('write')))),
  } as unknown as Executor;
  const apply = applierOn(recording);
  return {
    /** The statements of batch `deltas` on branch `branchId` at `version`; nothing is kept. */
    async record(branchId: string, deltas: unknown[], version: number): Promise<RecordedTx[]> {
      recorded = [];
      await apply(branchId, deltas, version);
      return recorded;
    },
    /** Sends `txs` again, committed: the batch is applied by its own statements. */
    async send(txs: RecordedTx[]): Promise<void> {
      for (const { mode, statements } of txs) {
        const work = async (tx: QueryRunner) => {
          for (const { query, params } of statements) await tx.run(query, params);
        };
        await (mode === 'write' ? executor.writeTx(work) : executor.readTx(work));
      }
    },
  };
}
