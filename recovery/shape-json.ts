/**
 * A shape's JSON Schema (draft 2020-12, as zod 4's `z.toJSONSchema(schema, { io: 'input' })` writes the same
 * declaration): what the Node side shows of a shape in words, e.g. the field issues of a planner decision that fails
 * `plannerDecisionSchema()` ("non-empty array of object", "one of tool_calls|submit|stop";
 * activities/planners/planner.ts). Refinements have no JSON form and are left out. Not imported by workflow code.
 * Pure: no I/O.
 */
import { Modified, type Shape } from './shape-base';
import { NumberShape, StringShape, TestShape } from './shape-leaves';
import { ArrayShape, DiscriminatedShape, ObjectShape, RecordShape, UnionShape, type Fields } from './shape';

type Schema = Record<string, unknown>;

/** @returns the JSON Schema of `shape`; `{}` (anything) for a shape with no JSON form of its own. */
export function jsonSchemaOfShape(shape: object): Schema {
  return { $schema: 'https://json-schema.org/draft/2020-12/schema', ...node(shape) };
}

function node(shape: unknown): Schema {
  if (shape instanceof TestShape) return { ...shape.json };
  if (shape instanceof StringShape) return stringNode(shape);
  if (shape instanceof NumberShape) return numberNode(shape);
  if (shape instanceof Modified) return modifiedNode(shape);
  if (shape instanceof ObjectShape) return objectNode(shape.shape as Fields, shape.keys);
  if (shape instanceof ArrayShape) return arrayNode(shape);
  if (shape instanceof RecordShape)
    return { type: 'object', propertyNames: node(shape.key), additionalProperties: node(shape.value) };
  if (shape instanceof UnionShape || shape instanceof DiscriminatedShape) {
    return { anyOf: (shape.options as readonly unknown[]).map(node) };
  }
  return {};
}

function stringNode(shape: StringShape): Schema {
  const out: Schema = { type: 'string' };
  if (shape.minLength) out.minLength = shape.minLength[0];
  if (shape.maxLength) out.maxLength = shape.maxLength[0];
  if (shape.pattern) out.pattern = shape.pattern[0].source;
  return out;
}

function numberNode(shape: NumberShape): Schema {
  const out: Schema = { type: shape.integer ? 'integer' : 'number' };
  if (shape.low) out[shape.low[1] ? 'minimum' : 'exclusiveMinimum'] = shape.low[0];
  if (shape.high) out[shape.high[1] ? 'maximum' : 'exclusiveMaximum'] = shape.high[0];
  return out;
}

function modifiedNode(shape: Modified<unknown, unknown, 'in' | 'out'>): Schema {
  const inner = node(shape.inner);
  return shape.kind === 'default' ? { ...inner, default: shape.value } : inner;
}

/** An object's fields; required: those it cannot leave out (no `optional`, `default` or `catch`). */
function objectNode(fields: Fields, keys: string): Schema {
  const properties = Object.fromEntries(Object.entries(fields).map(([k, f]) => [k, node(f)]));
  const required = Object.entries(fields)
    .filter(([, f]) => !(f instanceof Modified))
    .map(([k]) => k);
  const out: Schema = { type: 'object', properties };
  if (required.length > 0) out.required = required;
  if (keys === 'strict') out.additionalProperties = false;
  else if (keys === 'passthrough') out.additionalProperties = {};
  return out;
}

function arrayNode(shape: ArrayShape<Shape<unknown, unknown, never>>): Schema {
  const out: Schema = { type: 'array', items: node(shape.item) };
  if (shape.fewest > 0) out.minItems = shape.fewest;
  if (Number.isFinite(shape.most)) out.maxItems = shape.most;
  return out;
}
