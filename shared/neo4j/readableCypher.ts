/**
 * A statement's text laid out for a reader: the text sent is one line (compactCypher.ts);
 * this only turns some of its single spaces into a line break and indentation, so that
 * compactCypher of the layout is the text again, byte for byte (what is read is what
 * runs). A clause starts a line, its sub-clauses (WHERE, USING, ORDER BY, SKIP, LIMIT)
 * one step in, and the body of a subquery (`CALL (...) {`, `EXISTS {`, `COLLECT {`) one
 * step deeper than the line that opens it; nothing inside a list, a map or a
 * parenthesis is broken except a subquery's body.
 */
const CLAUSES = [
  'OPTIONAL MATCH',
  'MATCH',
  'WITH',
  'CALL',
  'RETURN',
  'UNWIND',
  'CREATE',
  'MERGE',
  'SET',
  'REMOVE',
  'DETACH DELETE',
  'DELETE',
  'FOREACH',
  'UNION',
  'FINISH',
];
const SUB_CLAUSES = ['WHERE', 'USING', 'ORDER BY', 'SKIP', 'LIMIT'];

const startsWord = (text: string, at: number, words: readonly string[]): boolean =>
  words.some((w) => text.startsWith(w, at) && !/[A-Za-z0-9_]/.test(text[at + w.length] ?? ''));

export function readableCypher(text: string): string {
  // the open brackets: '(' '[' and a map's '{' hold their contents on one line; 'block'
  // is a subquery's body, laid out clause by clause
  const open: ('(' | '[' | '{' | 'block')[] = [];
  // the indentation of each open subquery body: one step in from the line that opens it
  const levels: number[] = [0];
  let out = '';
  const inLine = () => open.length > 0 && open[open.length - 1] !== 'block';
  const level = () => levels[levels.length - 1];
  const indent = (extra: number) => `\n${'  '.repeat(level() + extra)}`;
  // OPTIONAL MATCH and DETACH DELETE stay on one line
  const afterPrefix = () => /(OPTIONAL|DETACH)$/.test(out);
  // the indentation of the line being written, in steps, and of each open body's opener
  const lineIndent = () => (/\n( *)[^\n]*$/.exec(out)?.[1].length ?? 0) / 2;
  const opener: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === "'" || ch === '"' || ch === '`') {
      let j = i + 1;
      while (j < text.length && text[j] !== ch) j += ch !== '`' && text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j;
    } else if (ch === '{') {
      const block = text[i + 1] === ' ' && startsWord(text, i + 2, CLAUSES);
      if (block) {
        opener.push(lineIndent());
        levels.push(lineIndent() + 1);
      }
      open.push(block ? 'block' : '{');
      out += ch;
      if (block) {
        out += indent(0);
        i += 1; // the space after the brace
      }
    } else if (ch === '}') {
      if (open.pop() === 'block') {
        levels.pop();
        if (out.endsWith(' ')) out = out.slice(0, -1);
        out += `\n${'  '.repeat(opener.pop() ?? 0)}}`;
      } else out += ch;
    } else if (ch === '(' || ch === '[') {
      open.push(ch);
      out += ch;
    } else if (ch === ')' || ch === ']') {
      open.pop();
      out += ch;
    } else if (ch === ' ' && !inLine() && !afterPrefix() && startsWord(text, i + 1, CLAUSES)) {
      out += indent(0);
    } else if (ch === ' ' && !inLine() && startsWord(text, i + 1, SUB_CLAUSES)) {
      out += indent(1);
    } else out += ch;
  }
  return `${out.trim()}\n`;
}
