/**
 * The leaves of shapes (recovery/shape-base.ts says what shapes are): strings, numbers, booleans, literals, enums,
 * `unknown` and JSON values, each failing with zod 4's English message of its rule. Pure and sandbox-safe.
 */
import { fail, invalidType, Shape, typeName, type Fail, type Issue, type IssueCode, type Path } from './shape-base';

type Bound = readonly [limit: number, inclusive: boolean, message: string | undefined];

export class StringShape extends Shape<string> {
  readonly minLength?: Bound;
  readonly maxLength?: Bound;
  readonly trims: boolean = false;
  readonly pattern?: readonly [RegExp, string];

  protected read(v: unknown, path: Path, issues: Issue[]): string | Fail {
    if (typeof v !== 'string') return invalidType(issues, path, 'string', v);
    const s = this.trims ? v.trim() : v;
    const [min, , minMessage] = this.minLength ?? [0];
    if (s.length < min) return fail(issues, path, 'too_small', minMessage ?? sized('small', '>=', min));
    const [max, , maxMessage] = this.maxLength ?? [Infinity];
    if (s.length > max) return fail(issues, path, 'too_big', maxMessage ?? sized('big', '<=', max));
    // `test` on a RegExp without the g or y flag writes no `lastIndex` (ECMAScript RegExpBuiltinExec): frozen-safe.
    if (this.pattern && !this.pattern[0].test(s)) return fail(issues, path, 'custom', this.pattern[1]);
    return s;
  }
  min(n: number, message?: string): StringShape {
    return this.with({ minLength: [n, true, message] });
  }
  max(n: number, message?: string): StringShape {
    return this.with({ maxLength: [n, true, message] });
  }
  trim(): StringShape {
    return this.with({ trims: true });
  }
  /** @throws TypeError when `re` has the g or y flag (its `test` would write `lastIndex`, refused when frozen). */
  regex(re: RegExp, message: string): StringShape {
    if (re.global || re.sticky) throw new TypeError('regex(): a pattern with the g or y flag keeps state');
    return this.with({ pattern: [re, message] });
  }
}

const sized = (way: 'small' | 'big', adj: string, n: number) =>
  `Too ${way}: expected string to have ${adj}${n} characters`;

export class NumberShape extends Shape<number> {
  readonly integer: boolean = false;
  readonly low?: Bound;
  readonly high?: Bound;

  protected read(v: unknown, path: Path, issues: Issue[]): number | Fail {
    if (typeof v !== 'number' || !Number.isFinite(v)) return invalidType(issues, path, 'number', v);
    if (this.integer && !Number.isInteger(v)) return invalidType(issues, path, 'int', v);
    if (this.integer && !Number.isSafeInteger(v)) {
      const [code, message] = v > 0 ? (['too_big', '<'] as const) : (['too_small', '>-'] as const);
      return fail(issues, path, code, `Too ${code.slice(4)}: expected int to be ${message}${Number.MAX_SAFE_INTEGER}`);
    }
    const [min, minIn, minMessage] = this.low ?? [-Infinity, true];
    if (minIn ? v < min : v <= min)
      return fail(issues, path, 'too_small', minMessage ?? this.bound('small', min, minIn));
    const [max, maxIn, maxMessage] = this.high ?? [Infinity, true];
    if (maxIn ? v > max : v >= max) return fail(issues, path, 'too_big', maxMessage ?? this.bound('big', max, maxIn));
    return v;
  }
  private bound(way: 'small' | 'big', n: number, inclusive: boolean): string {
    const adj = (way === 'small' ? '>' : '<') + (inclusive ? '=' : '');
    return `Too ${way}: expected number to be ${adj}${n}`;
  }
  /** A safe integer, as zod 4's `.int()`. */
  int(): NumberShape {
    return this.with({ integer: true });
  }
  min(n: number, message?: string): NumberShape {
    return this.with({ low: [n, true, message] });
  }
  max(n: number, message?: string): NumberShape {
    return this.with({ high: [n, true, message] });
  }
  positive(): NumberShape {
    return this.with({ low: [0, false, undefined] });
  }
  nonnegative(): NumberShape {
    return this.min(0);
  }
}

/** A shape from a plain test: `typeof`-like checks, literals, enums, `unknown`. */
export class TestShape<T> extends Shape<T> {
  constructor(
    private readonly ok: (v: unknown) => boolean,
    private readonly code: IssueCode,
    private readonly message: (v: unknown) => string,
    /** What it accepts as JSON Schema (recovery/shape-json.ts). */
    readonly json: Readonly<Record<string, unknown>>,
  ) {
    super();
  }
  protected read(v: unknown, path: Path, issues: Issue[]): T | Fail {
    return this.ok(v) ? (v as T) : fail(issues, path, this.code, this.message(v));
  }
}

const quoted = (v: unknown) => (typeof v === 'string' ? `"${v}"` : String(v));

export const boolean = () =>
  new TestShape<boolean>(
    (v) => typeof v === 'boolean',
    'invalid_type',
    (v) => expected('boolean', v),
    {
      type: 'boolean',
    },
  );
export const unknown = () =>
  new TestShape<unknown>(
    () => true,
    'custom',
    () => 'Invalid input',
    {},
  );
export const literal = <const T extends string | number | boolean>(value: T) =>
  new TestShape<T>(
    (v) => v === value,
    'invalid_value',
    () => `Invalid input: expected ${quoted(value)}`,
    {
      type: typeof value,
      const: value,
    },
  );
export const enumOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  new TestShape<T[number]>(
    (v) => (values as readonly unknown[]).includes(v),
    'invalid_value',
    () => `Invalid option: expected one of ${values.map(quoted).join('|')}`,
    { type: 'string', enum: values },
  );
const expected = (what: string, v: unknown) => `Invalid input: expected ${what}, received ${typeName(v)}`;

/** A JSON value: `null`, a boolean, a finite number, a string, or arrays and plain-keyed objects of them. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
function isJson(v: unknown): boolean {
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return true;
  if (typeof v === 'number') return Number.isFinite(v);
  if (Array.isArray(v)) return v.every(isJson);
  return typeof v === 'object' && Object.values(v).every(isJson);
}
export const json = () => new TestShape<Json>(isJson, 'invalid_union', () => 'Invalid input', {});
