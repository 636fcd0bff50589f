/**
 * Writes services/graph/store/statements/<name>.cypher: the full text of each named query
 * of a delta batch's path, laid out for reading (`make statements-text`; the unit test
 * batchStatements.spec.ts fails while one is stale).
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readableCypher } from '../shared/neo4j/readableCypher';
import { batchStatements } from '../services/graph/store/batchStatements';

const dir = join(__dirname, '..', 'services', 'graph', 'store', 'statements');
mkdirSync(dir, { recursive: true });
for (const file of readdirSync(dir)) if (file.endsWith('.cypher')) rmSync(join(dir, file));
const queries = batchStatements();
for (const query of queries)
  writeFileSync(join(dir, `${query.name}.cypher`), readableCypher(query.text));
process.stdout.write(`wrote ${queries.length} statements to ${dir}\n`);
