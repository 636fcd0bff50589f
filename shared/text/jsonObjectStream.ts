/**
 * Reads a JSON document whose top level is an object from a stream of text, without
 * holding the whole text: the arrays under the keys asked for are handed over element
 * by element, each element parsed on its own as soon as its text is complete; every
 * other top-level value is parsed whole and answered at the end. A reader of a large
 * file (a graph file of a million nodes is hundreds of MiB, past what one string may
 * hold) thus holds one element's text at a time, besides what it keeps of the elements.
 * Anything that is not JSON, or whose top level is not an object, is refused with a
 * JsonStreamError naming the character offset.
 */

export class JsonStreamError extends Error {}

/** Where the scanner is in the top-level object. */
type Place =
  | 'start' // before the opening brace
  | 'firstKey' // after the opening brace: a key or the closing brace
  | 'key' // after a comma: a key
  | 'keyText' // inside a key
  | 'colon' // after a key
  | 'value' // before a value
  | 'valueText' // inside a top-level value
  | 'afterValue' // after a value: a comma or the closing brace
  | 'firstElement' // after a streamed array's opening bracket: an element or the closing bracket
  | 'element' // after a comma in a streamed array: an element
  | 'elementText' // inside an element
  | 'afterElement' // after an element: a comma or the closing bracket
  | 'end'; // after the closing brace

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/** What can end a string: its closing quote, or a backslash escaping the next character. */
const STRING_MARKS = /["\\]/g;
/** What changes the depth of an object or array outside its strings, or opens a string. */
const MARKS = /["{}[\]]/g;
/** What ends a scalar token (a number, true, false, null): a delimiter or white space. */
const SCALAR_ENDS = /[,}\] \n\r\t]/g;

/** The offset of the first character `marks` matches in `text` from `from`; -1 when none. */
function nextMark(marks: RegExp, text: string, from: number): number {
  marks.lastIndex = from;
  return marks.test(text) ? marks.lastIndex - 1 : -1;
}

/** One value's text as it arrives: complete when its brackets close or its token ends. */
class ValueText {
  private readonly parts: string[] = [];
  private depth = 0;
  private inString = false;
  private escaped = false;
  private readonly scalar: boolean;

  constructor(first: number) {
    // a string, an object or an array closes itself; any other token ends at a delimiter
    this.scalar = first !== 0x22 && first !== 0x7b && first !== 0x5b;
  }

  /**
   * Takes text from `chunk` at `from`; answers the offset just past the value when it
   * is complete there (a scalar's delimiter is not taken), or -1 when it goes on. Runs
   * of characters that change nothing (most of a file: ids, names, digits) are skipped
   * by one search each rather than looked at one by one.
   */
  take(chunk: string, from: number): number {
    let i = from;
    while (i < chunk.length) {
      if (this.escaped) {
        this.escaped = false;
        i += 1;
        continue;
      }
      const at = nextMark(
        this.inString ? STRING_MARKS : this.scalar ? SCALAR_ENDS : MARKS,
        chunk,
        i,
      );
      if (at < 0) break;
      const c = chunk.charCodeAt(at);
      i = at + 1;
      if (this.inString) {
        if (c === 0x5c) this.escaped = true;
        else {
          this.inString = false;
          if (this.depth === 0) return this.finish(chunk, from, i);
        }
      } else if (this.scalar) return this.finish(chunk, from, at);
      else if (c === 0x22) this.inString = true;
      else if (c === 0x7b || c === 0x5b) this.depth += 1;
      else {
        this.depth -= 1;
        if (this.depth === 0) return this.finish(chunk, from, i);
      }
    }
    this.parts.push(chunk.slice(from));
    return -1;
  }

  private finish(chunk: string, from: number, to: number): number {
    this.parts.push(chunk.slice(from, to));
    return to;
  }

  /** The value's text (complete). */
  text(): string {
    return this.parts.join('');
  }
}

export interface ObjectStreamOptions {
  /** Top-level keys whose array values are handed over element by element. */
  streamed: ReadonlySet<string>;
  /** Called with each element of a streamed array, its key and its index there. */
  onElement: (key: string, element: unknown, index: number) => void;
}

/**
 * Reads the object from `chunks`; answers its top-level values, a streamed array as an
 * empty array (its elements were handed over), a streamed key whose value is not an
 * array as read.
 */
export async function readObjectStream(
  chunks: AsyncIterable<string>,
  options: ObjectStreamOptions,
): Promise<Record<string, unknown>> {
  const found: Record<string, unknown> = {};
  let place: Place = 'start';
  let key = '';
  let value: ValueText | null = null;
  let elements = 0;
  let offset = 0;

  const fail = (at: number, what: string): never => {
    throw new JsonStreamError(`${what} (at character ${offset + at})`);
  };
  const parse = (text: string, at: number): unknown => {
    try {
      return JSON.parse(text) as unknown;
    } catch (error) {
      return fail(at, `not JSON (${(error as Error).message})`);
    }
  };

  for await (const chunk of chunks) {
    let i = 0;
    while (i < chunk.length) {
      if (value) {
        // a key, a value or an element in progress
        const end = value.take(chunk, i);
        if (end < 0) break;
        const parsed = parse(value.text(), end);
        value = null;
        i = end;
        if (place === 'keyText') {
          key = parsed as string;
          place = 'colon';
        } else if (place === 'elementText') {
          options.onElement(key, parsed, elements);
          elements += 1;
          place = 'afterElement';
        } else {
          found[key] = parsed;
          place = 'afterValue';
        }
        continue;
      }
      const c = chunk.charCodeAt(i);
      if (isSpace(c)) {
        i += 1;
        continue;
      }
      switch (place) {
        case 'start':
          if (c !== 0x7b) fail(i, 'the top level must be an object');
          place = 'firstKey';
          i += 1;
          break;
        case 'firstKey':
        case 'key':
          if (c === 0x7d && place === 'firstKey') {
            place = 'end';
            i += 1;
            break;
          }
          if (c !== 0x22) fail(i, 'a key was expected');
          value = new ValueText(c);
          place = 'keyText';
          break;
        case 'colon':
          if (c !== 0x3a) fail(i, 'a colon was expected');
          place = 'value';
          i += 1;
          break;
        case 'value':
          if (options.streamed.has(key) && c === 0x5b) {
            found[key] = [];
            place = 'firstElement';
            elements = 0;
            i += 1;
            break;
          }
          value = new ValueText(c);
          place = 'valueText';
          break;
        case 'firstElement':
        case 'element':
          if (c === 0x5d && place === 'firstElement') {
            place = 'afterValue';
            i += 1;
            break;
          }
          value = new ValueText(c);
          place = 'elementText';
          break;
        case 'afterElement':
          if (c === 0x2c) place = 'element';
          else if (c === 0x5d) place = 'afterValue';
          else fail(i, 'a comma or a closing bracket was expected');
          i += 1;
          break;
        case 'afterValue':
          if (c === 0x2c) place = 'key';
          else if (c === 0x7d) place = 'end';
          else fail(i, 'a comma or a closing brace was expected');
          i += 1;
          break;
        default:
          fail(i, 'nothing may follow the object');
      }
    }
    offset += chunk.length;
  }
  if (place !== 'end') fail(0, 'the text ends before the object does');
  return found;
}
