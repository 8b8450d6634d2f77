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
import { shaped } from '../shape';

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

/** The shape `classify` checks a `CallContext` against (recovery/shape.ts). */
export const callContextSchema = shaped((s) =>
  s.object({
    tool: s.string().min(1),
    callId: s.string().min(1),
    effect: s.enum(['read', 'write']),
    deduplicates: s.boolean(),
    approvalCanLift: s.boolean(),
    nowMs: s.number().nonnegative(),
    diagnosticRef: s.string().min(1),
    dialect: s.enum(dialects() as [Dialect, ...Dialect[]]).optional(),
    inputFields: s.array(s.string().max(200)).max(1_000).optional(),
    alreadyPhrases: s.array(s.string().min(1).max(200)).max(100).optional(),
  }),
);

/**
 * Checks `ctx` and returns the copy the check read (each field and list item once, unknown keys left out), so a
 * getter or a Proxy cannot answer differently after the check.
 * @throws ClassifyError `invalid_context` naming the first bad field, e.g.
 *   `CallContext.nowMs: Too small: expected number to be >=0`.
 */
export function parseCallContext(ctx: unknown): CallContext {
  const r = callContextSchema().safeParse(ctx);
  if (r.success) return r.data as CallContext;
  const issue = r.error.issues[0];
  const where = issue && issue.path.length > 0 ? `.${issue.path.map(String).join('.')}` : '';
  throw new ClassifyError(
    ClassifyErrorCode.INVALID_CONTEXT,
    `CallContext${where}: ${issue?.message ?? 'invalid value'}`,
  );
}
