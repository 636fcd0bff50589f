/**
 * The import's reference in `make bench-large`: the records an import of the same graph file
 * writes (its content checked as the import checks it: nodes, ports, wires and findings)
 * created by plain `UNWIND ... CREATE` statements, each record's
 * properties in one map, into the same labels and so the same indexes, in transactions of
 * the import's size (STAGE_CHUNK records), as many side by side as the import writes
 * (STAGE_WRITERS), on a line no reader knows; then removed. None of the import's reading,
 * checking, locks or leases: what this machine's Neo4j takes to store those records now.
 *
 * The import's time against it separates the code from the machine: on this 2-core machine
 * the same import took 29 to 45 s on fresh stacks of identical code, and everything else it
 * measured moved with it. It runs after the import, on a Neo4j the import warmed, so the
 * ratio is if anything larger than the import's own overhead. Both create a record with
 * all its properties in one SET (recordWriteQueries.ts newLineStatesBody).
 */
import { randomUUID } from 'node:crypto';
import { open } from 'node:fs/promises';
import { loadConfig } from '../shared/config/config';
import type { Config } from '../shared/config/config';
import { createLogger } from '../shared/logging/logger';
import { Executor } from '../shared/neo4j/executor';
import { cypher } from '../shared/neo4j/namedQuery';
import type { NamedQuery } from '../shared/neo4j/namedQuery';
import { contentParts, OPEN_CYPHER, recordCount } from '../services/graph';
import type { NewLineContent, NewLineContentPart } from '../services/graph';
import {
  checkImportContent,
  planImport,
  readGraphFile,
  readGraphFileStream,
} from '../services/graphfile';
import { purgeLine } from '../services/purge';

/**
 * A plain creation of the records of `$rows`, each with every property of one record in
 * its row but the integers the driver would send as floats (`at`: those, as Cypher).
 */
const bareCreate = (label: string, at: string): NamedQuery =>
  cypher(
    `bench.bareCreate${label}`,
    `UNWIND $rows AS row CREATE (n:${label}) SET n = row {.*, ${at}} RETURN count(*) AS written`,
  );

const AT_ZERO = `vfrom: 0, vto: ${OPEN_CYPHER}`;
const BARE = {
  nodes: bareCreate('GNode', AT_ZERO),
  ports: bareCreate('Port', AT_ZERO),
  edges: bareCreate('Edge', AT_ZERO),
  findings: bareCreate('GFinding', AT_ZERO),
};

export interface BareReference {
  records: number;
  ms: number;
  chunk: number;
  writers: number;
  removedMs: number;
}

/** The file's content as graphctl import checks it (read, planned, checked in memory). */
async function importContent(file: string, line: string, config: Config): Promise<NewLineContent> {
  const handle = await open(file);
  try {
    const text = handle.createReadStream({ encoding: 'utf8', highWaterMark: 1 << 20 });
    const body = await readGraphFileStream(text, config.quotas, () => {});
    const plan = planImport(readGraphFile(body));
    return checkImportContent(plan, line, config.limits.maxNestingDepth);
  } finally {
    await handle.close();
  }
}

/** One part's statement and rows: every property of each record, its line included. */
function bareRows(part: NewLineContentPart, line: string): [NamedQuery, object[]] {
  const record = (row: { id: string; props: Record<string, unknown> }) => ({
    ...row.props,
    branch_id: line,
    id: row.id,
  });
  if (part.nodes.length > 0) return [BARE.nodes, part.nodes.map(record)];
  if (part.ports.length > 0) return [BARE.ports, part.ports.map(record)];
  if (part.edges.length > 0) return [BARE.edges, part.edges.map(record)];
  return [BARE.findings, part.findings.map(record)];
}

/**
 * Writes `content` on line `line` barely (above), `writers` transactions of `chunk`
 * records side by side; answers the milliseconds from its first part to its last. On an
 * error, every lane has stopped when it is thrown.
 */
async function writeBarely(
  executor: Executor,
  content: NewLineContent,
  line: string,
  { chunk, writers }: { chunk: number; writers: number },
): Promise<number> {
  const parts = contentParts(content, chunk);
  const lane = async () => {
    // the lanes share one sequence of parts, as the import's writers do
    for (let next = parts.next(); !next.done; next = parts.next()) {
      const [statement, rows] = bareRows(next.value, line);
      await executor.write(statement, { rows });
    }
  };
  const started = performance.now();
  const settled = await Promise.allSettled(Array.from({ length: writers }, lane));
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) throw failed.reason;
  return performance.now() - started;
}

/**
 * Writes the content of graph file `file` barely (above) on a new line, timed, then
 * removes it (untimed but reported). The bench runs on the store of `make run`: what it
 * wrote is removed on an error too.
 */
export async function bareImportReference(file: string): Promise<BareReference> {
  const config = loadConfig();
  const { chunk, writers } = config.staging;
  // errors only: removing the line's records takes a few statements of seconds each,
  // which a warning per slow statement would interleave with the figures
  const logger = createLogger({ level: 'error', name: 'bench-large', toStderr: true });
  const executor = new Executor({ ...config.neo4j, logger });
  const line = randomUUID();
  try {
    const content = await importContent(file, line, config);
    const ms = await writeBarely(executor, content, line, { chunk, writers }).catch(
      async (error: unknown) => {
        await purgeLine(executor, line);
        throw error;
      },
    );
    const removing = performance.now();
    await purgeLine(executor, line);
    const removedMs = performance.now() - removing;
    return { records: recordCount(content), ms, chunk, writers, removedMs };
  } finally {
    await executor.close();
  }
}
