/**
 * graphctl export: a branch's graph file written as a stream (graphfile's writeGraphFile)
 * to a file or to stdout, a piece at a time as the file or pipe takes it, so the file is
 * never held whole, whatever the branch's size. The branch is looked up first: a missing
 * one fails before anything is written (no file is created for it).
 */
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { finished } from 'node:stream/promises';
import { writerOver } from '../../shared/http/responseBody';
import type { Executor } from '../../shared/neo4j/executor';
import { exportBranchFileAsOperator, writeGraphFile } from '../../services/graphfile';
import type { FileCounts } from '../../services/graphfile';

/** Writes the file of branch `branchId` to stdout, then a newline. */
export async function exportToStdout(executor: Executor, branchId: string): Promise<void> {
  const file = await exportBranchFileAsOperator(executor, branchId);
  const out = writerOver(process.stdout);
  await writeGraphFile(executor, file, out);
  await out.write('\n');
}

/**
 * Writes the file of branch `branchId` to `path` (then a newline) and answers what it
 * held. A file cut short by a failure is removed, so that what is left at `path` is
 * always a whole file.
 */
export async function exportToFile(
  executor: Executor,
  branchId: string,
  path: string,
): Promise<FileCounts> {
  const file = await exportBranchFileAsOperator(executor, branchId);
  const stream = createWriteStream(path, { encoding: 'utf8' });
  try {
    const out = writerOver(stream);
    const counts = await writeGraphFile(executor, file, out);
    await out.write('\n');
    stream.end();
    await finished(stream);
    return counts;
  } catch (error) {
    stream.destroy();
    await rm(path, { force: true });
    throw error;
  }
}
