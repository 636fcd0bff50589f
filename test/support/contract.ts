/**
 * Contract helper: validates every response the tests receive against the OpenAPI
 * document (status declared for the operation, JSON body against its schema,
 * declared headers present). Used by every integration test through the client.
 */
import { readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { ValidateFunction } from 'ajv';
import { OpenAPIBackend } from 'openapi-backend';
import { parse } from 'yaml';
import { OPENAPI_PATH } from '../../services/platform';

type Json = Record<string, unknown>;

const DOC_ID = 'openapi.json';

export class Contract {
  private readonly ajv: Ajv2020;
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly router: OpenAPIBackend;
  readonly document: Json;

  constructor(path = OPENAPI_PATH) {
    this.document = parse(readFileSync(path, 'utf8')) as Json;
    this.ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(this.ajv);
    this.ajv.addSchema(this.document, DOC_ID);
    this.router = new OpenAPIBackend({
      definition: this.document as never,
      validate: false,
      quick: true,
    });
  }

  async init(): Promise<void> {
    await this.router.init();
  }

  operationFor(method: string, path: string): { operationId: string; pointer: string } | undefined {
    const op = this.router.router.matchOperation({ method, path: path.split('?')[0], headers: {} });
    if (!op?.operationId) return undefined;
    return {
      operationId: op.operationId,
      pointer: `/paths/${op.path.replace(/~/g, '~0').replace(/\//g, '~1')}/${op.method}`,
    };
  }

  /** Returns a list of problems (empty when the response matches the document). */
  check(method: string, path: string, status: number, headers: Headers, body: unknown): string[] {
    const op = this.operationFor(method, path);
    if (!op) return status === 404 ? [] : [`no operation in the document for ${method} ${path}`];
    const operation = this.resolve(op.pointer) as Json;
    const responses = operation.responses as Json;
    let key = String(status);
    if (!(key in responses)) key = `${String(status)[0]}XX`;
    if (!(key in responses)) key = 'default';
    if (!(key in responses)) return [`${op.operationId}: status ${status} is not declared`];
    const problems: string[] = [];
    const response = this.deref(responses[key]) as Json;
    const responseHeaders = (response.headers ?? {}) as Json;
    for (const [name, spec] of Object.entries(responseHeaders)) {
      const header = this.deref(spec) as Json;
      const value = headers.get(name);
      if (header.required === true && value === null)
        problems.push(`${op.operationId} ${status}: header ${name} missing`);
      const schema = header.schema as Json | undefined;
      if (value !== null && schema?.type === 'integer' && !/^-?\d+$/.test(value)) {
        problems.push(`${op.operationId} ${status}: header ${name}=${value} is not an integer`);
      }
    }
    const content = response.content as Json | undefined;
    const json = content?.['application/json'] as Json | undefined;
    if (!json) return problems;
    const pointer = `${op.pointer}/responses/${key}`;
    const schemaRef = this.refFor(responses[key], pointer);
    const validate = this.validatorFor(`${schemaRef}/content/application~1json/schema`);
    if (!validate(body)) {
      problems.push(
        `${op.operationId} ${status}: body does not match the document: ${this.ajv.errorsText(validate.errors, { separator: '; ' })} body=${JSON.stringify(body).slice(0, 500)}`,
      );
    }
    return problems;
  }

  /**
   * Checks the events of a `text/event-stream` answer: each against the media type's schema
   * (one event per item, as OpenAPI 3.1 reads it), and each event's `data`, parsed as JSON,
   * against the component schema `dataSchema` (the document can only say so in words: the
   * gateway's validator takes no `contentSchema`).
   */
  checkEvents(
    method: string,
    path: string,
    status: number,
    events: unknown[],
    dataSchema: string,
  ): string[] {
    const op = this.operationFor(method, path);
    if (!op) return [`no operation in the document for ${method} ${path}`];
    const validateEvent = this.validatorFor(
      `${op.pointer}/responses/${status}/content/text~1event-stream/schema`,
    );
    const validateData = this.validatorFor(`/components/schemas/${dataSchema}`);
    const problems: string[] = [];
    for (const event of events) {
      if (!validateEvent(event))
        problems.push(
          `${op.operationId} event: ${this.ajv.errorsText(validateEvent.errors)} event=${JSON.stringify(event).slice(0, 300)}`,
        );
      const data = (event as Json).data;
      if (typeof data === 'string' && !validateData(JSON.parse(data)))
        problems.push(
          `${op.operationId} event data: ${this.ajv.errorsText(validateData.errors)} data=${data.slice(0, 300)}`,
        );
    }
    return problems;
  }

  private refFor(value: unknown, pointer: string): string {
    const ref = (value as Json)?.$ref;
    return typeof ref === 'string' ? ref.replace(/^#/, '') : pointer;
  }

  private validatorFor(pointer: string): ValidateFunction {
    let validate = this.validators.get(pointer);
    if (!validate) {
      const encoded = pointer.split('/').map(encodeURIComponent).join('/');
      validate = this.ajv.compile({ $ref: `${DOC_ID}#${encoded}` });
      this.validators.set(pointer, validate);
    }
    return validate;
  }

  private deref(value: unknown): unknown {
    const ref = (value as Json)?.$ref;
    return typeof ref === 'string' ? this.resolve(ref.replace(/^#/, '')) : value;
  }

  private resolve(pointer: string): unknown {
    return pointer
      .split('/')
      .slice(1)
      .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce<unknown>((node, key) => (node as Json)[key], this.document);
  }
}
