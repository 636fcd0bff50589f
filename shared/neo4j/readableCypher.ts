/**
 * A statement's text laid out for a reader: the text sent is one line (compactCypher.ts);
 * this breaks it before each clause and after each opening brace of a subquery, nothing
 * else, so that what is read is what runs.
 */
const CLAUSE =
  / (OPTIONAL MATCH|MATCH|WITH|CALL|RETURN|UNWIND|WHERE|CREATE|MERGE|SET|REMOVE|DETACH DELETE|DELETE|FOREACH|UNION|ORDER BY|LIMIT|USING) /g;

export function readableCypher(text: string): string {
  return `${text.replace(CLAUSE, '\n  $1 ').replace(/\{ /g, '{\n    ').trim()}\n`;
}
