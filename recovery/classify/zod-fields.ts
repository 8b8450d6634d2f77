/**
 * What one field issue says, field by field: is the value present, what was expected (in words), what was
 * received. From zod's typed issues (./zod-issues.ts) and, when known, the tool's JSON Schema (./json-schema.ts):
 * the schema gives `expected` in full ("positive integer" where the issue only says "number") and the known keys
 * an unknown key is compared to; the input gives `received`.
 * Pure: no I/O.
 */
import { MAX_RECEIVED_CHARS } from '../failure';
import { isSecretKey } from '../redact';
import { isInformative, objectKeys, schemaAt } from './json-schema';
import { describeSchema } from './json-schema-words';
import { hasOwn, isObjectLike, ownKeys, readProp, readString, renderValue } from './safe';
import { MAX_KEY_COMPARISONS, type CompareBudget } from './suggest';
import { publicText, truncate, RECEIVED_NOT_REPORTED } from './text';
import { expectedFromIssue, jsonSchemaOf, receivedFromMessage, type Entry, type Seg } from './zod-issues';

/** What helps turn zod issues into field issues. All optional. */
export interface ZodIssueOptions {
  /** The arguments as the model sent them: gives `received`. */
  input?: unknown;
  /**
   * The JSON Schema of the arguments (a tool spec's `inputSchema`, or an MCP tool's): gives `expected` in full and
   * the known keys. Wins over `schema`.
   */
  jsonSchema?: unknown;
  /** The zod 4 schema they failed: used through its JSON Schema (`z.toJSONSchema`, cached) when `jsonSchema` is absent. */
  schema?: unknown;
}

export type Present = { present: true; value: unknown } | { present: false };

export interface Scope {
  input: unknown;
  hasInput: boolean;
  /** The JSON Schema the paths resolve in, or `undefined` when none is known. */
  json: unknown;
  /** Per parent (pathKey): keys present in the input but not in the schema or reported unrecognized. */
  unknownKeys: Map<string, string[]>;
  /** Key comparisons left to the call's suggestions (./suggest.ts `MAX_KEY_COMPARISONS`). */
  compares: CompareBudget;
}

export const pathKey = (path: readonly Seg[]): string => JSON.stringify(path);
export const parentOf = (path: readonly Seg[]): Seg[] => path.slice(0, -1);

function valueAt(input: unknown, path: readonly Seg[]): Present {
  let cur = input;
  for (const seg of path) {
    if (!isObjectLike(cur) || !hasOwn(cur, seg)) return { present: false };
    cur = readProp(cur, String(seg));
  }
  return cur === undefined ? { present: false } : { present: true, value: cur };
}

export function presentAt(scope: Scope, e: Entry): Present {
  if (scope.hasInput) return valueAt(scope.input, e.path);
  if (hasOwn(e.issue, 'input')) {
    const v = readProp(e.issue, 'input');
    return v === undefined ? { present: false } : { present: true, value: v };
  }
  return receivedFromMessage(e.issue) === 'missing' ? { present: false } : { present: true, value: undefined };
}

export function isMissing(scope: Scope, e: Entry): boolean {
  return e.code !== 'unknown_key' && !presentAt(scope, e).present;
}

/** The sub-schema at `path` when it says something about the value (not `{}`), else `undefined`. */
export function subAt(scope: Scope, path: readonly Seg[]): unknown {
  if (scope.json === undefined) return undefined;
  const sub = schemaAt(scope.json, path);
  return sub !== undefined && isInformative(sub, scope.json) ? sub : undefined;
}

export function knownKeysOf(scope: Scope, parent: readonly Seg[]): string[] {
  return scope.json === undefined ? [] : objectKeys(schemaAt(scope.json, parent), scope.json);
}

export function expectedOf(scope: Scope, e: Entry): string {
  if (e.code === 'unknown_key') {
    const known = knownKeysOf(scope, parentOf(e.path));
    return known.length > 0 ? `a known key (${known.join('|')})` : 'no such key';
  }
  const message = readString(e.issue, 'message');
  if (e.code === 'custom' && message && !/^invalid input$/i.test(message)) return message;
  const sub = subAt(scope, e.path);
  return sub !== undefined ? describeSchema(sub, scope.json) : expectedFromIssue(e.issue);
}

export function receivedOf(scope: Scope, e: Entry): string {
  const at = presentAt(scope, e);
  if (!at.present) return 'missing';
  const name = e.path[e.path.length - 1];
  if (typeof name === 'string' && isSecretKey(name)) return '[redacted]';
  if (!scope.hasInput && !hasOwn(e.issue, 'input')) return receivedFromMessage(e.issue) ?? RECEIVED_NOT_REPORTED;
  return truncate(publicText(renderValue(at.value), 10 * MAX_RECEIVED_CHARS), MAX_RECEIVED_CHARS);
}

/** The JSON Schema to read: `jsonSchema` when given (an object or boolean schema), else the zod schema's. */
function jsonOf(options: ZodIssueOptions): unknown {
  const given = readProp(options, 'jsonSchema');
  if (isObjectLike(given) || typeof given === 'boolean') return given;
  const schema = readProp(options, 'schema');
  return schema === undefined ? undefined : jsonSchemaOf(schema);
}

export function buildScope(entries: readonly Entry[], options: ZodIssueOptions): Scope {
  const scope: Scope = {
    input: readProp(options, 'input'),
    hasInput: hasOwn(options, 'input'),
    json: jsonOf(options),
    unknownKeys: new Map(),
    compares: { left: MAX_KEY_COMPARISONS },
  };
  const addUnknown = (parent: readonly Seg[], key: string): void => {
    const k = pathKey(parent);
    const keys = scope.unknownKeys.get(k) ?? [];
    if (!keys.includes(key)) keys.push(key);
    scope.unknownKeys.set(k, keys);
  };
  for (const e of entries) {
    if (e.code === 'unknown_key') addUnknown(parentOf(e.path), String(e.path[e.path.length - 1]));
    else if (isMissing(scope, e)) {
      // A schema that strips unknown keys reports none: find them in the input.
      const parent = parentOf(e.path);
      const known = knownKeysOf(scope, parent);
      if (scope.hasInput && known.length > 0) {
        const obj = valueAt(scope.input, parent);
        const container = parent.length === 0 ? scope.input : obj.present ? obj.value : undefined;
        for (const k of ownKeys(container).slice(0, 200)) if (!known.includes(k)) addUnknown(parent, k);
      }
    }
  }
  return scope;
}
