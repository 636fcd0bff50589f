/**
 * The text of a Cypher statement as it is sent: every run of whitespace outside string
 * literals and backquoted names made one space, and comments dropped. The driver sends a
 * statement's whole text with each run and writes it to the socket in chunks of 1400
 * bytes, one write each, and the server decodes and hashes it to find the cached plan:
 * the indentation and comments that make a statement readable in its store/ file cost
 * both sides on every run of it, and the largest statements (a batch's first, about
 * 18 KB) are an eighth blanks. What the statement means does not change: literals are
 * kept byte for byte, and a line comment ends where its line did.
 */
export function compactCypher(text: string): string {
  let out = '';
  let i = 0;
  const n = text.length;
  const space = () => {
    if (out.length > 0 && out[out.length - 1] !== ' ') out += ' ';
  };
  while (i < n) {
    const ch = text[i];
    if (ch === "'" || ch === '"' || ch === '`') {
      // a literal or a backquoted name, copied as written (a backslash escapes the next
      // character in a literal; a doubled backquote is copied as two names' worth)
      let j = i + 1;
      while (j < n && text[j] !== ch) j += ch !== '`' && text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else if (ch === '/' && text[i + 1] === '/') {
      const end = text.indexOf('\n', i);
      i = end < 0 ? n : end;
      space();
    } else if (ch === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? n : end + 2;
      space();
    } else if (ch === ' ' || ch === '\n' || ch === '\t' || ch === '\r') {
      space();
      i++;
    } else {
      out += ch;
      i++;
    }
  }
  return out.trim();
}
