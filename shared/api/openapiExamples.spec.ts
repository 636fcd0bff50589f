/**
 * The examples of the OpenAPI document, which the docs page shows to API callers:
 * every operation shows a request example (when it takes a body), a success example
 * and, when it declares error answers, an error example; and every example, wherever
 * it sits (media type, parameter or schema), is valid against its schema. Validated
 * with ajv on the 2020-12 draft, as the integration tests validate real answers.
 */
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';

type Json = Record<string, any>;

const DOC_ID = 'openapi.json';
const METHODS = ['get', 'put', 'post', 'patch', 'delete'];
const DOCUMENT = parse(
  readFileSync(join(__dirname, '..', '..', 'openapi', 'graph-design-service.yaml'), 'utf8'),
) as Json;

const escape = (part: string) => part.replace(/~/g, '~0').replace(/\//g, '~1');

/** Follows a local $ref; returns the value and the JSON pointer it lives at. */
function resolved(doc: Json, value: Json, pointer: string): { value: Json; pointer: string } {
  const ref = value?.$ref;
  if (typeof ref !== 'string') return { value, pointer };
  const target = ref.replace(/^#/, '');
  const found = target
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<Json>((node, key) => node?.[key], doc);
  return { value: found, pointer: target };
}

/** Every example value of a media type, parameter or schema (`example` and `examples`). */
function examplesOf(holder: Json): { name: string; value: unknown }[] {
  const found: { name: string; value: unknown }[] = [];
  if (holder && 'example' in holder) found.push({ name: 'example', value: holder.example });
  for (const [name, example] of Object.entries((holder?.examples ?? {}) as Json))
    found.push({ name, value: (example as Json).value });
  return found;
}

class ExampleCheck {
  readonly problems: string[] = [];
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });

  constructor(private readonly doc: Json) {
    addFormats(this.ajv);
    this.ajv.addSchema(doc, DOC_ID);
  }

  /** Validates the examples of `holder` against the schema at `pointer`/schema; returns how many. */
  validate(holder: Json, pointer: string, where: string): number {
    const examples = examplesOf(holder);
    if (examples.length > 0 && holder.schema !== undefined)
      this.against(`${pointer}/schema`, examples, where);
    return examples.length;
  }

  /** Validates `examples` against the schema at `schemaPointer`. */
  against(schemaPointer: string, examples: { name: string; value: unknown }[], where: string) {
    const encoded = schemaPointer.split('/').map(encodeURIComponent).join('/');
    const check = this.ajv.compile({ $ref: `${DOC_ID}#${encoded}` });
    for (const { name, value } of examples) {
      if (!check(value))
        this.problems.push(
          `${where} example ${name}: ${this.ajv.errorsText(check.errors, { separator: '; ' })}`,
        );
    }
  }

  /** Examples of every media type of a request body or response; returns how many. */
  content(container: Json, pointer: string, where: string): number {
    const { value, pointer: at } = resolved(this.doc, container, pointer);
    let count = 0;
    for (const [type, media] of Object.entries((value?.content ?? {}) as Json))
      count += this.validate(media as Json, `${at}/content/${escape(type)}`, `${where} ${type}`);
    return count;
  }

  operation(path: string, method: string, op: Json): void {
    const pointer = `/paths/${escape(path)}/${method}`;
    const id = op.operationId as string;
    if (op.requestBody && this.content(op.requestBody, `${pointer}/requestBody`, id) === 0)
      this.problems.push(`${id}: the request body has no example`);
    (op.parameters ?? []).forEach((parameter: Json, i: number) => {
      const { value, pointer: at } = resolved(this.doc, parameter, `${pointer}/parameters/${i}`);
      this.validate(value, at, `${id} parameter ${value.name}`);
    });
    const shown = { success: 0, error: 0, errorsDeclared: false };
    for (const [status, response] of Object.entries(op.responses as Json)) {
      const count = this.content(response, `${pointer}/responses/${status}`, `${id} ${status}`);
      if (status.startsWith('2')) shown.success += count;
      if (status.startsWith('4') || status.startsWith('5')) {
        shown.errorsDeclared = true;
        shown.error += count;
      }
    }
    if (shown.success === 0) this.problems.push(`${id}: no example of a success answer`);
    if (shown.errorsDeclared && shown.error === 0)
      this.problems.push(`${id}: no example of an error answer`);
  }

  /** A schema's own `example` (an OpenAPI keyword) against that schema. */
  schemas(): void {
    for (const [name, schema] of Object.entries((this.doc.components?.schemas ?? {}) as Json))
      if ('example' in schema)
        this.against(
          `/components/schemas/${escape(name)}`,
          [{ name: 'example', value: schema.example }],
          name,
        );
  }
}

/** Everything wrong with the examples of `doc` (empty when every example is there and valid). */
function exampleProblems(doc: Json): string[] {
  const check = new ExampleCheck(doc);
  for (const [path, item] of Object.entries(doc.paths as Json))
    for (const method of METHODS) if (item[method]) check.operation(path, method, item[method]);
  check.schemas();
  return check.problems;
}

describe('OpenAPI examples', () => {
  it('every operation shows its request, a success and an error, each valid against its schema', () => {
    expect(exampleProblems(DOCUMENT)).to.deep.equal([]);
  });

  it('names an example that does not match its schema', () => {
    const doc = structuredClone(DOCUMENT);
    const create = doc.paths['/v1/projects'].post.requestBody.content['application/json'];
    const [name] = Object.keys(create.examples);
    create.examples[name].value = { name: 42 };
    const problems = exampleProblems(doc);
    expect(problems).to.have.length(1);
    expect(problems[0]).to.match(new RegExp(`^createProject application/json example ${name}: `));
  });

  it('names an operation without a request, success or error example', () => {
    const doc = structuredClone(DOCUMENT);
    const fork = doc.paths['/v1/projects/{project_id}/branches'].post;
    delete fork.requestBody.content['application/json'].examples;
    delete fork.responses['201'].content['application/json'].examples;
    delete fork.responses['409'].content['application/json'].examples;
    // the other error answers of forkBranch are shared ones that carry examples
    fork.responses = { '201': fork.responses['201'], '409': fork.responses['409'] };
    expect(exampleProblems(doc)).to.deep.equal([
      'forkBranch: the request body has no example',
      'forkBranch: no example of a success answer',
      'forkBranch: no example of an error answer',
    ]);
  });
});
