/**
 * Fast path for a run of consecutive add_node / add_edge deltas, the bulk of real
 * batches: every fact the run needs is read in one query (the wires already on the
 * ports it creates included), every delta is checked in order in memory against those
 * facts plus what earlier deltas of the run created, and so are the wires its new
 * ports complete (addRunChecker.ts); then the run is written in one
 * statement (recordWrites.ts createGraph: the checks found every id unused in the
 * view). A batch's leading run is written by the statement that reads its facts
 * (runRows.ts), so it costs that one statement. Since a run only adds, this gives
 * exactly the answers of applying the deltas one by one (BatchApplier), with one or two
 * statements instead of three or four per delta.
 */
import type { QueryRunner } from '../../../shared/neo4j/namedQuery';
import { createGraph, noteGraphWritten } from '../recordWrites';
import type { NewRow } from '../recordWrites';
import { sameView, View } from '../view';
import { checkAddRun } from './addRunChecker';
import type { Addition } from './deltaTypes';
import { readRunFacts, RunFacts } from './runFacts';

/** What a run added: the branch's node and wire counts grow by these. */
export interface AddRunCounts {
  nodes: number;
  edges: number;
}

/** What a run adds, known once its deltas are checked, and its write, sent but maybe not answered yet. */
export interface SentAddRun extends AddRunCounts {
  /**
   * When the caller asked for the run's findings to be derived (runFindings.ts): the
   * kept findings it opens and those it closes, for the caller to write (with the
   * batch's record). Null when not asked, or when the view had wires on the ports the
   * run creates (those are recomputed by reading after the write).
   */
  findings: { opened: NewRow[]; closed: string[] } | null;
  /**
   * Settles when the store has answered the write. The caller may send its next
   * statement before awaiting it (batchApplier.ts inOneRoundTrip): the transaction runs
   * statements in the order sent, so both share a round trip. The caller attaches to it
   * at once, before anything else can throw.
   */
  written: Promise<void>;
}

/**
 * Checks the run in memory and sends its write. `known`: the run's facts when already
 * being read (readRunFacts), else they are read here.
 */
export async function applyAddRun(
  tx: QueryRunner,
  view: View,
  run: Addition[],
  maxDepth: number,
  known?: RunFacts,
  deriveFindings = false,
): Promise<SentAddRun> {
  let row = known ?? (await readRunFacts(tx, view, run, maxDepth));
  // facts read through a branch's row hold for that row's view only; a read that also
  // wrote the run was made through the view the batch writes, or the batch is refused
  if (!sameView(row.view, view)) {
    if (row.prewritten) throw new Error('the run was written through another view');
    row = await readRunFacts(tx, view, run, maxDepth);
  }
  const { rows, findings } = checkAddRun(run, maxDepth, row, deriveFindings);
  let written: Promise<void>;
  if (row.prewritten) {
    // the statement that read the facts wrote these same rows (runRows.ts), ahead of the checks
    noteGraphWritten(tx, view, rows);
    written = Promise.resolve();
  } else {
    written = createGraph(tx, view, rows).then(() => undefined);
  }
  return { nodes: rows.nodes.length, edges: rows.edges.length, written, findings };
}
