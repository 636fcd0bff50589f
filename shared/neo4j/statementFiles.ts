/**
 * The statements of a store kept whole, one file each: `<dir>/<name>.cypher` holds the
 * full text of the named query `name`, laid out for reading, with $parameters and never
 * edited at run time. A store module declares each of its queries by name once, at
 * start-up (statementsIn(dir)(name), when the module loads); the file is read then and
 * its text, made compact (compactCypher.ts), is what every run sends. A statement whose
 * text starts with `CYPHER replan=skip` is a pinned one (namedQuery.ts pinnedCypher).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { NamedQuery, wholeStatement } from './namedQuery';

/** The file of statement `name` in `dir`. */
export const statementFile = (dir: string, name: string): string => join(dir, `${name}.cypher`);

/** Reads statements of `dir` by name (a missing file fails the module's load). */
export function statementsIn(dir: string): (name: string) => NamedQuery {
  return (name) => wholeStatement(name, readFileSync(statementFile(dir, name), 'utf8'));
}
