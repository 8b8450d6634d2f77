/**
 * An MCP tool's JSON Schema (`inputSchema`, `outputSchema`) → a zod schema the activity checks before dispatch and
 * after the answer.
 *
 * Decision: zod 4.1 has no `z.fromJSONSchema` (it arrives in a later 4.x), so this is a small converter of the
 * subset that catches what a planner gets wrong most often: `type` (one or a list of `string`, `number`,
 * `integer`, `boolean`, `null`, `array`, `object`), `properties` with `required` (nested), `additionalProperties:
 * false`, `items` (one schema), `enum` and `const` of primitives, and `description` (kept, so the planner's
 * JSON Schema still explains each field). `format`, `pattern` and the numeric bounds are kept as
 * metadata, not checked (see `KEPT_KEYWORDS`). Everything else (`anyOf`/`oneOf`/`allOf`, `$ref`, tuple `items`,
 * …) is accepted as is at that node: the server validates the rest and its
 * own answer (MCP "Input validation errors", an `isError` result or JSON-RPC -32602) is mapped to
 * `invalid_arguments` by error-map.ts. Objects keep keys the schema does not name (JSON Schema's default)
 * unless it says `additionalProperties: false`.
 *
 * Source: JSON Schema 2020-12 Validation §6.1 (`type`, `enum`, `const`), Core §10.3.2 (`properties`,
 * `additionalProperties`), Validation §6.5.3 (`required`); MCP spec 2025-11-25, "Tools": `inputSchema` is a JSON
 * Schema object with `type: "object"`.
 */
import { z } from 'zod';

/** Deeper nodes than this are accepted as is (a hostile or recursive schema cannot make conversion slow). */
export const MAX_SCHEMA_DEPTH = 8;

export type Json = Record<string, unknown>;

export const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const isPrimitive = (v: unknown): v is string | number | boolean | null =>
  v === null || typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));

/**
 * The zod schema for an MCP tool's arguments (the root of `inputSchema`). The root is always an object, as
 * `tools/call` arguments are; a root without `properties` accepts any object.
 * @param schema the tool's `inputSchema` (untrusted JSON from the server; never throws on it).
 */
export function zodFromInputSchema(schema: unknown): z.ZodType<Record<string, unknown>> {
  try {
    if (!isRecord(schema) || !isRecord(schema.properties)) {
      return withDescription(z.record(z.string(), z.unknown()), schema);
    }
    return objectNode(schema, 0);
  } catch {
    // A schema object whose reads throw (a getter, a Proxy: interop callers pass objects, not JSON text) accepts
    // any object, as one without `properties` does; the server checks the rest.
    return z.record(z.string(), z.unknown());
  }
}

/**
 * The zod schema for one JSON Schema node (see the module docs for the subset checked).
 * @param schema any JSON value; a non-object (or a boolean schema) accepts anything. Never throws.
 */
export function zodFromJsonSchema(schema: unknown, depth = 0): z.ZodType {
  if (!isRecord(schema) || depth > MAX_SCHEMA_DEPTH) return z.unknown();
  if (depth > 0) return withDescription(bareNode(schema, depth), schema);
  try {
    return withDescription(bareNode(schema, depth), schema);
  } catch {
    return z.unknown(); // reads that throw: see zodFromInputSchema
  }
}

function bareNode(schema: Json, depth: number): z.ZodType {
  if ('const' in schema && isPrimitive(schema.const)) return z.literal(schema.const);
  if (Array.isArray(schema.enum) && schema.enum.length > 0 && schema.enum.every(isPrimitive)) {
    const values = schema.enum as (string | number | boolean | null)[];
    return values.every((v) => typeof v === 'string')
      ? z.enum(values as [string, ...string[]])
      : z.literal(values as [string | number | boolean | null, ...(string | number | boolean | null)[]]);
  }
  const types = typeof schema.type === 'string' ? [schema.type] : Array.isArray(schema.type) ? schema.type : [];
  const nodes = types.map((t) => typeNode(t, schema, depth));
  if (nodes.length === 0) return isRecord(schema.properties) ? objectNode(schema, depth) : z.unknown();
  if (nodes.some((n) => n === undefined)) return z.unknown(); // an unknown type name: accept, the server decides
  const known = nodes as z.ZodType[];
  return known.length === 1 ? known[0]! : z.union(known as [z.ZodType, z.ZodType, ...z.ZodType[]]);
}

/** The node of each JSON Schema type name; `array` and `object` read the schema's `items` and `properties`. */
const TYPE_NODES: Readonly<Record<string, (schema: Json, depth: number) => z.ZodType>> = Object.freeze({
  string: () => z.string(),
  number: () => z.number(),
  integer: () => z.int(),
  boolean: () => z.boolean(),
  null: () => z.null(),
  array: (schema, depth) => z.array(isRecord(schema.items) ? zodFromJsonSchema(schema.items, depth + 1) : z.unknown()),
  object: (schema, depth) => objectNode(schema, depth),
});

/** The node of one type name; undefined for a name JSON Schema does not define. */
function typeNode(type: unknown, schema: Json, depth: number): z.ZodType | undefined {
  return typeof type === 'string' && Object.hasOwn(TYPE_NODES, type) ? TYPE_NODES[type]!(schema, depth) : undefined;
}

function objectNode(schema: Json, depth: number): z.ZodType<Record<string, unknown>> {
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const required = new Set(
    Array.isArray(schema.required) ? schema.required.filter((k): k is string => typeof k === 'string') : [],
  );
  // Object.fromEntries defines own properties, so a key named `__proto__` stays a key.
  const shape: Record<string, z.ZodType> = Object.fromEntries(
    Object.entries(properties).map(([key, sub]) => {
      const node = zodFromJsonSchema(sub, depth + 1);
      return [key, required.has(key) ? node : node.optional()];
    }),
  );
  // A required key the schema lists without a property schema must still be present.
  for (const key of required) {
    if (!Object.hasOwn(shape, key)) {
      Object.defineProperty(shape, key, {
        value: z.unknown().refine((v) => v !== undefined, { message: 'Required' }),
        enumerable: true,
      });
    }
  }
  return schema.additionalProperties === false ? z.strictObject(shape) : z.looseObject(shape);
}

/**
 * Keywords kept as the node's metadata (zod `.meta()`, which `z.toJSONSchema` writes back into the node): the
 * tool's spec, so what a planner reads and what field issues word `expected` from (recovery/classify/json-schema.ts),
 * says what the server's schema says — "email address", "integer between 1 and 50" — although only the subset
 * above is checked here. Values: strings for `description`, `format`, `pattern`; finite numbers for the rest.
 */
const KEPT_KEYWORDS: Readonly<Record<string, 'string' | 'number'>> = Object.freeze({
  description: 'string',
  format: 'string',
  pattern: 'string',
  minimum: 'number',
  maximum: 'number',
  exclusiveMinimum: 'number',
  exclusiveMaximum: 'number',
  multipleOf: 'number',
  minLength: 'number',
  maxLength: 'number',
  minItems: 'number',
  maxItems: 'number',
});

function withDescription<T extends z.ZodType>(node: T, schema: unknown): T {
  if (!isRecord(schema)) return node;
  const meta: Record<string, string | number> = {};
  for (const [key, type] of Object.entries(KEPT_KEYWORDS)) {
    const value = schema[key];
    if (type === 'string' && typeof value === 'string' && value.trim() !== '' && value.length <= 2_000)
      meta[key] = value;
    if (type === 'number' && typeof value === 'number' && Number.isFinite(value)) meta[key] = value;
  }
  return Object.keys(meta).length > 0 ? (node.meta(meta) as T) : node;
}
