/**
 * The text of a Cypher statement as it is sent: every run of whitespace outside string
 * literals and backquoted names made one space, and comments dropped. The driver sends a
 * statement's whole text with each run and writes it to the socket in chunks of 1400
 * bytes, one write each, and the server decodes and hashes it to find the cached plan:
 * the indentation and comments that make a statement readable in its store/ file cost
 * both sides on every run of it, and the largest statements (a batch's first, about
 * 18 KB) are an eighth blanks. What the statement means does not change: literals are
 * kept byte for byte, and a line comment ends where its line did.
 *
 * Every process makes each of its statements compact when it loads them, so this runs
 * in one pass: whether the text so far ends in a space is kept beside it, never read
 * back from the text being built (reading a character of a string built by `+=`
 * flattens it first, and doing that per blank made start-up quadratic in a
 * statement's length).
 */
export function compactCypher(text: string): string {
  let out = '';
  let endsInSpace = true; // nothing written yet: a leading blank is dropped
  let i = 0;
  const n = text.length;
  const space = () => {
    if (!endsInSpace) out += ' ';
    endsInSpace = true;
  };
  const copy = (part: string) => {
    out += part;
    endsInSpace = part.endsWith(' ');
  };
  while (i < n) {
    const ch = text[i];
    if (ch === "'" || ch === '"' || ch === '`') {
      // a literal or a backquoted name, copied as written (a backslash escapes the next
      // character in a literal; a doubled backquote is copied as two names' worth)
      let j = i + 1;
      while (j < n && text[j] !== ch) j += ch !== '`' && text[j] === '\\' ? 2 : 1;
      copy(text.slice(i, j + 1));
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
      copy(ch);
      i++;
    }
  }
  return out.trim();
}
