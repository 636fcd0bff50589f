/**
 * A large import is staged: its content is written in chunks of records, each its own
 * transaction, on the line of a main branch that does not exist yet (the id is chosen
 * first), so no reader can see any of it and no transaction holds more than a chunk.
 * Its node, port and wire records are written while the content is checked whole
 * (recordsFirst), the check's time spent beside the store's instead of before it; a
 * refused content's records never become visible, as they are removed with the stage.
 * The project and its main are then created with that id in one small transaction,
 * which publishes the content (importProject.ts). An error while staging removes what
 * was staged before it is answered; a crash leaves a VStage record behind, and the
 * worker's sweep removes the staged records of a stage abandoned long enough
 * (services/purge).
 *
 * The stage is held by a lease (STAGE_LEASE_MS), renewed under the stage's lock by
 * every transaction of the import, the publishing one included: the sweep takes only a
 * stage whose lease ran out, however long ago the import started, and once it has
 * taken one, the import's next transaction finds it gone and answers 503 instead of
 * publishing a project whose content the sweep is removing.
 */
import { ServiceUnavailableError } from '../../shared/errors/domainErrors';
import type { ServiceContext } from '../../shared/http/serviceContext';
import { nowTimestamp } from '../../shared/http/timestamps';
import type { QueryRunner } from '../../shared/neo4j/namedQuery';
import { contentParts, mainView, recordCount, writeNewLineContent } from '../graph';
import type { NewLineContentPart, RecordsFirst, View } from '../graph';
import { deleteStageRecord, purgeLine } from '../purge';
import type { ContentCounts } from '../purge';
import { PartQueue } from './partQueue';
import { holdStage, holdStageLane, openStage, stageNotTaken } from './store/graphFileQueries';

/** Overrides of the configured staging (config.staging), for tests. */
export interface StagingOptions {
  /** A plan of more deltas than this is staged; a smaller one is written in one transaction. */
  stageAbove?: number;
  /** Records per staged transaction. */
  stageChunk?: number;
}

/** How far an import has come: told as the file is read (graphctl), after the check and after each part written from then on. */
export type ImportProgress =
  | { stage: 'read'; nodes: number; edges: number }
  | { stage: 'checked'; nodes: number; edges: number; records: number }
  | { stage: 'written'; written: number; records: number }
  | { stage: 'published' };

export type ProgressListener = (progress: ImportProgress) => void;

/** How long a stage stays the import's without a transaction of the import renewing it. */
export const STAGE_LEASE_MS = 10 * 60_000;

/**
 * First in each transaction of a staged import: the stage's lock and a renewed lease;
 * 503 when the sweep took the stage for abandoned (the import stalled past its lease).
 */
export async function holdImportStage(tx: QueryRunner, line: string): Promise<void> {
  const held = await tx.one(holdStage, { line, until: Date.now() + STAGE_LEASE_MS });
  if (!held) throw stageLost();
}

/** The sweep took the stage for abandoned: the import stalled past its lease. */
const stageLost = () =>
  new ServiceUnavailableError(
    'the import ran out of time while it was written; nothing was created',
    1,
  );

/** How often, at most, the import renews its stage's lease while it writes. */
const RENEW_EVERY_MS = 30_000;

/**
 * Writes the content on line `line` at version 0, `chunk` records per transaction,
 * `writers` transactions side by side (each holds a lane of the stage, so they do not
 * wait for each other), renewing the stage's lease as it goes. The node, port and wire
 * records are written while the content is checked (RecordsFirst.rest), its findings
 * once the check has answered them; a refusal stops the lanes and is thrown once
 * they have stopped, whatever they met meanwhile (the caller removes the stage). Tells
 * `progress` when the check has ended and after each part from then on (the number of
 * records is known only then). On an error, every writer has stopped when it is thrown.
 */
export async function stageContent(
  ctx: ServiceContext,
  line: string,
  content: RecordsFirst,
  options: { chunk: number; writers: number; progress: ProgressListener },
): Promise<void> {
  const view = mainView(line, 0);
  const lanes = Math.max(1, options.writers);
  await ctx.executor.write(openStage, {
    line,
    kind: 'import',
    now: nowTimestamp(),
    until: Date.now() + STAGE_LEASE_MS,
    lanes,
  });
  const parts = new PartQueue(contentParts(content.rows, options.chunk));
  /** All the content's records, once its check has ended. */
  let records: number | null = null;
  let written = 0;
  let renewedAt = Date.now();
  const writeLane = async (lane: number) => {
    for (let part = await parts.take(); part; part = await parts.take()) {
      if (Date.now() - renewedAt >= RENEW_EVERY_MS) {
        renewedAt = Date.now();
        await ctx.executor.writeTx((tx) => holdImportStage(tx, line));
      }
      const taken = part;
      await ctx.executor.writeTx((tx) => writePart(tx, line, lane, view, taken));
      written += recordCount(part);
      if (records !== null) options.progress({ stage: 'written', written, records });
    }
  };
  const writing = Promise.allSettled(
    Array.from({ length: lanes }, (_, lane) =>
      writeLane(lane).catch((error: unknown) => {
        parts.stop(); // the other lanes stop too: the stage is removed
        throw error;
      }),
    ),
  );
  let rest: Awaited<ReturnType<RecordsFirst['rest']>>;
  try {
    rest = await content.rest();
  } catch (refusal) {
    parts.stop();
    await writing;
    throw refusal;
  }
  parts.addLast(contentParts(rest, options.chunk));
  records = recordCount(content.rows) + recordCount(rest);
  options.progress({ stage: 'checked', ...content.usage, records });
  options.progress({ stage: 'written', written, records });
  const failed = (await writing).find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) throw failed.reason;
}

/**
 * One part written in transaction `tx`: lane `lane`'s lock first, then whether the stage
 * is still the import's, then the part's records, sent together so that the database
 * runs them in that order in one round trip (a lane's database worker otherwise waited
 * for a round trip per statement, twice per part, with nothing else to do). A part
 * written on a stage found lost is rolled back with the error, so none of it is kept.
 */
async function writePart(
  tx: QueryRunner,
  line: string,
  lane: number,
  view: View,
  part: NewLineContentPart,
): Promise<void> {
  const held = Promise.all([
    tx.one(holdStageLane, { line, lane }),
    tx.one(stageNotTaken, { line }),
  ]);
  const written = writeNewLineContent(tx, view, part);
  const [hold, write] = await Promise.allSettled([held, written]);
  if (hold.status === 'rejected') throw hold.reason;
  if (!hold.value[0] || !hold.value[1]) throw stageLost();
  if (write.status === 'rejected') throw write.reason;
}

/**
 * Removes what was staged on `line` and its VStage record (the import was refused);
 * answers the nodes, ports and wires it removed.
 */
export async function abortStage(ctx: ServiceContext, line: string): Promise<ContentCounts> {
  const removed = await purgeLine(ctx.executor, line);
  await ctx.executor.writeTx((tx) => deleteStageRecord(tx, line));
  return removed;
}
