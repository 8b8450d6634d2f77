/**
 * The ToolFailure contract: what a failed tool call means, as data.
 *
 * Source: docs/DESIGN.md, "The failure record" defines the fields; "Failure classes and the two axes" defines the
 * two axes (transient vs persistent × infrastructural vs semantic). This module is pure: no I/O, no clock, no
 * randomness, so workflow code may import it inside Temporal's sandbox.
 */
import { shaped, type Infer } from './shape';

/** Failure classes. A const object plus a type of the same name, as Temporal's `TimeoutType` is. */
export const FailureClass = {
  /** The arguments fail the input schema or a business precondition; the same call fails again. */
  INVALID_ARGUMENTS: 'invalid_arguments',
  /** An infrastructure fault that time may cure: 429, 502/503/504 before commit, refused connections. */
  TRANSIENT: 'transient',
  /** The credential is missing, expired or revoked (401). */
  AUTHENTICATION: 'authentication',
  /** The caller is authenticated but not allowed (403, policy deny). */
  AUTHORIZATION: 'authorization',
  /** The tool does not exist or is not offered to this caller. */
  CAPABILITY_MISSING: 'capability_missing',
  /** A write may or may not have been applied: the request left the process and no answer came back. */
  OUTCOME_UNKNOWN: 'outcome_unknown',
  /** The call returned (often 200) but its result fails the output schema or an invariant. */
  INVALID_RESULT: 'invalid_result',
  /** The world refused the call's meaning: 409 conflict, 412, 422 by a business rule, 404 of a deleted resource. */
  SEMANTIC_REJECTION: 'semantic_rejection',
  /** Nothing the runtime can do will help: a bug in the tool, an unsupported operation. */
  UNRECOVERABLE: 'unrecoverable',
} as const;
export type FailureClass = (typeof FailureClass)[keyof typeof FailureClass];
export const FAILURE_CLASSES = Object.values(FailureClass) as [FailureClass, ...FailureClass[]];

/** Where in a call's life the failure happened. */
export const Phase = {
  /** Before anything left the process: schema and business checks, capability lookup. Always replay-safe. */
  PREFLIGHT: 'preflight',
  /** While sending, or answered by the server with a status that says the request was not applied. */
  DISPATCH: 'dispatch',
  /** The request may have reached the server and been applied; nobody knows. */
  COMMIT_UNKNOWN: 'commit_unknown',
  /** The call returned, and its result failed validation. */
  POSTCHECK: 'postcheck',
} as const;
export type Phase = (typeof Phase)[keyof typeof Phase];
export const PHASES = Object.values(Phase) as [Phase, ...Phase[]];

/** The first axis (docs/DESIGN.md, "Failure classes and the two axes"): does waiting cure it? */
export type Persistence = 'transient' | 'persistent';
/** The second axis: is it about the call's wire, credentials and runtime, or about its meaning? */
export type Layer = 'infrastructural' | 'semantic';

/**
 * Every class on the two axes (docs/DESIGN.md, "Failure classes and the two axes"), in one place.
 * `invalid_arguments` is semantic: the call's content is wrong, and only a changed call can pass.
 * `outcome_unknown` is transient and infrastructural (the wire failed), but not replay-safe: it routes to reconcile.
 */
export const AXES: Readonly<Record<FailureClass, { persistence: Persistence; layer: Layer }>> = Object.freeze({
  invalid_arguments: { persistence: 'persistent', layer: 'semantic' },
  transient: { persistence: 'transient', layer: 'infrastructural' },
  authentication: { persistence: 'persistent', layer: 'infrastructural' },
  authorization: { persistence: 'persistent', layer: 'infrastructural' },
  capability_missing: { persistence: 'persistent', layer: 'infrastructural' },
  outcome_unknown: { persistence: 'transient', layer: 'infrastructural' },
  invalid_result: { persistence: 'persistent', layer: 'semantic' },
  semantic_rejection: { persistence: 'persistent', layer: 'semantic' },
  unrecoverable: { persistence: 'persistent', layer: 'infrastructural' },
});

/**
 * Finer reasons inside a class. They choose between rows of the route table (e.g. a 403 that approval can lift
 * vs an explicit policy deny) and label telemetry. `unspecified` when nothing finer is known.
 */
export const FailureReason = {
  UNSPECIFIED: 'unspecified',
  SCHEMA: 'schema',
  BUSINESS_RULE: 'business_rule',
  RATE_LIMITED: 'rate_limited',
  UNAVAILABLE: 'unavailable',
  NETWORK: 'network',
  TIMEOUT: 'timeout',
  CIRCUIT_OPEN: 'circuit_open',
  /** The server aborted the transaction (serialization failure, deadlock, write conflict) and rolled it back. */
  ABORTED: 'aborted',
  RETRY_AFTER_TOO_LONG: 'retry_after_too_long',
  CREDENTIAL_EXPIRED: 'credential_expired',
  CREDENTIAL_MISSING: 'credential_missing',
  REFRESH_FAILED: 'refresh_failed',
  APPROVAL_REQUIRED: 'approval_required',
  FORBIDDEN: 'forbidden',
  POLICY_DENIED: 'policy_denied',
  UNKNOWN_TOOL: 'unknown_tool',
  NOT_PERMITTED_TOOL: 'not_permitted_tool',
  CONFLICT: 'conflict',
  PRECONDITION_FAILED: 'precondition_failed',
  NOT_FOUND: 'not_found',
  GONE: 'gone',
  EMPTY_RESULT: 'empty_result',
  SCHEMA_VIOLATION: 'schema_violation',
  INVARIANT_VIOLATION: 'invariant_violation',
  TOOL_BUG: 'tool_bug',
  /**
   * The attempt was cut short before an answer came: the worker shut down, the attempt's deadline passed, the
   * server timed it out (docs/DESIGN.md, "Phases").
   */
  INTERRUPTED: 'interrupted',
  /** Nothing the tool threw or the edge saw is recognised; on a write that may have left, the outcome is unknown. */
  UNRECOGNIZED: 'unrecognized',
  /** The result is larger than a payload may carry (recovery/bounds.ts), or its body than `ctx.http` reads. */
  RESULT_TOO_LARGE: 'result_too_large',
  /** A 3xx not followed (RFC 9110 §15.4): it says where to go, not whether a write was applied. */
  REDIRECTED: 'redirected',
  /** An unknown outcome after the receiver answered a write of the attempt 2xx (e.g. 202): never resent blind. */
  ACCEPTED: 'accepted',
  /** The worker that took the call has no tool of that name (another application's, an older deploy's). */
  NOT_ON_WORKER: 'not_on_worker',
  /**
   * An attempt outside this one's knowledge may have sent the write: an earlier attempt of its activity (an operator's
   * reset or retry), the workflow's earlier attempt, the run a reset replaced, or a run that continued as new.
   */
  EARLIER_ATTEMPT: 'earlier_attempt',
} as const;
export type FailureReason = (typeof FailureReason)[keyof typeof FailureReason];
export const FAILURE_REASONS = Object.values(FailureReason) as [FailureReason, ...FailureReason[]];

/** Longest `received` excerpt kept in a field issue, in characters. */
export const MAX_RECEIVED_CHARS = 80;
/** Longest `serverSaid` (a server's words, quoted as data: docs/DESIGN.md, "Whose words reach the model"), in characters. */
export const MAX_SERVER_SAID_CHARS = 200;
/** A provider error code a ToolFailure may carry: lower case, starts with a letter, at most 64 characters. */
export const ERROR_CODE_PATTERN = /^[a-z][a-z0-9_.-]{0,63}$/;

/**
 * The `ApplicationFailure` type for a provider error code: PascalCase + `Error` (`insufficient_funds` →
 * `InsufficientFundsError`, `account.not-found` → `AccountNotFoundError`), the convention of Temporal's samples
 * (temporalio/money-transfer-project-template-ts: `nonRetryableErrorTypes: ['InvalidAccountError',
 * 'InsufficientFundsError']`; docs/DESIGN.md, "The failure record").
 * @returns undefined when `code` does not match `ERROR_CODE_PATTERN`.
 */
export function errorTypeFor(code: string): string | undefined {
  if (!ERROR_CODE_PATTERN.test(code)) return undefined;
  const pascal = code
    .split(/[_.-]+/)
    .filter((w) => w !== '')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('');
  return pascal.endsWith('Error') ? pascal : `${pascal}Error`;
}

/**
 * The fingerprint of an error no fact spoke for (recovery/classify/rules.ts `fingerprintOf`): `fp_` + 12 hex digits of
 * a hash of its class name, code, status and message shape — the same for every occurrence of that kind of error,
 * naming no value of one. Operators route it with `classify.rules` in temporal.config.json.
 */
export const FINGERPRINT_PATTERN = /^fp_[0-9a-f]{12}$/;

/** Longest `publicMessage`, in characters. */
export const MAX_PUBLIC_MESSAGE_CHARS = 500;

/**
 * One field-level problem with a tool call's arguments: the field-level feedback of a repair (docs/DESIGN.md,
 * "Routes").
 * `path` is the JSON path as segments (`[]` = the whole argument object); `received` is truncated and redacted.
 * `expected` and `suggestion` are the router's (or the tool schema's) words; what a server said of the field is
 * `serverSaid`, quoted data.
 */
export const fieldIssueSchema = shaped((s) =>
  s
    .object({
      path: s.array(s.union([s.string(), s.number()])),
      expected: s.string().min(1),
      received: s.string().max(MAX_RECEIVED_CHARS),
      suggestion: s.string().min(1),
      serverSaid: s.string().min(1).max(MAX_SERVER_SAID_CHARS).optional(),
    })
    .strict(),
);
/** One argument the model must fix: its path, what is wrong, and a suggestion when there is one. */
export type FieldIssue = Infer<ReturnType<typeof fieldIssueSchema>>;

/**
 * A classified tool failure.
 * - `retryable`: the same call may run again after time passes (transient and replay-safe). Never set by the model.
 * - `replaySafe`: running the same call again cannot apply a side effect twice (a read; a write rejected before
 *   commit; a write whose receiver deduplicates by idempotency key).
 * - `retryAfterMs`: the server's floor on the next attempt, in milliseconds (RFC 9110 §10.2.3 `Retry-After`).
 * - `publicMessage`: all the model may see. Redacted; no stack traces, paths, hosts, tokens or headers.
 * - `diagnosticRef`: an opaque key into the operator-only log. Never resolved by model-facing code.
 * - `status`: the HTTP status when there was one. `issues`: field-level feedback for `invalid_arguments`.
 * - `code`: the provider's structured error code (a body's `code`/`error`, lower case, e.g. `insufficient_funds`).
 *   The activity edge names the `ApplicationFailure` after it (`InsufficientFundsError`, `errorTypeFor`): classified
 *   from the structured code, not the JS class name, the business type stays visible in Temporal (docs/DESIGN.md,
 *   "The failure record").
 * - `fingerprint`: for an error no fact spoke for, its stable fingerprint (`FINGERPRINT_PATTERN`).
 * - `serverSaid`: the server's own words about the failure (a body's `code: message`, an MCP result's text), quoted
 *   as data: redacted, one line, without control, bidi or zero-width characters, at most `MAX_SERVER_SAID_CHARS`.
 *   Never part of `publicMessage`, which is the router's words only (docs/DESIGN.md, "Whose words reach the model").
 */
export const toolFailureSchema = shaped((s) =>
  s
    .object({
      tool: s.string().min(1),
      callId: s.string().min(1),
      class: s.enum(FAILURE_CLASSES),
      reason: s.enum(FAILURE_REASONS),
      phase: s.enum(PHASES),
      retryable: s.boolean(),
      replaySafe: s.boolean(),
      retryAfterMs: s.number().int().nonnegative().optional(),
      publicMessage: s.string().min(1).max(MAX_PUBLIC_MESSAGE_CHARS),
      diagnosticRef: s.string().min(1),
      status: s.number().int().min(100).max(599).optional(),
      issues: s.array(fieldIssueSchema()).optional(),
      code: s
        .string()
        .regex(ERROR_CODE_PATTERN, 'a provider error code: lower case, a letter first, at most 64 characters')
        .optional(),
      fingerprint: s.string().regex(FINGERPRINT_PATTERN, 'a fingerprint: fp_ and 12 lower-case hex digits').optional(),
      serverSaid: s.string().min(1).max(MAX_SERVER_SAID_CHARS).optional(),
    })
    .strict()
    .superRefine((f, ctx) => {
      if (f.retryable && !f.replaySafe) {
        ctx.addIssue({ path: ['retryable'], message: 'a failure that is not replaySafe cannot be retryable' });
      }
      if (f.retryable && f.class !== 'transient') {
        ctx.addIssue({ path: ['retryable'], message: `only transient failures are retryable, not ${f.class}` });
      }
      if (f.class === 'outcome_unknown' && f.phase !== 'commit_unknown') {
        ctx.addIssue({ path: ['phase'], message: 'outcome_unknown failures are in phase commit_unknown' });
      }
    }),
);
/**
 * The public failure record of one call (docs/DESIGN.md, "The failure record"): class, reason, phase, whether
 * it is retryable, the public message, field issues, observed state, `retryAfterMs` (ms). Redacted: no stack,
 * host, token or header.
 */
export type ToolFailure = Infer<ReturnType<typeof toolFailureSchema>>;

/**
 * Facts the activity edge attaches beside a ToolFailure (ApplicationFailure `details[1]`). None is secret.
 * - `credentialVersion`: the version to replay with after the broker refreshed the credential.
 * - `attempt`: the activity attempt (1-based) that produced the failure.
 * - `observedState`: for a semantic rejection or invalid arguments, the model-safe copy of what the service reported
 *   (recovery/observed-state.ts), e.g. the booking that holds the slot.
 * - `postcondition`: a refused write whose answer may mean the state already holds, or a version conflict
 *   (recovery/postcondition.ts): read the tool's postcondition before routing it.
 * - `argsPreview`: for a failure a person's approval may lift, the arguments as the approval request shows them,
 *   redacted and bounded on the Node side (activities/preview-arguments.ts).
 * Keys it does not name are dropped (an object shape's default).
 */
export const failureMetaSchema = shaped((s) =>
  s.object({
    credentialVersion: s.number().int().min(0).optional(),
    attempt: s.number().int().min(1).optional(),
    observedState: s.json().optional(),
    postcondition: s.enum(['already', 'version_conflict']).optional(),
    argsPreview: s.json().optional(),
  }),
);
export type FailureMeta = Infer<ReturnType<typeof failureMetaSchema>>;
