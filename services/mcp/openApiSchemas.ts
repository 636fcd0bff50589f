/**
 * Turns schemas of the OpenAPI document into self-contained JSON Schemas for MCP
 * tool definitions: every `#/components/schemas/X` reference becomes `#/$defs/X`
 * and the referenced components (transitively) are carried in `$defs`, so a
 * client can validate against the tool's schema alone. Keywords that only mean
 * something to OpenAPI tooling (example, discriminator, xml, externalDocs, x-*)
 * are dropped.
 */

export type JsonSchema = Record<string, unknown>;

export interface OpenApiDocument {
  info?: { title?: string; version?: string };
  paths: Record<string, Record<string, unknown>>;
  components?: {
    schemas?: Record<string, JsonSchema>;
    parameters?: Record<string, unknown>;
    requestBodies?: Record<string, unknown>;
    responses?: Record<string, unknown>;
  };
}

const COMPONENT_SCHEMA = '#/components/schemas/';
const OPENAPI_ONLY = new Set(['example', 'discriminator', 'xml', 'externalDocs']);

/** Follows a local `$ref` (`#/components/...`) of the document; other values are returned as they are. */
export function resolveRef<T>(doc: OpenApiDocument, value: T): T {
  let current: unknown = value;
  for (let hops = 0; hops < 16; hops += 1) {
    const ref = (current as { $ref?: unknown } | undefined)?.$ref;
    if (typeof ref !== 'string' || !ref.startsWith('#/')) return current as T;
    current = ref
      .slice(2)
      .split('/')
      .reduce<unknown>(
        (node, part) => (node as Record<string, unknown> | undefined)?.[part.replace(/~1/g, '/')],
        doc,
      );
    if (current === undefined) throw new Error(`unresolvable reference ${ref}`);
  }
  throw new Error('reference chain too long');
}

/** A copy of `schema` with component references rewritten; names of referenced components go to `used`. */
function rewrite(schema: unknown, used: Set<string>): unknown {
  if (Array.isArray(schema)) return schema.map((item) => rewrite(item, used));
  if (schema === null || typeof schema !== 'object') return schema;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema as JsonSchema)) {
    if (OPENAPI_ONLY.has(key) || key.startsWith('x-')) continue;
    if (key === '$ref' && typeof value === 'string' && value.startsWith(COMPONENT_SCHEMA)) {
      const name = value.slice(COMPONENT_SCHEMA.length);
      used.add(name);
      out.$ref = `#/$defs/${name}`;
      continue;
    }
    // property names are data, not keywords: keep every one of them
    if (key === 'properties' && value !== null && typeof value === 'object') {
      out.properties = Object.fromEntries(
        Object.entries(value as JsonSchema).map(([name, sub]) => [name, rewrite(sub, used)]),
      );
      continue;
    }
    out[key] = rewrite(value, used);
  }
  return out;
}

/**
 * Rewrites several schemas that will live in one JSON Schema document and
 * returns them with the `$defs` they need (empty when none).
 */
export function bundleSchemas(
  doc: OpenApiDocument,
  schemas: unknown[],
): { schemas: JsonSchema[]; defs: Record<string, JsonSchema> } {
  const used = new Set<string>();
  const rewritten = schemas.map((schema) => rewrite(schema, used) as JsonSchema);
  const defs: Record<string, JsonSchema> = {};
  const pending = [...used];
  while (pending.length > 0) {
    const name = pending.pop() as string;
    if (defs[name]) continue;
    const component = doc.components?.schemas?.[name];
    if (!component) throw new Error(`unknown schema component ${name}`);
    const found = new Set<string>();
    defs[name] = rewrite(component, found) as JsonSchema;
    for (const next of found) if (!defs[next]) pending.push(next);
  }
  return { schemas: rewritten, defs };
}
