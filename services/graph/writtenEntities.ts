/**
 * What a transaction has written, per line and version: the ids of the nodes, ports and
 * wires recordWrites.ts upserted or removed through a write view. The findings of a
 * version follow the change (findingRecords.ts): they are recomputed for these entities
 * and their neighbours only, so every writer (a delta batch, a revert, a merge, an
 * import, a staged chunk) has its findings kept without telling anyone what it wrote.
 * The set lives as long as the transaction's QueryRunner (a retried transaction starts
 * with an empty one) and is taken once by refreshFindings.
 */
import type { QueryRunner } from '../../shared/neo4j/namedQuery';
import type { StateLabel } from './store/visibility';
import type { View } from './view';

export type Written = Record<StateLabel, Set<string>>;

const byTransaction = new WeakMap<QueryRunner, Map<string, Written>>();

const keyOf = (view: View): string => `${view.line}@${view.ver}`;

/** Notes that `ids` of `label` were written in `view` by this transaction. */
export function noteWritten(
  tx: QueryRunner,
  view: View,
  label: StateLabel,
  ids: Iterable<string>,
): void {
  let lines = byTransaction.get(tx);
  if (!lines) {
    lines = new Map();
    byTransaction.set(tx, lines);
  }
  let written = lines.get(keyOf(view));
  if (!written) {
    written = { GNode: new Set(), Port: new Set(), Edge: new Set() };
    lines.set(keyOf(view), written);
  }
  for (const id of ids) written[label].add(id);
}

/** What this transaction wrote in `view` since the last take, and forgets it. */
export function takeWritten(tx: QueryRunner, view: View): Written {
  const lines = byTransaction.get(tx);
  const written = lines?.get(keyOf(view));
  lines?.delete(keyOf(view));
  return written ?? { GNode: new Set(), Port: new Set(), Edge: new Set() };
}

/** What this transaction has written in `view` so far, without forgetting it (the
 * trail's touches of a batch read it before its findings take it). */
export function peekWritten(tx: QueryRunner, view: View): Written {
  const written = byTransaction.get(tx)?.get(keyOf(view));
  return {
    GNode: new Set(written?.GNode),
    Port: new Set(written?.Port),
    Edge: new Set(written?.Edge),
  };
}
