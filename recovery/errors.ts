/**
 * Typed errors for bad input to the pure core.
 *
 * Every public entry point of `recovery/` that receives a value it cannot use throws a `RecoveryInputError`
 * with a `code` and a message that names the field and the rule, never a silent wrong answer.
 * Workflow code should catch it and turn it into an `ApplicationFailure` (a plain Error thrown from workflow
 * code fails the workflow task, which Temporal retries forever).
 *
 * Pure: no I/O; the base class is the only import (and zod's types, for the options' shared rules).
 */
import type { z as Zod } from 'zod';
import { RecoveryError, type CodeOf } from './recovery-error';

/** What kind of bad input it was. A const object plus a type of the same name, never a TS `enum`. */
export const RecoveryInputErrorCode = {
  /** A value fails its schema or a documented precondition (wrong type, out of range, missing field). */
  INVALID_INPUT: 'invalid_input',
  /** A policy or configuration object fails its schema (e.g. `BudgetPolicy`, `BackoffPolicy`). */
  INVALID_POLICY: 'invalid_policy',
  /** A value JSON cannot carry: function, symbol, bigint, NaN, ±Infinity, a cycle, a Map. */
  NOT_JSON: 'not_json',
  /** A value is well formed but too large or too deep to process. */
  LIMIT_EXCEEDED: 'limit_exceeded',
  /** The operation is not defined in the current state (e.g. spending a budget of a call never started). */
  INVALID_STATE: 'invalid_state',
} as const;
export type RecoveryInputErrorCode = CodeOf<typeof RecoveryInputErrorCode>;

/** A path into the offending input: object keys and array indexes, `[]` = the input itself. */
export type InputPath = readonly (string | number)[];

/**
 * Bad input to a public entry point of the core.
 * - `code`: see `RecoveryInputErrorCode`.
 * - `path`: where in the input the problem is, when known (`[]` = the whole value).
 */
export class RecoveryInputError extends RecoveryError<RecoveryInputErrorCode> {
  override readonly name = 'RecoveryInputError';
  static override readonly codes: readonly string[] = Object.values(RecoveryInputErrorCode);
  readonly path: InputPath;

  constructor(code: RecoveryInputErrorCode, message: string, options: { path?: InputPath; cause?: unknown } = {}) {
    super(code, message, options);
    this.path = Object.freeze([...(options.path ?? [])]);
  }
}

/** True for a `RecoveryInputError`, also one created in another realm, where `instanceof` fails. */
export function isRecoveryInputError(e: unknown): e is RecoveryInputError {
  return RecoveryInputError.is(e);
}

/** Renders a path as `$.a[2].b`, the JSONPath-like form used in messages. */
export function formatPath(path: InputPath): string {
  let out = '$';
  for (const seg of path) {
    out +=
      typeof seg === 'number' ? `[${seg}]` : /^[A-Za-z_$][\w$]*$/.test(seg) ? `.${seg}` : `[${JSON.stringify(seg)}]`;
  }
  return out;
}

/** What `parseInput` checks with: a shape (recovery/shape.ts), or anything with zod's `safeParse`. */
export interface Parser<T> {
  safeParse(
    value: unknown,
  ):
    | { success: true; data: T }
    | { success: false; error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] } };
}

/**
 * Validates `value` with a shape (recovery/shape.ts) and returns the parsed value, or throws a `RecoveryInputError`
 * whose message starts with `label` and names the first failing field and rule,
 * e.g. `nextDelay: policy.jitterRatio: Too big: expected number to be <=1`.
 *
 * @param label where the value came from, as the caller names it (`'allowNextAttempt: previous'`).
 * @throws RecoveryInputError with `code` (default `invalid_input`) and the first issue's `path`; also when reading
 *   `value` throws (a getter, a Proxy: message `<label>: cannot be read (reading it threw)`, path `[]`).
 */
export function parseInput<T>(
  schema: Parser<T>,
  value: unknown,
  label: string,
  code: RecoveryInputErrorCode = RecoveryInputErrorCode.INVALID_INPUT,
): T {
  let result: ReturnType<Parser<T>['safeParse']>;
  try {
    result = schema.safeParse(value);
  } catch (cause) {
    // A check reads the value as it is: a getter or Proxy trap that throws escapes safeParse. Refused like any bad value;
    // its own message (which may name a path or a host) stays in `cause`, out of the message.
    throw new RecoveryInputError(code, `${label}: cannot be read (reading it threw)`, { path: [], cause });
  }
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const path: (string | number)[] = (issue?.path ?? []).map((p) => (typeof p === 'number' ? p : String(p)));
  const where = `${label}${formatPath(path).slice(1)}`;
  const more = result.error.issues.length > 1 ? ` (and ${result.error.issues.length - 1} more)` : '';
  throw new RecoveryInputError(code, `${where}: ${issue?.message ?? 'invalid value'}${more}`, {
    path,
    cause: result.error,
  });
}

/**
 * A zod (or shape) issue of an options object as `<where> <rule>` (the issue's message is the rule), e.g.
 * `breaker.threshold must be a positive integer (got 0)`. `where` is the option's path cut to `depth(option)`
 * segments (`tools[2]`, `credentials.crm`), or the option alone in backticks (`` `telemetry` ``); an unknown key is
 * named by its own path (`breaker.halfOpenAfter`); an issue at the root is its message alone. A rule that starts
 * with `:` is joined without a space (`tools[0]: \`name\` differs …`).
 * @param depth how many path segments name an option's subject. @default every segment
 */
export function formatOptionIssue(
  issue: Readonly<{ code: string; path: readonly PropertyKey[]; message: string; keys?: readonly string[] }>,
  depth: (option: string) => number = () => Number.POSITIVE_INFINITY,
): string {
  const full: (string | number)[] = issue.path.map((p) => (typeof p === 'number' ? p : String(p)));
  if (issue.code === 'unrecognized_keys' && issue.keys?.[0] !== undefined) full.push(issue.keys[0]);
  if (full.length === 0) return issue.message;
  const path = full.slice(0, Math.max(1, depth(String(full[0]))));
  const where = path.length === 1 ? `\`${String(path[0])}\`` : formatPath(path).slice(2);
  return issue.message.startsWith(':') ? `${where}${issue.message}` : `${where} ${issue.message}`;
}

/** A `safeParse` answer, zod's or a core shape's (recovery/shape-base.ts), as far as `optionData` reads it. */
export type OptionParse<T> =
  | { success: true; data: T }
  | { success: false; error: { issues: readonly Parameters<typeof formatOptionIssue>[0][] } };

/**
 * The data of `parsed`; `at` is its path among the options (`['breaker']`).
 * @throws `fail(message)` for the first issue, `formatOptionIssue`'s message (`breaker.threshold must be … (got 0)`).
 */
export function optionData<T>(
  parsed: OptionParse<T>,
  at: readonly string[],
  fail: (message: string) => Error,
  depth?: (option: string) => number,
): T {
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw fail(formatOptionIssue({ ...issue, path: [...at, ...issue.path] }, depth));
}

/** A value as an option's message shows it (`0`, `"5"`, `3n`); an object, function or symbol by its kind: never throws. */
export function shownValue(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'bigint') return `${v}n`;
  return v !== null && ['object', 'function', 'symbol'].includes(typeof v) ? typeof v : String(v);
}

/**
 * The rules the options' schemas share (activities/breaker.ts, plugin/shared-options.ts, plugin/metrics-options.ts),
 * each message the rule and the value given: an integer ≥ 1, a finite number of ms ≥ `min` (both optional), and a
 * strict object that names its `known` keys beside an unknown one, and says `whole` when it is not an object.
 */
export const optionRules = (z: typeof Zod) => ({
  positiveInteger: () => {
    const error = (iss: { input?: unknown }) => `must be a positive integer (got ${shownValue(iss.input)})`;
    return z.int({ error }).min(1, { error }).optional();
  },
  msAtLeast: (min: number) => {
    const error = (iss: { input?: unknown }) => `must be a finite number of ms ≥ ${min} (got ${shownValue(iss.input)})`;
    return z.number({ error }).min(min, { error }).optional();
  },
  strictly: <S extends Zod.core.$ZodLooseShape>(shape: S, known: readonly string[], whole: string) =>
    z.strictObject(shape, {
      error: (iss) => (iss.code === 'unrecognized_keys' ? `is not an option (known: ${known.join(', ')})` : whole),
    }),
});
