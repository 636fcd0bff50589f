/**
 * The named queries of a delta batch's path (applyDeltas and everything it reaches), from
 * the store modules that declare them (the change trail's, trailQueries.ts, whole: a batch
 * records and replays through it). Their full texts, laid out for reading, are kept in
 * store/statements/<name>.cypher (batchStatements.spec.ts holds each file to the text the
 * code sends; `make statements-text` writes them), so a change to a fragment any of them
 * is composed from shows, in review, in every statement it changes.
 */
import type { NamedQuery } from '../../../shared/neo4j/namedQuery';
import * as addRun from './addRunQueries';
import * as changes from './changeQueries';
import * as deltas from './deltaQueries';
import * as findingRecords from './findingRecordQueries';
import * as recordWrites from './recordWriteQueries';
import * as trail from './trailQueries';

const isNamedQuery = (value: unknown): value is NamedQuery =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as NamedQuery).name === 'string' &&
  typeof (value as NamedQuery).text === 'string';

/** The batch path's named queries, by name. */
export function batchStatements(): NamedQuery[] {
  const modules = [addRun, changes, deltas, findingRecords, recordWrites, trail];
  const found = new Map<string, NamedQuery>();
  for (const m of modules)
    for (const value of Object.values(m)) if (isNamedQuery(value)) found.set(value.name, value);
  return [...found.values()].sort((a, b) => (a.name < b.name ? -1 : 1));
}
