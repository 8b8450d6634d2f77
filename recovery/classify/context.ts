/**
 * What a classifier is given: the facts of the call (`CallContext`) and the raw outcome (`RawOutcome`).
 *
 * Source: docs/DESIGN.md, "Failure classes and the two axes" (the classifier needs the raw facts): wrappers break
 * routing by dropping headers, turning a 404 into `""` and losing the error type. So adapters hand over an envelope
 * with the status, headers, body or the thrown error itself, and whether the request was sent; never a flattened
 * string.
 * Pure: no I/O.
 */
import { dialects, type Dialect } from './protocols';
import { ClassifyError, ClassifyErrorCode } from './errors';
import type { HeadersInput } from './headers';
import { lazy } from '../lazy';
import { isName, isPlainObject } from '../plain-object';

export type { HeadersInput, HeadersLike, HeaderValue } from './headers';

/** The facts of one tool call that decide how its failure is classified. */
export interface CallContext {
  tool: string;
  callId: string;
  effect: 'read' | 'write';
  /** the receiver deduplicates by the idempotency key this call carries (replaying the same key is harmless) */
  deduplicates: boolean;
  /** the tool declares that a 403 can be lifted by a human approval */
  approvalCanLift: boolean;
  /** wall-clock now in ms since epoch, for HTTP-date Retry-After */
  nowMs: number;
  diagnosticRef: string;
  /**
   * The protocol or client library whose errors the tool throws (`defineTool({ errors })`), for shapes too loose to
   * claim by themselves (recovery/classify/protocols). Absent: detection by the error's facts only.
   */
  dialect?: Dialect;
  /** The top-level fields of the tool's input schema: a 400/422 message that names one is about it (named-fields.ts). */
  inputFields?: readonly string[];
  /** The tool's own phrasings of "the state already holds" (recovery/postcondition.ts). */
  alreadyPhrases?: readonly string[];
}

/** The envelope a tool adapter hands the router. */
export type RawOutcome =
  | { kind: 'http'; status: number; headers: HeadersInput; body?: unknown }
  | {
      kind: 'thrown';
      error: unknown;
      /** set by the adapter when it knows; otherwise inferred from the error */
      requestSent?: boolean;
    };

/** The schema `classify` checks a `CallContext` against. */
export const callContextSchema = lazy((z) =>
  z.object({
    tool: z.string().min(1),
    callId: z.string().min(1),
    effect: z.enum(['read', 'write']),
    deduplicates: z.boolean(),
    approvalCanLift: z.boolean(),
    nowMs: z.number().nonnegative(),
    diagnosticRef: z.string().min(1),
    dialect: z.enum(dialects() as [Dialect, ...Dialect[]]).optional(),
    inputFields: z.array(z.string().max(200)).max(1_000).optional(),
    alreadyPhrases: z.array(z.string().min(1).max(200)).max(100).optional(),
  }),
);

/**
 * Checks `ctx` and returns it: a plain context as a copy of what was read from it (`plainContext`), any other valid
 * one as it is.
 * @throws ClassifyError `invalid_context` naming the first bad field, e.g.
 *   `CallContext.nowMs: Too small: expected number to be >=0`.
 */
export function parseCallContext(ctx: unknown): CallContext {
  const plain = plainContext(ctx);
  if (plain !== undefined) return plain;
  const r = callContextSchema().safeParse(ctx);
  if (r.success) return ctx as CallContext;
  const issue = r.error.issues[0];
  const where = issue && issue.path.length > 0 ? `.${issue.path.map(String).join('.')}` : '';
  throw new ClassifyError(
    ClassifyErrorCode.INVALID_CONTEXT,
    `CallContext${where}: ${issue?.message ?? 'invalid value'}`,
  );
}

let dialectSet: ReadonlySet<unknown> | undefined;

/**
 * A copy of the list `v` (each index read once) when it has at most `max` strings of `min`..`max` characters each,
 * else undefined.
 */
function textList(v: unknown, maxItems: number, min: number, max: number): string[] | undefined {
  if (!Array.isArray(v)) return undefined;
  const n = v.length;
  if (n > maxItems) return undefined;
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const t: unknown = v[i];
    if (typeof t !== 'string' || t.length < min || t.length > max) return undefined;
    out.push(t);
  }
  return out;
}

/**
 * `ctx` as a fresh `CallContext` of the values read from it — each field and list item once — when they pass
 * `callContextSchema()` for plain reasons, else undefined and the schema decides (never looser than the schema;
 * test/unit/call-context.property.test.ts checks it). Classification then
 * reads the copy, so a getter or a Proxy cannot answer differently after the check. Unknown keys are left out, as
 * the schema strips them.
 */
function plainContext(ctx: unknown): CallContext | undefined {
  try {
    if (!isPlainObject(ctx)) return undefined;
    const { tool, callId, effect, deduplicates, approvalCanLift, nowMs, diagnosticRef } = ctx;
    if (!isName(tool) || !isName(callId) || !isName(diagnosticRef) || (effect !== 'read' && effect !== 'write')) {
      return undefined;
    }
    if (typeof deduplicates !== 'boolean' || typeof approvalCanLift !== 'boolean') return undefined;
    if (typeof nowMs !== 'number' || !Number.isFinite(nowMs) || nowMs < 0) return undefined;
    const out: CallContext = { tool, callId, effect, deduplicates, approvalCanLift, nowMs, diagnosticRef };
    const { dialect, inputFields, alreadyPhrases } = ctx;
    if (dialect !== undefined) {
      if (!(dialectSet ??= new Set(dialects())).has(dialect)) return undefined;
      out.dialect = dialect as Dialect;
    }
    if (inputFields !== undefined) {
      const fields = textList(inputFields, 1_000, 0, 200);
      if (fields === undefined) return undefined;
      out.inputFields = fields;
    }
    if (alreadyPhrases !== undefined) {
      const phrases = textList(alreadyPhrases, 100, 1, 200);
      if (phrases === undefined) return undefined;
      out.alreadyPhrases = phrases;
    }
    return out;
  } catch {
    return undefined;
  }
}
