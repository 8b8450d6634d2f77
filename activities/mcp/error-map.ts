/**
 * MCP failures → failure classes: ONE table (`MCP_ERROR_RULES`), handed to the router as the `classify` hook
 * (`mcpClassifier`, a `ToolClassifier`) of every tool `mcpTools` builds.
 *
 * The rule it follows (MCP spec 2025-11-25, "Tools → Error Handling"): tools report failures in two ways.
 * 1. Protocol errors are JSON-RPC errors: unknown tools and malformed requests (-32602 invalid params, -32601
 *    method not found, e.g. `{"code": -32602, "message": "Unknown tool: invalid_tool_name"}`) and server errors
 *    (-32603 internal error). JSON-RPC 2.0 §5.1 defines the codes.
 * 2. Tool execution errors are results with `isError: true`: API failures, input validation errors, business
 *    logic errors, with text "that language models can use to self-correct".
 * The SDK's McpServer (1.32) also turns its own protocol errors for `tools/call` ("Tool x not found", "Input
 * validation error") into `isError` results whose text starts `MCP error -32602:`; call-error.ts reads that code
 * back, so both forms of the same failure land on the same row.
 *
 * Rows are matched in order, first match wins; a thrown error that no row names is left to the built-in
 * classifier (recovery/classify: network rules over the error's `cause` chain, else `unrecoverable/tool_bug`).
 * Transport rows use the built-in phase rule (recovery/classify/network.ts; seed 000, cases' lesson 2): not sent
 * → `transient` for any tool; maybe sent → `transient` for a read (or a write whose receiver deduplicates), else
 * `outcome_unknown` (reconcile). Messages quote the server's words through `publicText` (redacted: absolute host
 * paths become `[path]`, URLs `[url]`, tokens `[redacted]`; at most 200 characters).
 *
 * `applied` says whether the refused call may have changed anything: `no` (refused before any effect) makes the
 * failure replay-safe; `unknown` leaves it replay-safe only for a read.
 */
import { FailureClass, FailureReason } from '../../recovery/failure';
import type { CallContext, ToolClassifier, ToolClassifierAnswer } from '../../recovery/classify';
import { MAX_SERVER_DETAIL_CHARS, publicText } from '../../recovery/classify/text';
import { isMcpCallError, McpFailureSource, type McpFailureFacts } from './call-error';

/** What a row answers: a class and reason, or a transport failure decided by the phase rule. */
export type McpRuleAnswer =
  | Readonly<{
      kind: 'class';
      class: FailureClass;
      reason: FailureReason;
      applied: 'no' | 'unknown';
      /** The public message after `<tool>: `; the server's words follow when `quote` is true. */
      say: string;
      quote: boolean;
    }>
  | Readonly<{ kind: 'transport'; sent: 'not_sent' | 'maybe_sent'; reason: 'network' | 'timeout'; say: string }>;

/** One row: every condition given must hold. */
export type McpErrorRule = Readonly<{
  id: string;
  /** Where the failure came from (both when absent). */
  source?: McpFailureSource;
  /** The JSON-RPC code is one of these. */
  codes?: readonly number[];
  /** The server's or SDK's words (without the `MCP error <code>:` prefix) match. */
  text?: RegExp;
  /** The thrown error's `name`. */
  errorName?: string;
  answer: McpRuleAnswer;
}>;

const C = FailureClass;
const R = FailureReason;
const S = McpFailureSource;
const cls = (
  c: FailureClass,
  reason: FailureReason,
  applied: 'no' | 'unknown',
  say: string,
  quote = true,
): McpRuleAnswer => ({ kind: 'class', class: c, reason, applied, say, quote });
const transport = (sent: 'not_sent' | 'maybe_sent', reason: 'network' | 'timeout', say: string): McpRuleAnswer => ({
  kind: 'transport',
  sent,
  reason,
  say,
});

/** JSON-RPC 2.0 §5.1 codes, and the SDK's own (`ErrorCode.ConnectionClosed`, `ErrorCode.RequestTimeout`). */
export const JsonRpcCode = {
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  INTERNAL_ERROR: -32603,
  CONNECTION_CLOSED: -32000,
  REQUEST_TIMEOUT: -32001,
} as const;
const J = JsonRpcCode;

const ACCESS_DENIED =
  /access denied|outside (?:of )?(?:the )?allowed director|\bEACCES\b|\bEPERM\b|permission denied|operation not permitted|\bforbidden\b/i;
const NOT_FOUND = /\bENOENT\b|no such file|\bnot found\b|does not exist|doesn't exist/i;

/** The table. First match wins. */
// prettier-ignore
export const MCP_ERROR_RULES: readonly McpErrorRule[] = deepFreeze([
  { id: 'unknown_tool', codes: [J.INVALID_PARAMS, J.METHOD_NOT_FOUND], text: /^(?:unknown tool\b|tool \S+ (?:not found|disabled)\b)/i,
    answer: cls(C.CAPABILITY_MISSING, R.UNKNOWN_TOOL, 'no', 'the MCP server does not offer this tool') },
  { id: 'method_not_found', codes: [J.METHOD_NOT_FOUND],
    answer: cls(C.CAPABILITY_MISSING, R.UNKNOWN_TOOL, 'no', 'the MCP server does not support this call') },
  { id: 'result_schema', codes: [J.INVALID_PARAMS, J.INVALID_REQUEST], text: /output validation error|structured content|output schema/i,
    answer: cls(C.INVALID_RESULT, R.SCHEMA_VIOLATION, 'unknown', "the tool's result does not match its output schema") },
  { id: 'result_unparsable', source: S.THROWN, errorName: 'ZodError',
    answer: cls(C.INVALID_RESULT, R.SCHEMA_VIOLATION, 'unknown', 'the MCP server answered with something that is not a tool result', false) },
  { id: 'invalid_params', codes: [J.INVALID_PARAMS],
    answer: cls(C.INVALID_ARGUMENTS, R.SCHEMA, 'no', 'the MCP server rejected the arguments') },
  { id: 'internal_error', codes: [J.INTERNAL_ERROR],
    answer: cls(C.UNRECOVERABLE, R.TOOL_BUG, 'unknown', 'the MCP server failed with an internal error; changing the arguments will not fix it') },
  { id: 'malformed_request', codes: [J.INVALID_REQUEST, J.PARSE_ERROR],
    answer: cls(C.UNRECOVERABLE, R.TOOL_BUG, 'no', 'the MCP server could not read the request; this is a bug in the client or the server') },
  { id: 'connection_closed', source: S.THROWN, codes: [J.CONNECTION_CLOSED],
    answer: transport('maybe_sent', 'network', 'the connection to the MCP server closed before it answered') },
  { id: 'request_timeout', source: S.THROWN, codes: [J.REQUEST_TIMEOUT],
    answer: transport('maybe_sent', 'timeout', 'the MCP server did not answer in time') },
  { id: 'not_connected', source: S.THROWN, text: /^not connected$/i,
    answer: transport('not_sent', 'network', 'the MCP server is not connected (its process exited or the client was closed)') },
  { id: 'access_denied', source: S.RESULT, text: ACCESS_DENIED,
    answer: cls(C.AUTHORIZATION, R.FORBIDDEN, 'no', 'the MCP server denied access') },
  { id: 'not_found', source: S.RESULT, text: NOT_FOUND,
    answer: cls(C.SEMANTIC_REJECTION, R.NOT_FOUND, 'no', 'the MCP server reports that it does not exist') },
  { id: 'tool_error', source: S.RESULT,
    answer: cls(C.SEMANTIC_REJECTION, R.BUSINESS_RULE, 'unknown', 'the MCP server refused the call') },
] satisfies McpErrorRule[]);

/** The first row of `MCP_ERROR_RULES` that matches `facts`, or undefined (then the built-in classifier decides). */
export function matchMcpRule(facts: McpFailureFacts): McpErrorRule | undefined {
  return MCP_ERROR_RULES.find(
    (r) =>
      (r.source === undefined || r.source === facts.source) &&
      (r.codes === undefined || (facts.code !== undefined && r.codes.includes(facts.code))) &&
      (r.text === undefined || r.text.test(facts.detail.trim())) &&
      (r.errorName === undefined || r.errorName === facts.errorName),
  );
}

/**
 * The `classify` hook of every MCP tool: for an `McpCallError`, the answer of its row of `MCP_ERROR_RULES`;
 * `undefined` (keep the built-in answer) for anything else. Never throws on the error it reads.
 */
export const mcpClassifier: ToolClassifier = (raw, ctx) => {
  if (raw.kind !== 'thrown' || !isMcpCallError(raw.error)) return undefined;
  const rule = matchMcpRule(raw.error);
  return rule ? answerFor(rule.answer, raw.error.detail, ctx) : undefined;
};

/** A row's answer for this call. */
export function answerFor(answer: McpRuleAnswer, detail: string, ctx: CallContext): ToolClassifierAnswer {
  const tool = ctx.tool;
  if (answer.kind === 'class') {
    const quoted = answer.quote ? publicText(detail, MAX_SERVER_DETAIL_CHARS) : '';
    return {
      class: answer.class,
      reason: answer.reason,
      retryable: false,
      replaySafe: answer.applied === 'no' || ctx.effect === 'read',
      publicMessage: `${tool}: ${answer.say}${quoted === '' ? '.' : `: ${quoted}`}`,
    };
  }
  const reason = answer.reason === 'timeout' ? R.TIMEOUT : R.NETWORK;
  if (answer.sent === 'not_sent') {
    return {
      class: C.TRANSIENT,
      reason,
      retryable: true,
      replaySafe: true,
      publicMessage: `${tool}: ${answer.say}; the request was not sent, so it is safe to try again.`,
    };
  }
  if (ctx.effect === 'read' || ctx.deduplicates) {
    return {
      class: C.TRANSIENT,
      reason,
      retryable: true,
      replaySafe: true,
      publicMessage: `${tool}: ${answer.say}; ${ctx.effect === 'read' ? 'the read' : 'the deduplicated write'} can be retried.`,
    };
  }
  return {
    class: C.OUTCOME_UNKNOWN,
    reason,
    retryable: false,
    replaySafe: false,
    publicMessage: `${tool}: ${answer.say} after the write was sent; it may or may not have been applied. Check its status before any new attempt.`,
  };
}

function deepFreeze(rows: McpErrorRule[]): readonly McpErrorRule[] {
  for (const r of rows) {
    if (r.codes) Object.freeze(r.codes);
    Object.freeze(r.answer);
    Object.freeze(r);
  }
  return Object.freeze(rows);
}
