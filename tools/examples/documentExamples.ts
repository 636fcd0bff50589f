/**
 * Writes recorded examples into the OpenAPI document with the `yaml` package's Document
 * API, so that everything else in the file (comments, key order, quoting, layout) stays
 * as it was: only the `examples` maps the session recorded are replaced.
 *
 * Each capture goes to its operation (found by operationId; the call's method and path
 * must be that operation's) as the example of the request body's `application/json` and
 * of the response media type of its status. The recorder owns each `examples` map it
 * writes: the map becomes exactly the recorded examples, in the session's order (a
 * request body's successful examples first, as the docs page shows the first one), so a
 * rerun changes only ids and timestamps. A status answered by a shared response
 * (`$ref` to components) is refused: its examples serve every operation.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { Document, isMap, parseDocument, YAMLMap } from 'yaml';
import type { Capture } from './exampleSession';

const METHODS = ['get', 'put', 'post', 'patch', 'delete'];
/** The options under which the document reads back unchanged (and Prettier agrees). */
const STRINGIFY = { lineWidth: 0, flowCollectionPadding: false, singleQuote: true } as const;

interface Operation {
  template: string;
  method: string;
  node: YAMLMap;
}

interface ExampleMap {
  media: YAMLMap;
  where: string;
  examples: Record<string, { summary: string; value: unknown }>;
}

function operations(doc: Document): Map<string, Operation> {
  const found = new Map<string, Operation>();
  const paths = doc.get('paths');
  if (!isMap(paths)) throw new Error('the document has no paths');
  for (const item of paths.items) {
    const template = String((item.key as { value: unknown }).value);
    if (!isMap(item.value)) continue;
    for (const method of METHODS) {
      const node = item.value.get(method);
      if (isMap(node)) found.set(String(node.get('operationId')), { template, method, node });
    }
  }
  return found;
}

/** Whether `path` (query string and all) is a request to the path `template`. */
export function pathMatches(template: string, path: string): boolean {
  const pattern = template
    .split(/\{[^}]+\}/)
    .map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))
    .join('[^/?]+');
  return new RegExp(`^${pattern}(\\?.*)?$`).test(path);
}

function mediaOf(holder: unknown, mediaType: string, where: string): YAMLMap {
  if (!isMap(holder)) throw new Error(`${where}: not in the document`);
  if (holder.has('$ref')) throw new Error(`${where}: a shared ($ref) answer; not written`);
  const media = holder.getIn(['content', mediaType]);
  if (!isMap(media)) throw new Error(`${where}: no ${mediaType} content`);
  return media;
}

const failed = (c: Capture) => (c.status >= 200 && c.status < 300 ? 0 : 1);

/** The examples maps the captures fill, keyed by where they go. */
function examplesMaps(doc: Document, captures: Capture[]): Map<string, ExampleMap> {
  const ops = operations(doc);
  const maps = new Map<string, ExampleMap>();
  const add = (
    where: string,
    holder: unknown,
    mediaType: string,
    name: string,
    summary: string,
    value: unknown,
  ) => {
    const entry = maps.get(where) ?? {
      media: mediaOf(holder, mediaType, where),
      where,
      examples: {},
    };
    if (name in entry.examples) throw new Error(`${where}: two examples named ${name}`);
    entry.examples[name] = { summary: `Recorded: ${summary}`, value };
    maps.set(where, entry);
  };
  const successFirst = [...captures].sort((a, b) => failed(a) - failed(b));
  for (const c of successFirst) {
    const op = ops.get(c.operationId);
    if (!op) throw new Error(`no operation ${c.operationId} in the document`);
    if (op.method !== c.method.toLowerCase() || !pathMatches(op.template, c.path))
      throw new Error(
        `${c.method} ${c.path} is not ${c.operationId} (${op.method} ${op.template})`,
      );
    if (c.request !== undefined) {
      const body = op.node.get('requestBody');
      add(`${c.operationId} request`, body, 'application/json', c.name, c.summary, c.request);
    }
    const answer = op.node.getIn(['responses', String(c.status)]);
    const where = `${c.operationId} ${c.status} ${c.mediaType}`;
    add(where, answer, c.mediaType, c.name, c.summary, c.response);
  }
  return maps;
}

/** Replaces the recorded examples maps of `file`; returns where it wrote, one line each. */
export function writeExamples(file: string, captures: Capture[]): string[] {
  const doc = parseDocument(readFileSync(file, 'utf8'));
  if (doc.errors.length > 0) throw new Error(`${file}: ${doc.errors[0].message}`);
  const written: string[] = [];
  for (const { media, where, examples } of examplesMaps(doc, captures).values()) {
    media.set('examples', doc.createNode(examples, { aliasDuplicateObjects: false }));
    written.push(`${where}: ${Object.keys(examples).join(', ')}`);
  }
  writeFileSync(file, doc.toString(STRINGIFY));
  return written;
}
