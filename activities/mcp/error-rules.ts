/**
 * `MCP_ERROR_RULES`: MCP failures → failure classes, ONE table, first match wins; each row cites its source.
 * error-map.ts matches it and turns a row's answer into the tool's classifier answer.
 *
 * The rule it follows (MCP spec 2025-11-25, "Tools → Error Handling"): tools report failures in two ways.
 * 1. Protocol errors are JSON-RPC errors: unknown tools and malformed requests (-32602 invalid params, -32601
 *    method not found, e.g. `{"code": -32602, "message": "Unknown tool: invalid_tool_name"}`) and server errors
 *    (-32603 internal error). JSON-RPC 2.0 §5.1 defines the codes.
 * 2. Tool execution errors are results with `isError: true`: API failures, input validation errors, business
 *    logic errors, with text "that language models can use to self-correct". Their words, and the structured
 *    error object, status and retry hint result-signals.ts reads from them, are matched against allow-lists:
 *    what no list names stays `semantic_rejection` (the last row).
 * The SDK's McpServer (1.32) also turns its own protocol errors for `tools/call` ("Tool x not found", "Input
 * validation error") into `isError` results whose text starts `MCP error -32602:`; call-error.ts reads that code
 * back, so both forms of the same failure land on the same row.
 *
 * A remote server's HTTP answer (a 401 with `WWW-Authenticate`, a 429 with `Retry-After`, a 502 of a proxy) is
 * classified like any HTTP answer (recovery/classify/http.ts); of this table only the rows marked `session`
 * (a session the server no longer knows) apply to it.
 *
 * A row matches when every structural condition holds (`source`, `codes`, `errorName`, `session`) and, when it
 * names signals (`text`, `errorCodes`, `categories`, `statuses`, `serverCodes`), at least one of them matches.
 * The JSON-RPC code is read before the words: every row of a code comes before the rows of words alone, so a -32602
 * whose words name an unknown operation is still refused arguments (JSON-RPC 2.0 §5.1).
 */
import { FailureClass, FailureReason } from '../../recovery/failure';
import type { SendFact } from '../../recovery/classify/sent';
import type { Concept } from '../../recovery/classify/words';
import { deepFreeze } from '../../recovery/plain-object';
import { McpFailureSource } from './call-error';

/** What a row answers: a class and reason, or a transient failure decided by the send state. */
export type McpRuleAnswer =
  | Readonly<{
      kind: 'class';
      class: FailureClass;
      reason: FailureReason;
      /** `no`: refused before any effect (replay-safe); `unknown`: replay-safe only for a read. */
      applied: 'no' | 'unknown';
      /** The public message after `<tool>: `; the server's words follow when `quote` is true. */
      say: string;
      quote: boolean;
    }>
  | Readonly<{
      kind: 'transient';
      sent: SendFact;
      reason: 'network' | 'timeout' | 'rate_limited' | 'unavailable';
      say: string;
      quote: boolean;
    }>;

/** One row (see the module docs for how its conditions combine). */
export type McpErrorRule = Readonly<{
  id: string;
  /** Where the rule comes from: the MCP spec, an RFC, a server's or a library's documented behaviour. */
  cite: string;
  /** Where the failure came from (both when absent). */
  source?: McpFailureSource;
  /** The JSON-RPC code is one of these. */
  codes?: readonly number[];
  /** The thrown error's `name`. */
  errorName?: string;
  /** The HTTP answer says the server no longer knows the session (connection.ts `isSessionGone`). */
  session?: true;
  /** Signal: the server's or SDK's words (without the `MCP error <code>:` prefix) match. */
  text?: RegExp;
  /** What `text` matches, in words (docs/mcp.md's copy of the table, scripts/generated-blocks.ts). @default the pattern */
  words?: string;
  /**
   * Signal (of the `text` kind): the words carry one of these concepts of the vocabulary (recovery/classify/words.ts),
   * read as tokens and stems, so a wording no pattern lists still matches ("The authorization headers are not valid:
   * Invalid access token").
   */
  concepts?: readonly Concept[];
  /** Signal: the structured error code (lower-case) is one of these. */
  errorCodes?: readonly string[];
  /** Signal: the structured category (lower-case) is one of these. */
  categories?: readonly string[];
  /** Signal: the status the result names is in one of these inclusive ranges. */
  statuses?: readonly (readonly [number, number])[];
  /** Signal: the code, or a word of the text, is one this server's options list (`errors.authCodes`, …). */
  serverCodes?: 'auth' | 'transient';
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
const transient = (
  sent: SendFact,
  reason: 'network' | 'timeout' | 'rate_limited' | 'unavailable',
  say: string,
  quote = false,
): McpRuleAnswer => ({ kind: 'transient', sent, reason, say, quote });

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

const SPEC = 'MCP spec 2025-11-25, "Tools → Error Handling"';
const ACCESS_DENIED =
  /access denied|outside (?:of )?(?:the )?allowed director|\bEACCES\b|\bEPERM\b|permission denied|operation not permitted|\bforbidden\b/i;
const NOT_FOUND = /\bENOENT\b|no such file|\bnot found\b|does not exist|doesn't exist/i;
/** The auth allow-list of the issue: RFC 6750 `invalid_token`, "token expired", "unauthorized" (RFC 9110 §15.5.2). */
const AUTH_TEXT =
  /\binvalid[_ ]token\b|\b(?:access |auth(?:entication)? |bearer |id |oauth )?token (?:has |is )?expired\b|\bexpired (?:access |auth |bearer |oauth )?token\b|\bunauthori[sz]ed\b|\bunauthenticated\b/i;
const RATE_TEXT = /\brate[\s_-]?limit(?:ed|s)?\b|\btoo many requests\b|\bthrottl(?:ed|ing)\b/i;
const UNAVAILABLE_TEXT = /\bservice unavailable\b|\btemporarily unavailable\b|\boverloaded\b/i;
/** Timeouts named as such, not a word "timeout" in any sentence ("timeout must be positive" is not one). */
const TIMEOUT_TEXT =
  /\btimed out\b|\btime-?out (?:error|exceeded|expired|occurred)\b|\b(?:request|operation|connection|gateway|upstream|read|query|socket) time-?out\b|\bdeadline exceeded\b|\bETIMEDOUT\b/i;

/** The table. First match wins. */
// prettier-ignore
export const MCP_ERROR_RULES: readonly McpErrorRule[] = deepFreeze([
  { id: 'unknown_tool', cite: `${SPEC}: "Unknown tool: invalid_tool_name"; SDK McpServer "Tool x not found/disabled"`,
    codes: [J.INVALID_PARAMS, J.METHOD_NOT_FOUND], text: /^(?:unknown tool\b|tool \S+ (?:not found|disabled)\b)/i, words: '"Unknown tool", "Tool x not found/disabled"',
    answer: cls(C.CAPABILITY_MISSING, R.UNKNOWN_TOOL, 'no', 'the MCP server does not offer this tool') },
  { id: 'method_not_found', cite: 'JSON-RPC 2.0 §5.1: -32601 Method not found', codes: [J.METHOD_NOT_FOUND],
    answer: cls(C.CAPABILITY_MISSING, R.UNKNOWN_TOOL, 'no', 'the MCP server does not support this call') },
  { id: 'result_schema', cite: 'MCP spec 2025-11-25, "Tools → Output Schema"; SDK Client.callTool output validation',
    codes: [J.INVALID_PARAMS, J.INVALID_REQUEST], text: /output validation error|structured content|output schema/i, words: '"output validation error", "structured content", "output schema"',
    answer: cls(C.INVALID_RESULT, R.SCHEMA_VIOLATION, 'unknown', "the tool's result does not match its output schema") },
  { id: 'result_unparsable', cite: 'SDK Protocol.request: a result failing CallToolResultSchema rejects with the ZodError',
    source: S.THROWN, errorName: 'ZodError',
    answer: cls(C.INVALID_RESULT, R.SCHEMA_VIOLATION, 'unknown', 'the MCP server answered with something that is not a tool result', false) },
  { id: 'invalid_params', cite: 'JSON-RPC 2.0 §5.1: -32602 Invalid params', codes: [J.INVALID_PARAMS],
    answer: cls(C.INVALID_ARGUMENTS, R.SCHEMA, 'no', 'the MCP server rejected the arguments') },
  { id: 'internal_error', cite: 'JSON-RPC 2.0 §5.1: -32603 Internal error', codes: [J.INTERNAL_ERROR],
    answer: cls(C.UNRECOVERABLE, R.TOOL_BUG, 'unknown', 'the MCP server failed with an internal error; changing the arguments will not fix it') },
  { id: 'malformed_request', cite: 'JSON-RPC 2.0 §5.1: -32600 Invalid Request, -32700 Parse error', codes: [J.INVALID_REQUEST, J.PARSE_ERROR],
    answer: cls(C.UNRECOVERABLE, R.TOOL_BUG, 'no', 'the MCP server could not read the request; this is a bug in the client or the server') },
  { id: 'unknown_tool_words', cite: `${SPEC}: unknown tools reported as a tool result; JSON-RPC 2.0 §5.1 -32601 (as words)`,
    source: S.RESULT, concepts: ['unknown_operation'], words: 'the vocabulary\'s unknown_operation ("unknown tool", "method not found")',
    answer: cls(C.CAPABILITY_MISSING, R.UNKNOWN_TOOL, 'no', 'the MCP server does not offer this tool') },
  { id: 'session_expired', cite: 'MCP spec 2025-11-25, "Streamable HTTP → Session Management": 404 to a terminated session; the client starts a new one',
    session: true,
    answer: transient('not_processed', 'network', 'the MCP server no longer knows this session (it restarted or ended it); a new session is opened') },
  { id: 'connection_closed', cite: 'SDK ErrorCode.ConnectionClosed (-32000): the transport closed with the request open',
    source: S.THROWN, codes: [J.CONNECTION_CLOSED],
    answer: transient('maybe_sent', 'network', 'the connection to the MCP server closed before it answered') },
  { id: 'request_timeout', cite: 'SDK ErrorCode.RequestTimeout (-32001): no answer within the request timeout',
    source: S.THROWN, codes: [J.REQUEST_TIMEOUT],
    answer: transient('maybe_sent', 'timeout', 'the MCP server did not answer in time') },
  { id: 'not_connected', cite: 'SDK Protocol.request: "Not connected" before anything is sent', source: S.THROWN, text: /^not connected$/i, words: '"Not connected"',
    answer: transient('not_sent', 'network', 'the MCP server is not connected (its process exited or the client was closed)') },
  { id: 'reconnect_failed', cite: 'activities/mcp/connection.ts: a new client is opened before the call is sent',
    source: S.THROWN, errorName: 'McpReconnectError',
    answer: transient('not_sent', 'network', 'the MCP server went away and could not be reached again') },
  { id: 'connection_ended', cite: 'activities/mcp/connection.ts: a closed connection sends nothing', source: S.THROWN, errorName: 'McpAdapterError',
    answer: transient('not_sent', 'network', 'the worker closed its connection to the MCP server') },
  { id: 'server_auth_code', cite: "the server's own error codes (mcpTools `errors.authCodes`)", source: S.RESULT, serverCodes: 'auth',
    answer: cls(C.AUTHENTICATION, R.CREDENTIAL_EXPIRED, 'no', 'the MCP server refused the credential; it must be refreshed') },
  { id: 'server_transient_code', cite: "the server's own error codes (mcpTools `errors.transientCodes`)", source: S.RESULT, serverCodes: 'transient',
    answer: transient('maybe_sent', 'unavailable', 'the MCP server reports a temporary failure', true) },
  { id: 'insufficient_scope', cite: 'RFC 6750 §3.1 insufficient_scope: the token lacks a scope the call needs; OAuth 2.0 scopes (RFC 6749 §3.3)',
    source: S.RESULT, concepts: ['scope_missing'], errorCodes: ['insufficient_scope'],
    answer: cls(C.CAPABILITY_MISSING, R.NOT_PERMITTED_TOOL, 'no', 'the credential lacks a permission (scope) this tool needs') },
  { id: 'auth', cite: 'RFC 6750 §3.1 invalid_token; RFC 9110 §15.5.2 401 Unauthorized; Google AIP-193 UNAUTHENTICATED; Anthropic API errors authentication_error',
    source: S.RESULT, statuses: [[401, 401]], text: AUTH_TEXT, concepts: ['credential_expired', 'credential_invalid'], words: '"invalid token", "token (has) expired", "expired token", "unauthorized", "unauthenticated"; the vocabulary\'s credential_expired, credential_invalid',
    errorCodes: ['invalid_token', 'token_expired', 'expired_token', 'unauthenticated', 'unauthorized', 'authentication_error'],
    categories: ['auth', 'authentication', 'unauthenticated', 'unauthorized'],
    answer: cls(C.AUTHENTICATION, R.CREDENTIAL_EXPIRED, 'no', 'the MCP server refused the credential; it must be refreshed') },
  { id: 'rate_limited', cite: 'RFC 6585 §4 429 Too Many Requests; Google AIP-193 RESOURCE_EXHAUSTED; Anthropic API errors rate_limit_error',
    source: S.RESULT, statuses: [[429, 429]], text: RATE_TEXT, concepts: ['rate_limited', 'quota'], words: '"rate limit(ed)", "too many requests", "throttled"; the vocabulary\'s rate_limited, quota',
    errorCodes: ['rate_limited', 'rate_limit_exceeded', 'rate_limit_error', 'rate_limit', 'too_many_requests', 'throttled', 'throttling', 'resource_exhausted', 'slow_down'],
    categories: ['rate_limit', 'rate_limited', 'throttled', 'throttling'],
    answer: transient('not_processed', 'rate_limited', 'the MCP server is rate limited', true) },
  { id: 'unavailable', cite: 'RFC 9110 §15.6.4 503 Service Unavailable; Anthropic API errors 529 overloaded_error; Google AIP-193 UNAVAILABLE',
    source: S.RESULT, statuses: [[503, 503], [529, 529]], text: UNAVAILABLE_TEXT, concepts: ['overloaded'], words: '"service unavailable", "temporarily unavailable", "overloaded"; the vocabulary\'s overloaded',
    errorCodes: ['unavailable', 'service_unavailable', 'temporarily_unavailable', 'overloaded', 'overloaded_error'],
    categories: ['unavailable', 'transient'],
    answer: transient('not_processed', 'unavailable', 'the service behind the MCP tool is unavailable', true) },
  { id: 'server_error', cite: 'RFC 9110 §15.6: a 5xx says the server failed; it may have acted (500, 502, 504)',
    source: S.RESULT, statuses: [[500, 599]], errorCodes: ['internal_server_error', 'bad_gateway', 'server_error', 'api_error'],
    answer: transient('maybe_sent', 'unavailable', 'the service behind the MCP tool failed', true) },
  { id: 'timeout', cite: 'Google AIP-193 DEADLINE_EXCEEDED; Node ETIMEDOUT; RFC 9110 §15.6.5 504 (as words)',
    source: S.RESULT, text: TIMEOUT_TEXT, words: '"timed out", "request/upstream/… timeout", "timeout exceeded", "deadline exceeded", ETIMEDOUT',
    errorCodes: ['timeout', 'timed_out', 'deadline_exceeded', 'request_timeout', 'gateway_timeout'],
    categories: ['timeout'],
    answer: transient('maybe_sent', 'timeout', 'the service behind the MCP tool timed out', true) },
  { id: 'access_denied', cite: 'RFC 9110 §15.5.4 403; RFC 6750 §3.1 insufficient_scope; POSIX EACCES/EPERM; server-filesystem "Access denied"',
    source: S.RESULT, statuses: [[403, 403]], text: ACCESS_DENIED, concepts: ['forbidden'], words: '"access denied", "outside allowed directories", EACCES, EPERM, "permission denied", "forbidden"; the vocabulary\'s forbidden',
    errorCodes: ['forbidden', 'permission_denied', 'access_denied'], categories: ['forbidden', 'permission', 'authorization'],
    answer: cls(C.AUTHORIZATION, R.FORBIDDEN, 'no', 'the MCP server denied access') },
  { id: 'invalid_arguments', cite: 'Google AIP-193 INVALID_ARGUMENT; RFC 9110 §15.5.1 400',
    source: S.RESULT, statuses: [[400, 400]], concepts: ['invalid', 'too_large'], errorCodes: ['invalid_argument', 'invalid_arguments', 'invalid_params', 'validation_error', 'bad_request'],
    categories: ['validation', 'invalid_argument', 'invalid_arguments'],
    answer: cls(C.INVALID_ARGUMENTS, R.SCHEMA, 'no', 'the MCP server rejected the arguments') },
  { id: 'not_found', cite: 'RFC 9110 §15.5.5 404; POSIX ENOENT; Google AIP-193 NOT_FOUND',
    source: S.RESULT, statuses: [[404, 404]], text: NOT_FOUND, concepts: ['not_found'], words: 'ENOENT, "no such file", "not found", "does not exist"; the vocabulary\'s not_found',
    errorCodes: ['not_found', 'resource_not_found'], categories: ['not_found'],
    answer: cls(C.SEMANTIC_REJECTION, R.NOT_FOUND, 'no', 'the MCP server reports that it does not exist') },
  { id: 'conflict', cite: 'RFC 9110 §15.5.10 409; Google AIP-193 ALREADY_EXISTS, ABORTED',
    source: S.RESULT, statuses: [[409, 409]], errorCodes: ['conflict', 'already_exists'], categories: ['conflict'],
    answer: cls(C.SEMANTIC_REJECTION, R.CONFLICT, 'no', 'the call conflicts with the current state on the MCP server') },
  { id: 'tool_error', cite: `${SPEC}: business logic errors; what the result does not say stays a rejection`, source: S.RESULT,
    answer: cls(C.SEMANTIC_REJECTION, R.BUSINESS_RULE, 'unknown', 'the MCP server refused the call') },
] satisfies McpErrorRule[]);
