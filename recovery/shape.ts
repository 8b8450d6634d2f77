/**
 * Shapes (recovery/shape-base.ts says what they are and why): objects, arrays, records and unions, and `s`, the
 * namespace the declarations use (`s.object({ tool: s.string().min(1) }).strict()`), with zod 4's names and
 * messages. `Infer<typeof shape>` is what a check returns (zod's `z.output`), `Input<typeof shape>` what it
 * accepts (`z.input`). Pure and sandbox-safe.
 */
import { fail, FAIL, invalidType, Shape, type Fail, type Issue, type Omissible, type Path } from './shape-base';
import { boolean, enumOf, json, literal, NumberShape, StringShape, unknown } from './shape-leaves';

export { FAIL, Shape, ShapeError } from './shape-base';
export type { Issue, Path, RefineContext, SafeParseResult } from './shape-base';
export type { Json } from './shape-leaves';

/** What a shape's check returns. */
export type Infer<S> = S extends Shape<infer O, unknown, Omissible> ? O : never;
/** What a shape's check accepts (a field with a default may be absent). */
export type Input<S> = S extends Shape<unknown, infer I, Omissible> ? I : never;

/** Any shape, whatever it returns and accepts. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any shape, whatever it returns and accepts
type AnyShape = Shape<any, any, Omissible>;
/** An object shape's fields: a shape per key. */
export type Fields = Readonly<Record<string, AnyShape>>;
/** The type a shape `S` gives (`W` = 'out') or accepts (`W` = 'in'). */
type Side<S, W> = W extends 'out' ? Infer<S> : Input<S>;
/** The keys of `F` an object may leave out on side `W` (zod 4's `optin`/`optout`). */
type Loose<F, W> = {
  [K in keyof F]: F[K] extends { _omissible: infer P } ? (W extends P ? K : never) : never;
}[keyof F];
/** `T` with its intersections flattened into one object type (for readable hovers). */
type Flat<T> = { [K in keyof T]: T[K] } & {};
/** The object type fields `F` give (`W` = 'out') or accept ('in'), the omissible keys optional. */
type ObjectOf<F, W extends 'in' | 'out'> = Flat<
  { [K in Exclude<keyof F, Loose<F, W>>]: Side<F[K], W> } & { [K in Loose<F, W>]?: Side<F[K], W> }
>;
/** How an object treats keys its shape does not name: refused, dropped (zod's default) or kept. */
type Unknown = 'strict' | 'strip' | 'passthrough';
/** The keys an object keeps beyond its fields: any, when it passes unknown keys through. */
type Extra<M> = M extends 'passthrough' ? { [key: string]: unknown } : unknown;
/** Fields `F`, each optional (`.partial()`): an absent field stays absent. */
type Partial<F extends Fields> = {
  [K in keyof F]: Shape<Infer<F[K]> | undefined, Input<F[K]> | undefined, Omissible>;
};

/** Sets `key` as an own data property, so a key such as `__proto__` is a key like any other. */
function put(out: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export class ObjectShape<F extends Fields, M extends Unknown = 'strip'> extends Shape<
  ObjectOf<F, 'out'> & Extra<M>,
  ObjectOf<F, 'in'> & Extra<M>
> {
  constructor(
    readonly shape: F,
    readonly keys: M,
  ) {
    super();
  }
  protected read(v: unknown, path: Path, issues: Issue[]): (ObjectOf<F, 'out'> & Extra<M>) | Fail {
    if (!isObject(v)) return invalidType(issues, path, 'object', v);
    const out: Record<string, unknown> = {};
    let failed = false;
    for (const key of Object.keys(this.shape)) {
      path.push(key);
      const field = this.shape[key]!.run(v[key], path, issues);
      path.pop();
      if (field === FAIL) failed = true;
      else if (field !== undefined || key in v) put(out, key, field);
    }
    if (this.keys !== 'strip') {
      const extra = Object.keys(v).filter((k) => !Object.hasOwn(this.shape, k));
      if (this.keys === 'passthrough') for (const k of extra) put(out, k, v[k]);
      else if (extra.length > 0) {
        const message = `Unrecognized key${extra.length > 1 ? 's' : ''}: ${extra.map((k) => `"${k}"`).join(', ')}`;
        failed = fail(issues, path, 'unrecognized_keys', message, extra) === FAIL;
      }
    }
    return failed ? FAIL : (out as ObjectOf<F, 'out'> & Extra<M>);
  }
  /** Refuses keys the shape does not name. */
  strict(): ObjectShape<F, 'strict'> {
    return new ObjectShape(this.shape, 'strict');
  }
  /** Keeps keys the shape does not name, unchecked. */
  passthrough(): ObjectShape<F, 'passthrough'> {
    return new ObjectShape(this.shape, 'passthrough');
  }
  /** Every field optional; a field's default does not apply (an absent field stays absent). Refinements dropped. */
  partial(): ObjectShape<Partial<F>, M> {
    const fields = Object.fromEntries(Object.entries(this.shape).map(([k, f]) => [k, f.optional()]));
    return new ObjectShape(fields as Partial<F>, this.keys);
  }
}

export class ArrayShape<S extends AnyShape> extends Shape<Infer<S>[], Input<S>[]> {
  readonly fewest: number = 0;
  readonly most: number = Infinity;
  constructor(readonly item: S) {
    super();
  }
  protected read(v: unknown, path: Path, issues: Issue[]): Infer<S>[] | Fail {
    if (!Array.isArray(v)) return invalidType(issues, path, 'array', v);
    const out: Infer<S>[] = [];
    let failed = false;
    const length = v.length; // read once: a Proxy's length may change between reads
    for (let i = 0; i < length; i++) {
      path.push(i);
      const item = this.item.run(v[i], path, issues);
      path.pop();
      if (item === FAIL) failed = true;
      else out.push(item);
    }
    if (length < this.fewest) {
      return fail(issues, path, 'too_small', `Too small: expected array to have >=${this.fewest} items`);
    }
    if (length > this.most)
      return fail(issues, path, 'too_big', `Too big: expected array to have <=${this.most} items`);
    return failed ? FAIL : out;
  }
  min(n: number): ArrayShape<S> {
    return this.with({ fewest: n });
  }
  max(n: number): ArrayShape<S> {
    return this.with({ most: n });
  }
}

/** An object whose every own key passes `key` and every value `value` (zod's `z.record(z.string(), value)`). */
export class RecordShape<S extends AnyShape> extends Shape<Record<string, Infer<S>>, Record<string, Input<S>>> {
  constructor(
    readonly key: Shape<string>,
    readonly value: S,
  ) {
    super();
  }
  protected read(v: unknown, path: Path, issues: Issue[]): Record<string, Infer<S>> | Fail {
    if (!isObject(v)) return invalidType(issues, path, 'record', v);
    const out: Record<string, Infer<S>> = {};
    let failed = false;
    for (const k of Object.keys(v)) {
      path.push(k);
      const key = this.key.run(k, path, issues);
      const value = this.value.run(v[k], path, issues);
      path.pop();
      if (key === FAIL || value === FAIL) failed = true;
      else put(out, key, value);
    }
    return failed ? FAIL : out;
  }
}

/** The first option that accepts the value; none: `invalid_union` ("Invalid input") at the value. */
export class UnionShape<S extends readonly AnyShape[]> extends Shape<Infer<S[number]>, Input<S[number]>> {
  constructor(readonly options: S) {
    super();
  }
  protected read(v: unknown, path: Path, issues: Issue[]): Infer<S[number]> | Fail {
    for (const option of this.options) {
      const out: unknown = option.run(v, path, []);
      if (out !== FAIL) return out as Infer<S[number]>;
    }
    return fail(issues, path, 'invalid_union', 'Invalid input');
  }
}

/** An object shape whose field `K` tells the options of a discriminated union apart. */
type Tagged<K extends string> = ObjectShape<{ [key in K]: Shape<string | number | boolean> } & Fields, Unknown>;

/** The option whose `key` field is the value's; none: `invalid_union` at `key`, as zod 4 reports it. */
export class DiscriminatedShape<K extends string, S extends readonly Tagged<K>[]> extends Shape<
  Infer<S[number]>,
  Input<S[number]>
> {
  constructor(
    readonly key: K,
    readonly options: S,
  ) {
    super();
  }
  protected read(v: unknown, path: Path, issues: Issue[]): Infer<S[number]> | Fail {
    if (!isObject(v)) return invalidType(issues, path, 'object', v);
    const tag = v[this.key];
    const option = this.options.find((o) => o.shape[this.key]!.run(tag, path, []) !== FAIL);
    if (option) return option.run(v, path, issues) as Infer<S[number]> | Fail;
    path.push(this.key);
    fail(issues, path, 'invalid_union', 'Invalid input');
    path.pop();
    return FAIL;
  }
}

/** The shape builders, with zod's names: `s.object`, `s.string`, `s.enum`, … */
export const s = Object.freeze({
  string: () => new StringShape(),
  number: () => new NumberShape(),
  boolean,
  unknown,
  literal,
  enum: enumOf,
  json,
  object: <F extends Fields>(fields: F) => new ObjectShape(fields, 'strip'),
  array: <S extends AnyShape>(item: S) => new ArrayShape(item),
  record: <S extends AnyShape>(key: Shape<string>, value: S) => new RecordShape(key, value),
  union: <const S extends readonly AnyShape[]>(options: S) => new UnionShape(options),
  discriminatedUnion: <K extends string, const S extends readonly Tagged<K>[]>(key: K, options: S) =>
    new DiscriminatedShape(key, options),
});
export type ShapeBuilders = typeof s;

/**
 * A shape built on first use and then kept: `shaped((s) => s.object({ … }))`. Building is cheap, but a workflow
 * module Temporal evaluates for a run that never checks this shape then pays nothing for it.
 */
export function shaped<T>(build: (builders: ShapeBuilders) => T): () => T {
  let built: { value: T } | undefined;
  return () => (built ??= { value: build(s) }).value;
}
