/**
 * Shapes: the checkers of the data the router reads where it enters (workflow inputs, signals, updates, planner
 * decisions, activity results, the core's public entry points), one declaration per shape (docs/DESIGN.md,
 * "Validation at the edge"). The declarations use the subset of zod 4's API they need (`s.object({ … }).strict()`,
 * `s.number().int().min(0)`, `.optional()`, `.default()`, `.refine()`, `.superRefine()`, `safeParse`), and a
 * failed check reads as zod 4's English message of the same rule (zod `v4/locales/en.js`: `Too small: expected
 * number to be >=1`, `Unrecognized key: "x"`), so the workflow bundle carries no zod (zod stays on the Node side,
 * for the users' tool schemas).
 *
 * A shape keeps no state: every method returns a new shape, so a shape in a module Temporal preloads and
 * deep-freezes still checks. A check reads each field of its input once and returns a new value (objects and
 * arrays are copied; an absent optional field stays absent). Pure and sandbox-safe: no imports but the error base.
 * This file: the base and the modifiers; strings, numbers and the other leaves: recovery/shape-leaves.ts; objects,
 * arrays, records and unions: recovery/shape.ts.
 */
import { RecoveryError } from './recovery-error';

/** Where in the input an issue is: object keys and array indexes, `[]` = the input itself. */
export type Path = (string | number)[];
/** The kind of rule an issue reports (zod 4's issue codes of the same rules). */
export type IssueCode =
  | 'invalid_type'
  | 'invalid_value'
  | 'too_small'
  | 'too_big'
  | 'unrecognized_keys'
  | 'invalid_union'
  | 'custom';
/** One rule a value broke: zod 4's issue fields that callers read (`keys`: the unrecognized keys). */
export interface Issue {
  readonly code: IssueCode;
  readonly path: Path;
  readonly message: string;
  readonly keys?: readonly string[];
}

/** A value that fails its shape, from `parse` (`safeParse` returns it as `error`). `issues`: every broken rule. */
export class ShapeError extends RecoveryError<'invalid_shape'> {
  override readonly name = 'ShapeError';
  static override readonly codes: readonly string[] = ['invalid_shape'];
  readonly issues: readonly Issue[];
  constructor(issues: readonly Issue[]) {
    super('invalid_shape', issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; '));
    this.issues = issues;
  }
}

/** `safeParse`'s answer: the checked copy, or the `ShapeError` with every issue (zod 4's shape). */
export type SafeParseResult<T> =
  | { success: true; data: T; error?: undefined }
  | { success: false; data?: undefined; error: ShapeError };

/** What a refinement may report: a rule its value breaks, at `path` below the value (default: the value). */
export interface RefineContext {
  /** Reports a broken rule: its message, at `path` below the refined value (default: the value itself). */
  addIssue(issue: { code?: 'custom'; path?: Path; message: string }): void;
}
/** A check beyond the shape: reports each rule `value` breaks through `ctx.addIssue`; returns nothing. */
type Refinement<T> = (value: T, ctx: RefineContext) => void;

/** The answer of a check that failed (its issues are in the list it was given). */
export const FAIL: unique symbol = Symbol('shape check failed');
export type Fail = typeof FAIL;

/** zod 4's name of a value's type in `invalid_type` messages (`parsedType`). */
export function typeName(v: unknown): string {
  if (typeof v === 'number') return Number.isNaN(v) ? 'NaN' : 'number';
  if (Array.isArray(v)) return 'array';
  return v === null ? 'null' : typeof v;
}

/** Adds an issue at `path` (copied: checks share one path stack) and answers `FAIL`. */
export function fail(issues: Issue[], path: Path, code: IssueCode, message: string, keys?: string[]): Fail {
  issues.push(keys ? { code, path: [...path], message, keys } : { code, path: [...path], message });
  return FAIL;
}

export function invalidType(issues: Issue[], path: Path, expected: string, v: unknown): Fail {
  return fail(issues, path, 'invalid_type', `Invalid input: expected ${expected}, received ${typeName(v)}`);
}

/** Which sides of an object's type may leave out a field of this shape: `'in'` (a default), both (optional). */
export type Omissible = 'in' | 'out';

/**
 * Output type `O` (what a check returns) and input type `I` (what it accepts), as zod's `z.output`/`z.input`;
 * `Opt`: where an object's field of this shape is optional (as zod 4 decides it: by `.optional()`, `.default()`,
 * `.catch()`, not by whether the type admits `undefined`).
 */
export abstract class Shape<O, I = O, Opt extends Omissible = never> {
  declare readonly _output: O;
  declare readonly _input: I;
  declare readonly _omissible: Opt;
  /** Typed on `never` so that a shape of a narrower output is still a shape of a wider one. */
  protected refinements: readonly Refinement<never>[] = [];

  /** The check itself, before refinements. `path` is a shared stack: push and pop, never keep it. */
  protected abstract read(v: unknown, path: Path, issues: Issue[]): O | Fail;

  /** Checks `v` at `path`, adding what fails to `issues`. Refinements run only on a value that passed. */
  run(v: unknown, path: Path, issues: Issue[]): O | Fail {
    const before = issues.length;
    const out = this.read(v, path, issues);
    if (out === FAIL || this.refinements.length === 0) return out;
    const ctx: RefineContext = {
      addIssue: (i) => void fail(issues, [...path, ...(i.path ?? [])], 'custom', i.message),
    };
    for (const refine of this.refinements as readonly Refinement<O>[]) refine(out, ctx);
    return issues.length > before ? FAIL : out;
  }

  /** Never throws for a bad value (a getter or Proxy that throws while read is not caught, as with zod). */
  safeParse(v: unknown): SafeParseResult<O> {
    const issues: Issue[] = [];
    const out = this.run(v, [], issues);
    return out === FAIL ? { success: false, error: new ShapeError(issues) } : { success: true, data: out };
  }

  /** @throws ShapeError listing every broken rule. */
  parse(v: unknown): O {
    const r = this.safeParse(v);
    if (!r.success) throw r.error;
    return r.data;
  }

  /** `undefined` passes (and an object's field of this shape may be absent). */
  optional(): Shape<O | undefined, I | undefined, Omissible> {
    return new Modified(this, 'optional', undefined);
  }

  /** `undefined` becomes `value` (not checked again). */
  default(value: O): Shape<O, I | undefined, 'in'> {
    return new Modified(this, 'default', value);
  }

  /** Any value that fails becomes `value`. */
  catch(value: O): Shape<O, unknown, 'in' | Opt> {
    return new Modified(this, 'catch', value);
  }

  /** A copy that also requires `ok(value)`; otherwise the issue `rule` (a message, or a message and a path). */
  refine(ok: (value: O) => boolean, rule: string | { message: string; path?: Path }): this {
    const { message, path } = typeof rule === 'string' ? { message: rule, path: undefined } : rule;
    return this.superRefine((v, ctx) => {
      if (!ok(v)) ctx.addIssue(path ? { message, path } : { message });
    });
  }

  /** A copy that also runs `refine` on a value that passed the shape; its `addIssue` calls fail the check. */
  superRefine(refine: Refinement<O>): this {
    return this.with({ refinements: [...this.refinements, refine as Refinement<never>] });
  }

  /** A copy with `patch` applied: shapes are never changed in place. */
  protected with(patch: object): this {
    return Object.assign(Object.create(Object.getPrototypeOf(this) as object) as this, this, patch);
  }
}

type Checker = Pick<Shape<unknown>, 'run'>;

/** `optional` and `default` answer for `undefined` before the inner shape runs; `catch` replaces a failure. */
export class Modified<O, I, Opt extends Omissible> extends Shape<O, I, Opt> {
  constructor(
    readonly inner: Checker,
    readonly kind: 'optional' | 'default' | 'catch',
    readonly value: unknown,
  ) {
    super();
  }
  protected read(v: unknown, path: Path, issues: Issue[]): O | Fail {
    if (this.kind !== 'catch') return (v === undefined ? this.value : this.inner.run(v, path, issues)) as O | Fail;
    const out = this.inner.run(v, path, []);
    return (out === FAIL ? this.value : out) as O;
  }
}
