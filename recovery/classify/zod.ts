/**
 * Zod validation errors → `invalid_arguments` with one field issue per problem.
 *
 * Source: docs/DESIGN.md, "Routes" (Repair). One generic message ("Invalid JSON input for tool") leaves the model
 * looping, and a validation error turned into a "finish" is a fake success; so the model gets per-field issues —
 * path, expected (in words), received (truncated to `MAX_RECEIVED_CHARS`, redacted; `missing` when absent) and a
 * concrete suggestion, e.g. "amount_cents must be a positive integer" — never one generic message.
 *
 * Works from the `ZodError` alone (its issues, read by their typed fields: ./zod-issues.ts), and better with the
 * call's `input` (for `received`) and the arguments' JSON Schema (`jsonSchema`, e.g. a tool spec's `inputSchema`,
 * or a zod `schema`, read through its JSON Schema) for `expected` in full, e.g. "positive integer" for a missing
 * key where the issue only says "number", and for the known keys an unknown key is compared to (./zod-fields.ts).
 * Pure: no I/O.
 */
import type { z } from 'zod';
import { zod } from '../zod-runtime';
import { FailureClass, FailureReason, Phase } from '../failure';
import type { FieldIssue, ToolFailure } from '../failure';
import { buildFailure, type FailureDraft } from './build';
import { parseCallContext, type CallContext } from './context';
import { ClassifyError, ClassifyErrorCode } from './errors';
import { asArray, readProp, readString } from './safe';
import { MAX_ISSUE_TEXT_CHARS, publicText, summarizeIssues, truncate } from './text';
import { buildScope, expectedOf, receivedOf, type ZodIssueOptions } from './zod-fields';
import { entriesOf, MAX_ZOD_FIELD_ISSUES } from './zod-issues';
import { suggestionOf } from './zod-suggest';
import { refusedDraft } from './sent';

export { MAX_ZOD_FIELD_ISSUES } from './zod-issues';

/** True for a zod `ZodError` (classic or core), also from another realm (checked by shape). */
export function isZodError(error: unknown): error is z.core.$ZodError {
  try {
    // zod's Symbol.hasInstance reads the value's properties: a hostile object may throw.
    if (error instanceof zod().core.$ZodError) return true;
  } catch {
    return false;
  }
  const name = readString(error, 'name');
  return (name === 'ZodError' || name === '$ZodError') && asArray(readProp(error, 'issues')) !== undefined;
}

const publicIssueText = (text: string, fallback: string): string =>
  truncate(publicText(text, MAX_ISSUE_TEXT_CHARS) || fallback, MAX_ISSUE_TEXT_CHARS);

/**
 * Field issues for a zod error: one per problem (one per unknown key), in zod's order, duplicates removed, at most
 * `MAX_ZOD_FIELD_ISSUES`. Each is valid against `fieldIssueSchema()`: `expected` in words, `received` rendered as
 * JSON, redacted and cut to `MAX_RECEIVED_CHARS` (`missing` when absent; `[redacted]` for a secret-named field;
 * the received type, e.g. `a string`, when `input` is not given), and a one-line `suggestion`.
 *
 * @param error a zod `ZodError` (anything else yields `[]`).
 * @param options `input` (the arguments as sent), and `jsonSchema` (their JSON Schema) or `schema` (the zod
 *   schema they failed); all optional.
 */
export function fieldIssuesFromZod(error: unknown, options: ZodIssueOptions = {}): FieldIssue[] {
  const entries = entriesOf(error);
  const scope = buildScope(entries, options);
  const seen = new Set<string>();
  const out: FieldIssue[] = [];
  for (const e of entries) {
    const expected = publicIssueText(expectedOf(scope, e), 'a valid value');
    const issue: FieldIssue = {
      path: e.path,
      expected,
      received: receivedOf(scope, e),
      suggestion: publicIssueText(suggestionOf(scope, e, expected, entries), 'fix this field'),
    };
    const key = JSON.stringify(issue);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(issue);
    if (out.length >= MAX_ZOD_FIELD_ISSUES) break;
  }
  return out;
}

/** The draft for arguments that fail their schema (shared with `classify` for a thrown ZodError). */
export function zodArgumentsDraft(
  error: unknown,
  tool: string,
  options: ZodIssueOptions,
  phase: Phase = Phase.PREFLIGHT,
): FailureDraft {
  const issues = fieldIssuesFromZod(error, options);
  const n = issues.length;
  const head =
    n === 0
      ? `${tool}: the arguments are invalid; fix them and call again`
      : `${tool}: ${n} invalid argument${n === 1 ? '' : 's'}; fix ${n === 1 ? 'it' : 'them'} and call again: ${summarizeIssues(issues)}`;
  return {
    ...refusedDraft({ class: FailureClass.INVALID_ARGUMENTS, reason: FailureReason.SCHEMA, head }),
    phase,
    issues,
  };
}

/**
 * Classifies arguments that failed their zod schema: `invalid_arguments/schema`, phase `preflight` (nothing was
 * sent), replay-safe, not retryable (only changed arguments can pass), with per-field `issues`.
 *
 * @param error the `ZodError` from `schema.safeParse(args)`.
 * @param ctx the call.
 * @param options `{ input, jsonSchema }` (or `{ input, schema }`): pass both for full `received`/`expected` and key
 *   suggestions.
 * @returns a frozen, valid `ToolFailure`.
 * @throws ClassifyError `invalid_context` for a bad `ctx`; `invalid_outcome` when `error` is not a ZodError.
 */
export function classifyZodError(error: unknown, ctx: CallContext, options: ZodIssueOptions = {}): ToolFailure {
  const c = parseCallContext(ctx);
  if (!isZodError(error)) {
    throw new ClassifyError(
      ClassifyErrorCode.INVALID_OUTCOME,
      'classifyZodError: error must be a ZodError (from schema.safeParse)',
    );
  }
  return buildFailure(c, zodArgumentsDraft(error, c.tool, options));
}
