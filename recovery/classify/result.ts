/**
 * Results that came back but are not usable facts → `invalid_result` (phase `postcheck`).
 *
 * Source: docs/DESIGN.md, "Routes" (Reject: a failed output check is a failed observation, never an empty string
 * handed on as success; a 200 with an empty body where `{"docs":[...]}` is expected is an explicit error, while a
 * genuinely empty list `{"docs":[]}` is a success labelled empty).
 * Reasons: `empty_result` (nothing came back), `schema_violation` (fails the output schema),
 * `invariant_violation` (schema-valid, but a business invariant is broken).
 * `replaySafe` is true for a read or a deduplicated write; a write that returned a bad result was applied,
 * so replaying it is not safe. Never retryable (not transient).
 * Pure: no I/O.
 */
import type { z } from 'zod';
import { FailureClass, FailureReason, MAX_SERVER_SAID_CHARS } from '../failure';
import type { ToolFailure } from '../failure';
import { buildFailure } from './build';
import { parseCallContext, type CallContext } from './context';
import { parseBody } from './body';
import { asArray, hasOwn, isObjectLike, ownKeys, readProp, readString } from './safe';
import { pathLabel, plainPath, publicText } from './text';
import { returnedDraft } from './sent';
import { isZodError } from './zod';

/** What went wrong with a result. Give `error` (an output ZodError) or `invariant` (a message); `received` is the result. */
export interface InvalidResultInput {
  /** The ZodError from validating the result against the tool's output schema. */
  error?: unknown;
  /** A broken business invariant, in words (from trusted code; redacted before the model sees it). */
  invariant?: string;
  /**
   * The result as it came back (body or value). Given and blank (`undefined`, `null`, `""`, whitespace) →
   * `empty_result`. Leave the key out when the result is not at hand.
   */
  received?: unknown;
  /** The HTTP status of the answer, when there was one (e.g. 200). */
  status?: number;
}

/** True for nothing at all: `undefined`, `null`, a blank string, or a zero-length binary body. */
export function isBlank(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === 'string') return value.trim() === '';
  try {
    if (value instanceof Uint8Array || value instanceof ArrayBuffer) return value.byteLength === 0;
  } catch {
    // a Proxy whose getPrototypeOf throws: not blank
  }
  return false;
}

/**
 * True for a valid result that holds no items: `[]`, `{}`, or an object whose array-valued fields are all empty
 * (`{"docs":[]}`, `{"docs":[],"total":0}`). Used to label a success as empty, never to fail it.
 */
export function isEmptyValue(value: unknown): boolean {
  const arr = asArray(value);
  if (arr) return arr.length === 0;
  if (!isObjectLike(value)) return false;
  const keys = ownKeys(value);
  if (keys.length === 0) return true;
  const arrays = keys.map((k) => asArray(readProp(value, k))).filter((a) => a !== undefined);
  return arrays.length > 0 && arrays.every((a) => a!.length === 0);
}

/**
 * The output schema's findings in the router's words: each path cut before a segment the result's own keys made
 * (`plainPath`), and zod's message, except for unknown keys, whose message quotes the result's keys.
 */
function schemaSummary(error: unknown): string {
  const parts: string[] = [];
  for (const issue of (asArray(readProp(error, 'issues')) ?? []).slice(0, 5)) {
    const all = asArray(readProp(issue, 'path')) ?? [];
    const path = plainPath(all.filter((p): p is string | number => typeof p === 'string' || typeof p === 'number'));
    const said = readString(issue, 'code') === 'unrecognized_keys' ? 'unknown keys' : readString(issue, 'message');
    parts.push(`${path.length === 0 ? '(result)' : pathLabel(path)}: ${said ?? 'invalid'}`);
  }
  return publicText(parts.join('; '), MAX_SERVER_SAID_CHARS);
}

/** ` (<summary>)` of an output ZodError's findings, or nothing. */
function schemaPart(error: unknown): string {
  const summary = isZodError(error) ? schemaSummary(error) : '';
  return summary ? ` (${summary})` : '';
}

/**
 * Classifies a result that came back but must not be used.
 * - `received` given and blank → `empty_result` (checked first: an empty body is the finding, whatever else failed);
 * - else `invariant` given → `invariant_violation`, its message redacted into `publicMessage`;
 * - else → `schema_violation`, naming up to 5 failing result paths.
 *
 * @param input `{ error?, invariant?, received?, status? }` (see `InvalidResultInput`).
 * @param ctx the call.
 * @returns a frozen, valid `ToolFailure` of class `invalid_result`, phase `postcheck`.
 * @throws ClassifyError `invalid_context` for a bad `ctx`.
 */
export function classifyInvalidResult(input: InvalidResultInput, ctx: CallContext): ToolFailure {
  const c = parseCallContext(ctx);
  const invariant = readString(input, 'invariant');
  const error = readProp(input, 'error');
  const received = readProp(input, 'received');
  const statusRaw = readProp(input, 'status');
  const status = typeof statusRaw === 'number' ? statusRaw : undefined;
  const [reason, head] =
    hasOwn(input, 'received') && isBlank(received)
      ? [
          FailureReason.EMPTY_RESULT,
          `${c.tool}: the call returned an empty result${status === undefined ? '' : ` (HTTP ${status})`} where data was expected; this is not a success`,
        ]
      : invariant !== undefined
        ? [
            FailureReason.INVARIANT_VIOLATION,
            `${c.tool}: the result breaks an invariant: ${publicText(invariant, MAX_SERVER_SAID_CHARS)}. It is not a usable fact`,
          ]
        : [
            FailureReason.SCHEMA_VIOLATION,
            `${c.tool}: the result does not match the tool's output schema${schemaPart(error)}. It is not a usable fact`,
          ];
  const draft = returnedDraft({ class: FailureClass.INVALID_RESULT, reason, head }, c);
  return buildFailure(c, status === undefined ? draft : { ...draft, status });
}

/** The outcome of `validateResult`: the parsed value (labelled `empty` when it holds no items), or the failure. */
export type ResultCheck<T> =
  | { readonly ok: true; readonly value: T; readonly empty: boolean }
  | { readonly ok: false; readonly failure: ToolFailure };

/**
 * Validates a result against the tool's output schema. A string body that fails is tried again parsed as JSON
 * (adapters may hand over the text). A valid result holding no items succeeds with `empty: true` (docs/DESIGN.md,
 * "Routes": a genuinely empty list is a success labelled empty); a blank body that the schema rejects is
 * `empty_result`.
 *
 * @param schema the tool's output schema (zod 4).
 * @param body the result as it came back.
 * @param ctx the call.
 * @param status the HTTP status of the answer, when there was one.
 * @returns `{ ok: true, value, empty }` or `{ ok: false, failure }` (frozen).
 * @throws ClassifyError `invalid_context` for a bad `ctx`.
 */
export function validateResult<S extends z.ZodType>(
  schema: S,
  body: unknown,
  ctx: CallContext,
  status?: number,
): ResultCheck<z.output<S>> {
  parseCallContext(ctx);
  let parsed = schema.safeParse(body);
  if (!parsed.success && typeof body === 'string' && !isBlank(body)) {
    const json = parseBody(body);
    if (json !== body) {
      const again = schema.safeParse(json);
      if (again.success) parsed = again;
    }
  }
  if (parsed.success)
    return Object.freeze({
      ok: true as const,
      value: parsed.data,
      empty: isBlank(parsed.data) || isEmptyValue(parsed.data),
    });
  return Object.freeze({
    ok: false as const,
    failure: classifyInvalidResult(
      { error: parsed.error, received: body, ...(status === undefined ? {} : { status }) },
      ctx,
    ),
  });
}
