/**
 * Reads typed fields out of untrusted JSON, raising validation_error envelopes that name the
 * offending field path (e.g. deltas[3].node.data.name). Applies the wire conventions: empty string
 * -> null for the nullable string fields and handles (parent_id, user_kind, path_prefix, language,
 * external_kind, protocol, documentation_url, contract_name, source_handle, target_handle), strict
 * booleans.
 */
import { deltaError } from './deltaErrors';
import { characterCount } from '../../../shared/text/characters';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type Json = Record<string, unknown>;

export interface ReaderContext {
  index: number | null;
  type: string | null;
  entityId: string | null;
}

export class FieldReader {
  constructor(
    readonly value: Json,
    readonly path: string,
    readonly ctx: ReaderContext,
  ) {}

  static isObject(value: unknown): value is Json {
    return value !== null && typeof value === 'object' && !Array.isArray(value);
  }

  has(key: string): boolean {
    return Object.prototype.hasOwnProperty.call(this.value, key) && this.value[key] !== undefined;
  }

  fail(key: string | null, message: string, error = 'validation_error'): never {
    throw deltaError({
      error,
      message,
      field: key === null ? this.path : `${this.path}.${key}`,
      index: this.ctx.index,
      type: this.ctx.type,
      entityId: this.ctx.entityId,
    });
  }

  object(key: string): FieldReader {
    const value = this.value[key];
    if (!FieldReader.isObject(value)) this.fail(key, `${key} must be an object`);
    return new FieldReader(value, `${this.path}.${key}`, this.ctx);
  }

  uuid(key: string): string {
    const value = this.value[key];
    if (typeof value !== 'string' || !UUID.test(value)) this.fail(key, `${key} must be a uuid`);
    return value.toLowerCase();
  }

  /** A nullable uuid where "" means null. */
  nullableUuid(key: string): string | null {
    const value = this.value[key];
    if (value === null || value === '') return null;
    return this.uuid(key);
  }

  string(key: string, options: { max?: number } = {}): string {
    const value = this.value[key];
    if (typeof value !== 'string') this.fail(key, `${key} must be a string`);
    if (
      options.max !== undefined &&
      value.length > options.max &&
      characterCount(value) > options.max
    ) {
      this.fail(key, `${key} must be at most ${options.max} characters`);
    }
    return value;
  }

  /** A nullable string where "" is coerced to null. */
  nullableString(key: string, options: { max?: number } = {}): string | null {
    const value = this.value[key];
    if (value === null || value === '') return null;
    return this.string(key, options);
  }

  /** Strict boolean: only true or false. */
  boolean(key: string): boolean {
    const value = this.value[key];
    if (value !== true && value !== false) this.fail(key, `${key} must be true or false`);
    return value;
  }

  number(key: string): number {
    const value = this.value[key];
    if (typeof value !== 'number' || !Number.isFinite(value))
      this.fail(key, `${key} must be a number`);
    return value;
  }

  integer(key: string): number {
    const value = this.number(key);
    if (!Number.isSafeInteger(value)) this.fail(key, `${key} must be an integer`);
    return value;
  }

  oneOf<T extends string>(key: string, allowed: readonly T[]): T {
    const value = this.value[key];
    if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
      this.fail(key, `${key} must be one of ${allowed.join(', ')}`);
    }
    return value as T;
  }

  /** An array whose items are read by `item` with their own path. */
  array<T>(
    key: string,
    item: (reader: ItemReader, i: number) => T,
    options: { max?: number } = {},
  ): T[] {
    const value = this.value[key];
    if (!Array.isArray(value)) this.fail(key, `${key} must be an array`);
    if (options.max !== undefined && value.length > options.max) {
      this.fail(key, `${key} must have at most ${options.max} items`);
    }
    return value.map((v, i) => item(new ItemReader(v, `${this.path}.${key}[${i}]`, this.ctx), i));
  }
}

/** One array item: a string, a uuid, or an object. */
export class ItemReader {
  constructor(
    readonly value: unknown,
    readonly path: string,
    readonly ctx: ReaderContext,
  ) {}

  private fail(message: string): never {
    throw deltaError({
      error: 'validation_error',
      message,
      field: this.path,
      index: this.ctx.index,
      type: this.ctx.type,
      entityId: this.ctx.entityId,
    });
  }

  string(max?: number): string {
    if (typeof this.value !== 'string') this.fail('must be a string');
    if (max !== undefined && this.value.length > max && characterCount(this.value) > max) {
      this.fail(`must be at most ${max} characters`);
    }
    return this.value;
  }

  uuid(): string {
    if (typeof this.value !== 'string' || !UUID.test(this.value)) this.fail('must be a uuid');
    return this.value.toLowerCase();
  }

  object(): FieldReader {
    if (!FieldReader.isObject(this.value)) this.fail('must be an object');
    return new FieldReader(this.value, this.path, this.ctx);
  }
}
