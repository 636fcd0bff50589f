/**
 * How deep a request's JSON may nest. Every body this API takes is a few levels deep
 * (node data objects included), while a body of `[[[[...` 100k levels deep would be
 * parsed fine and then overflow the stack of every recursive walk after it (the
 * Idempotency-Key fingerprint, JSON.stringify, schema validation). The gateway scans
 * the raw bytes before parsing and refuses deeper bodies with a 422.
 */

/** The deepest nesting of arrays and objects a request body may have. */
export const MAX_JSON_DEPTH = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;

/**
 * True when the JSON text in `bytes` opens more than `max` arrays or objects inside
 * each other. Brackets inside strings do not count. One pass, no allocation; text
 * that is not JSON is left for the parser to refuse.
 */
export function exceedsJsonDepth(bytes: Uint8Array, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i += 1) {
    const byte = bytes[i];
    if (inString) {
      if (byte === BACKSLASH) i += 1;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) {
      inString = true;
    } else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
      depth += 1;
      if (depth > max) return true;
    } else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
      depth -= 1;
    }
  }
  return false;
}

/** The error the gateway's body parser raises for a body nested too deep. */
export class JsonTooDeepError extends Error {
  readonly type = 'entity.too.deep';
  readonly status = 422;
  constructor(max = MAX_JSON_DEPTH) {
    super(`the body nests arrays and objects deeper than ${max} levels`);
  }
}
