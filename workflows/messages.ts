/**
 * The inputs of the plugin's signal and update handlers, parsed before a handler reads a field of them. Every
 * handler is total: it never calls `String()` or a template string on an untrusted value (a payload such as
 * `{"toString":1}` makes both throw), so no input can fail a workflow task.
 * - A signal whose input fails its schema is ignored with a log line naming the field (`why`).
 * - An update's validator rejects it, so it is never accepted and never written to history.
 *
 * Bounds, in characters of each string (`MESSAGE_BOUNDS`); objects are strict, so no unknown key (and no
 * oversized one) is accepted. Temporal's own limit is 2 MB per payload (Temporal docs, "Temporal Platform limits"):
 * nothing a handler accepts comes near it, and nothing over a bound is copied into an activity input.
 *
 * The shapes (recovery/shape.ts) are built on first use, not when the module loads (Temporal evaluates a workflow
 * bundle's modules for every run unless they are preloaded). Sandbox-safe.
 */
import { MAX_BATCH_CALLS, MAX_USER_MESSAGE_CHARS } from './definitions';
import { s as shapes, shaped, type SafeParseResult } from '../recovery/shape';

/** Longest accepted string per field, in characters. */
export const MESSAGE_BOUNDS = Object.freeze({
  callId: 128,
  by: 200,
  reason: 2_000,
  resultRef: 512,
  operationId: 2_048,
  userMessage: MAX_USER_MESSAGE_CHARS,
});

/** sha256 hex: the `argsDigest` of a call (recovery/canonical.ts `argsHash`) and the HMAC of a signed approval. */
const HEX64 = /^[0-9a-f]{64}$/;

const text = (max: number) => shapes.string().trim().min(1).max(max);
const hex64 = (message: string) => shapes.string().regex(HEX64, message);

export const approvalDecisionSchema = shaped((s) =>
  s
    .object({
      callId: text(MESSAGE_BOUNDS.callId),
      argsDigest: hex64('must be the 64-character argsDigest that pendingApprovals shows'),
      approved: s.boolean(),
      by: text(MESSAGE_BOUNDS.by),
      reason: s.string().max(MESSAGE_BOUNDS.reason).optional(),
      signature: hex64('must be a 64-character HMAC-SHA256 hex').optional(),
    })
    .strict(),
);

export const batchDecisionSchema = shaped((s) =>
  s
    .object({
      calls: s
        .array(
          s
            .object({
              callId: text(MESSAGE_BOUNDS.callId),
              argsDigest: hex64('must be the 64-character argsDigest that pendingApprovals shows'),
              signature: hex64('must be a 64-character HMAC-SHA256 hex').optional(),
            })
            .strict(),
        )
        .min(1)
        .max(MAX_BATCH_CALLS)
        .refine((calls) => new Set(calls.map((c) => c.callId)).size === calls.length, 'names a call twice'),
      approved: s.boolean(),
      by: text(MESSAGE_BOUNDS.by),
      reason: s.string().max(MESSAGE_BOUNDS.reason).optional(),
    })
    .strict(),
);

export const revokeApprovalSchema = shaped((s) =>
  s
    .object({
      callId: text(MESSAGE_BOUNDS.callId),
      by: text(MESSAGE_BOUNDS.by),
      reason: s.string().max(MESSAGE_BOUNDS.reason).optional(),
    })
    .strict(),
);

export const reviewDecisionSchema = shaped((s) =>
  s
    .object({
      operationId: text(MESSAGE_BOUNDS.operationId),
      decision: s.enum(['mark_applied', 'replay', 'abandon']),
      by: text(MESSAGE_BOUNDS.by),
      reason: text(MESSAGE_BOUNDS.reason),
      resultRef: text(MESSAGE_BOUNDS.resultRef).optional(),
      confirmRisk: s.boolean().optional(),
    })
    .strict()
    .refine((d) => d.decision !== 'mark_applied' || d.resultRef !== undefined, {
      path: ['resultRef'],
      message: 'mark_applied needs a resultRef',
    }),
);

export const userMessageSchema = shaped((s) =>
  s
    .object({
      text: text(MESSAGE_BOUNDS.userMessage),
      // Only for the log: a `by` that is not a short string is dropped, the message kept.
      by: s.string().max(MESSAGE_BOUNDS.by).optional().catch(undefined),
    })
    .strict(),
);

/** A parsed handler input, or why it was refused (field and rule only: never the value). */
export type Parsed<T> = { ok: true; value: T } | { ok: false; why: string };

/** Parses `raw` with `schema`; never throws, whatever `raw` is. */
export function parseMessage<T>(
  schema: { safeParse(v: unknown): SafeParseResult<T> },
  raw: unknown,
  what: string,
): Parsed<T> {
  const result = schema.safeParse(raw);
  if (result.success) return { ok: true, value: result.data };
  const issue = result.error.issues[0];
  const path = issue?.path.join('.') || '(input)';
  return { ok: false, why: `${what} ${path}: ${issue?.message ?? 'invalid'}` };
}
