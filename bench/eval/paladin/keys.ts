/**
 * The PALADIN catalogue's 58 failure keys (bench/eval/paladin/data/toolscan_taxonomy_map.json), each mapped to the
 * nearest real TypeScript shape of the fault, how the eval injects it, the route the router should take and why.
 * One table, one row per key, in the catalogue's order; docs/EVAL.md prints it (a test keeps the copy identical).
 *
 * Keys that are Python or Java exceptions map to what a Node tool really meets: `KeyError` is a missing argument
 * (zod `invalid_type`, "required"), `NullPointerException` a `TypeError: Cannot read properties of null`, `IOError`
 * Node's `EIO`, `StackOverflowError` V8's `RangeError: Maximum call stack size exceeded`. Where the catalogue names
 * a real TypeScript class (the AI SDK's `NoSuchToolError`/`InvalidToolArgumentsError`/`ToolExecutionError`/
 * `ToolCallRepairError`, the OpenAI SDK's `PermissionDeniedError`), that class's shape is used.
 *
 * `world` says what the eval's world allows after the fault: `recoverable` (the fault clears within the retry
 * budget, the arguments can be fixed, another tool or a refreshed credential works) or `hand_off` (only a person or
 * a code change can help; the dictionary's fail path, ending in `hand_off`). The oracle end state follows from it:
 * the goal reached, or nothing written and the run ended without a submission.
 * Pure data: the fault makers that need Node are in ./faults.ts.
 */
import { RecoveryAction } from '../../../recovery/routes';

export const PALADIN_CATEGORIES = [
  'Tool Hallucination',
  'Argument Hallucination',
  'Invalid Tool Invocation',
  'Partial Execution',
  'Output Hallucination',
  'Invalid Intermediate Reasoning',
  'Re-entrant Failures',
] as const;
export type PaladinCategory = (typeof PALADIN_CATEGORIES)[number];

/**
 * How the fault reaches the run:
 * - `http`: the world service answers `status` (with `headers`, `body`) — real HTTP on loopback;
 * - `result`: the world service answers 200 with a body that is not the record (`contentType`, `text`);
 * - `thrown`: the tool's code throws the shape ./faults.ts builds;
 * - `io`: the tool performs a real operation that fails (./faults.ts): a refused connection, a missing file, a
 *   missing module, deep recursion, a socket closed mid-answer, a PostgreSQL cast;
 * - `gaxios`: the world answers Google's error format and the tool calls it through gaxios (a real `GaxiosError`);
 * - `args`: the planner's first arguments are wrong (`args`), its `fixes` correct them;
 * - `tool`: the planner names a tool the catalog does not have;
 * - `credential`: the access token expired before the run (`expired`), or the token endpoint times out (`timeout`).
 */
export type Injection =
  | {
      kind: 'http';
      status: number;
      headers?: Readonly<Record<string, string>>;
      body?: unknown;
      /** Requests one failing dispatch makes (an HTTP client that retries by itself). @default 1 */
      requestsPerDispatch?: number;
    }
  | { kind: 'result'; contentType: string; text: string }
  | { kind: 'thrown' }
  | { kind: 'io' }
  | { kind: 'gaxios'; status: number; reason: string }
  | { kind: 'args'; args: Readonly<Record<string, unknown>>; fixes: readonly Readonly<Record<string, unknown>>[] }
  | { kind: 'tool'; name: string }
  | { kind: 'credential'; mode: 'expired' | 'timeout' };

export interface PaladinKey {
  key: string;
  category: PaladinCategory;
  /** The nearest real TypeScript shape, in words. */
  shape: string;
  injection: Injection;
  /** Which call of the plan gets the fault: the read (`get_record`) or the write (`save_summary`). */
  step: 'read' | 'write';
  /**
   * `transient`: the first 1–2 dispatches of a read fail (seeded), the first dispatch of a write (its replay budget
   * is 1), then the call works; `persistent`: every dispatch of the faulted call fails (a fixed call, another tool,
   * or a person is the way out).
   */
  lasts: 'transient' | 'persistent';
  /** The first recovery action the router should take. */
  expectedAction: RecoveryAction;
  world: 'recoverable' | 'hand_off';
  /** Why that route. */
  why: string;
  /** Set when another route is defensible: the other answer and its argument. */
  debatable?: { otherAction: RecoveryAction; why: string };
}

const A = RecoveryAction;
const ERR_JSON: Readonly<Record<string, string>> = { 'content-type': 'application/json' };
const status = (code: number, body: unknown = { error: { code, message: `HTTP ${code}` } }, headers = ERR_JSON) =>
  ({ kind: 'http', status: code, body, headers }) as const;

// prettier-ignore
export const PALADIN_KEYS: readonly PaladinKey[] = Object.freeze([
  // ── Tool Hallucination ─────────────────────────────────────────────────────────────────────────────────────
  { key: 'DNS Resolution Error', category: 'Tool Hallucination', shape: "`TypeError('fetch failed')` whose `cause` is `{ code: 'ENOTFOUND', syscall: 'getaddrinfo', hostname }` (Node 20's undici)", injection: { kind: 'thrown' }, step: 'read', lasts: 'transient', expectedAction: A.RETRY, world: 'recoverable', why: 'getaddrinfo failed before anything was sent: replay-safe, and a resolver glitch clears (the success path: "alternate resolver; retry")', debatable: { otherAction: A.REPLAN, why: 'the category reads it as a hallucinated host, which no retry cures; the router replans once its retries are spent, so both answers meet' } },
  { key: 'NoSuchToolError', category: 'Tool Hallucination', shape: "the AI SDK's `NoSuchToolError` (`toolName`, `availableTools`): here the planner names `get_recrod`, which the catalog does not have", injection: { kind: 'tool', name: 'get_recrod' }, step: 'read', lasts: 'persistent', expectedAction: A.REPLAN, world: 'recoverable', why: 'capability_missing is found before dispatch; the planner gets the permitted capabilities and picks the real tool' },
  { key: 'ConnectionError', category: 'Tool Hallucination', shape: "a real `TypeError('fetch failed')` with `cause.code: 'ECONNREFUSED'`, `syscall: 'connect'` (a loopback port nobody listens on)", injection: { kind: 'io' }, step: 'read', lasts: 'transient', expectedAction: A.RETRY, world: 'recoverable', why: 'refused at connect: nothing was sent, so a retry after backoff is safe for any tool' },
  { key: 'ModuleNotFoundError', category: 'Tool Hallucination', shape: "a real `Error: Cannot find module 'pdf-parse'` with `code: 'MODULE_NOT_FOUND'` from `require` inside the tool", injection: { kind: 'io' }, step: 'read', lasts: 'persistent', expectedAction: A.ESCALATE, world: 'hand_off', why: "the tool's deployment lacks a dependency: a tool bug no retry, argument or plan fixes; an operator installs it", debatable: { otherAction: A.REPLAN, why: 'read as "this tool is unavailable" (the category), another tool might do the job: capability_missing → replan' } },
  { key: 'ImportError', category: 'Tool Hallucination', shape: "`TypeError: (0 , csv_parse_1.parse) is not a function`: TypeScript compiled to CommonJS calling a named import the installed version no longer exports", injection: { kind: 'thrown' }, step: 'read', lasts: 'persistent', expectedAction: A.ESCALATE, world: 'hand_off', why: 'version drift inside the tool: a tool bug; pinning the version is an operator change', debatable: { otherAction: A.REPLAN, why: 'as ModuleNotFoundError: the tool is unusable, another may do' } },
  { key: 'BadGatewayError', category: 'Tool Hallucination', shape: 'HTTP 502 with a JSON error body, to a read', injection: status(502), step: 'read', lasts: 'transient', expectedAction: A.RETRY, world: 'recoverable', why: 'RFC 9110 §15.6.3: the gateway got an invalid answer upstream; a read is safe to retry after backoff' },
  { key: 'ServiceDependencyFailure', category: 'Tool Hallucination', shape: 'HTTP 503 `{ "code": "dependency_unavailable" }` from a service whose own dependency is down', injection: status(503, { code: 'dependency_unavailable', message: 'an upstream dependency is unavailable' }), step: 'read', lasts: 'transient', expectedAction: A.RETRY, world: 'recoverable', why: 'RFC 9110 §15.6.4: 503 says the request was not processed and the condition is temporary', debatable: { otherAction: A.REPLAN, why: 'as 424 Failed Dependency (RFC 4918 §11.4) it is a 4xx: the router would replan' } },
  // ── Argument Hallucination ─────────────────────────────────────────────────────────────────────────────────
  { key: 'InvalidToolArgumentsError', category: 'Argument Hallucination', shape: "the AI SDK's `InvalidToolArgumentsError` (a zod issue): `recordId: 42` where the schema wants a string", injection: { kind: 'args', args: { recordId: 42 }, fixes: [{ recordId: '$record' }] }, step: 'read', lasts: 'persistent', expectedAction: A.REPAIR, world: 'recoverable', why: 'the input schema fails before dispatch; the field issue tells the planner what to change' },
  { key: 'AttributeError', category: 'Argument Hallucination', shape: "an attribute the record does not have: `fields: ['titel']` against `z.enum(['title', 'owner', 'updatedAt'])`", injection: { kind: 'args', args: { recordId: '$record', fields: ['titel'] }, fixes: [{ fields: ['title'] }] }, step: 'read', lasts: 'persistent', expectedAction: A.REPAIR, world: 'recoverable', why: 'a hallucinated attribute name is an argument error: zod names the field and the allowed values', debatable: { otherAction: A.ESCALATE, why: 'as a `TypeError: Cannot read properties of undefined` inside the tool it is a tool bug' } },
  { key: 'KeyError', category: 'Argument Hallucination', shape: "a missing required key: `{ record: 'R-…' }` without `recordId` (zod `invalid_type`, received undefined)", injection: { kind: 'args', args: { record: '$record' }, fixes: [{ recordId: '$record' }] }, step: 'read', lasts: 'persistent', expectedAction: A.REPAIR, world: 'recoverable', why: 'the schema names the missing field; only changed arguments can pass' },
  { key: 'ValueError', category: 'Argument Hallucination', shape: "a value of the right type but the wrong form: `recordId: 'record one'` against `/^R-\\d+$/`", injection: { kind: 'args', args: { recordId: 'record one' }, fixes: [{ recordId: '$record' }] }, step: 'read', lasts: 'persistent', expectedAction: A.REPAIR, world: 'recoverable', why: 'zod `invalid_format`: the field issue carries the pattern' },
  // ── Invalid Tool Invocation ────────────────────────────────────────────────────────────────────────────────
  { key: '400', category: 'Invalid Tool Invocation', shape: 'HTTP 400 `{ "error": { "code": 400, "message": "Bad Request" } }` to `format: "yaml"`; `format: "json"` passes', injection: { kind: 'args', args: { recordId: '$record', format: 'yaml' }, fixes: [{ format: 'json' }] }, step: 'read', lasts: 'persistent', expectedAction: A.REPAIR, world: 'recoverable', why: 'RFC 9110 §15.5.1: the request was malformed; a changed call can pass, the same one cannot' },
  { key: '401', category: 'Invalid Tool Invocation', shape: 'HTTP 401 with `WWW-Authenticate: Bearer error="invalid_token"` from the real OAuth loopback (examples/oauth-service.ts) after the access token expired', injection: { kind: 'credential', mode: 'expired' }, step: 'read', lasts: 'persistent', expectedAction: A.REAUTH, world: 'recoverable', why: 'RFC 6750 §3.1: the token expired; the broker refreshes it (single-flight) and the call replays once with the new version' },
  { key: '403', category: 'Invalid Tool Invocation', shape: 'HTTP 403 `{ "error": { "code": 403, "message": "Forbidden" } }` from a tool declared `approvalCanLift: true`; the eval approves as the person', injection: status(403), step: 'read', lasts: 'persistent', expectedAction: A.REQUEST_APPROVAL, world: 'recoverable', why: 'the success path is "request explicit grant; retry": the call waits for an approval bound to its arguments, then runs once with `approval_granted`', debatable: { otherAction: A.STOP, why: 'a tool that does not declare approvalCanLift stops on any 403 (PermissionDeniedError below takes that path)' } },
  { key: '404', category: 'Invalid Tool Invocation', shape: 'HTTP 404 `{ "code": "not_found" }` from the primary store; the replica has the record', injection: status(404, { code: 'not_found', message: 'no such record' }), step: 'read', lasts: 'persistent', expectedAction: A.REPLAN, world: 'recoverable', why: 'a missing resource is a semantic rejection: the same call fails again; the planner lists or searches elsewhere' },
  { key: '408', category: 'Invalid Tool Invocation', shape: 'HTTP 408 Request Timeout', injection: status(408), step: 'read', lasts: 'transient', expectedAction: A.RETRY, world: 'recoverable', why: 'RFC 9110 §15.5.9: the server timed out waiting for the request and did not process it' },
  { key: '500', category: 'Invalid Tool Invocation', shape: 'HTTP 500 to a read', injection: status(500), step: 'read', lasts: 'transient', expectedAction: A.RETRY, world: 'recoverable', why: 'a server error on a read: replay-safe, retried after backoff within budget' },
  { key: '502', category: 'Invalid Tool Invocation', shape: 'HTTP 502 to a read', injection: status(502), step: 'read', lasts: 'transient', expectedAction: A.RETRY, world: 'recoverable', why: 'RFC 9110 §15.6.3, a read: retry after backoff' },
  { key: '505', category: 'Invalid Tool Invocation', shape: 'HTTP 505 HTTP Version Not Supported', injection: status(505), step: 'read', lasts: 'persistent', expectedAction: A.ESCALATE, world: 'hand_off', why: "RFC 9110 §15.6.6: the tool's HTTP client speaks a version the server refuses: a tool bug, fixed in code" },
  { key: '510', category: 'Invalid Tool Invocation', shape: 'HTTP 510 Not Extended', injection: status(510), step: 'read', lasts: 'persistent', expectedAction: A.ESCALATE, world: 'hand_off', why: 'RFC 2774 §7: the request lacks a mandatory extension the tool does not send: a tool bug' },
  { key: '511', category: 'Invalid Tool Invocation', shape: 'HTTP 511 Network Authentication Required (a captive portal)', injection: status(511), step: 'read', lasts: 'persistent', expectedAction: A.ESCALATE, world: 'hand_off', why: 'RFC 6585 §6: the network wants a sign-in before any request reaches the service; a person must do it' },
  { key: '529', category: 'Invalid Tool Invocation', shape: 'HTTP 529 `{ "type": "error", "error": { "type": "overloaded_error" } }` (Anthropic\'s overload answer)', injection: status(529, { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }), step: 'read', lasts: 'transient', expectedAction: A.RETRY, world: 'recoverable', why: 'Anthropic API docs, "Errors": temporarily overloaded; retry after backoff' },
  { key: '530', category: 'Invalid Tool Invocation', shape: "HTTP 530 with Cloudflare's `error code: 1016` body (origin unreachable / frozen)", injection: status(530, 'error code: 1016', { 'content-type': 'text/plain' }), step: 'read', lasts: 'persistent', expectedAction: A.ESCALATE, world: 'hand_off', why: 'Cloudflare docs, "Error 530": the site or account is frozen or its origin unreachable; waiting in this run will not fix it' },
  { key: '598', category: 'Invalid Tool Invocation', shape: 'HTTP 598 (a proxy\'s network read timeout, non-standard)', injection: status(598), step: 'read', lasts: 'transient', expectedAction: A.RETRY, world: 'recoverable', why: 'an unlisted 5xx to a read is a server error: retry after backoff' },
  { key: '599', category: 'Invalid Tool Invocation', shape: 'HTTP 599 (a proxy\'s network connect timeout, non-standard)', injection: status(599), step: 'read', lasts: 'transient', expectedAction: A.RETRY, world: 'recoverable', why: 'an unlisted 5xx to a read: retry after backoff' },
  { key: '421', category: 'Invalid Tool Invocation', shape: 'HTTP 421 Misdirected Request, to two requests in a row: Node\'s fetch (undici) retries a 421 once on a new connection by itself, so only the second reaches the tool', injection: { ...status(421), requestsPerDispatch: 2 }, step: 'read', lasts: 'transient', expectedAction: A.RETRY, world: 'recoverable', why: 'RFC 9110 §15.5.20: may be retried on a new connection, whatever the method' },
  { key: 'ToolExecutionError', category: 'Invalid Tool Invocation', shape: "the AI SDK's `ToolExecutionError` (`name: 'AI_ToolExecutionError'`, `toolName`, `toolCallId`, `cause: Error('renderer crashed')`)", injection: { kind: 'thrown' }, step: 'read', lasts: 'persistent', expectedAction: A.ESCALATE, world: 'hand_off', why: 'an error inside the tool that no rule recognises is a tool bug: retrying or rewording will not change code', debatable: { otherAction: A.RETRY, why: 'the dictionary says "retry if transient": a tool that knows its error is transient says so with its `classify` hook' } },
  { key: 'ToolCallRepairError', category: 'Invalid Tool Invocation', shape: "the AI SDK's `ToolCallRepairError` (the repair of a bad call failed): the call's arguments fail the schema and the planner switches to another tool instead of fixing them", injection: { kind: 'args', args: { recordId: 42 }, fixes: [] }, step: 'read', lasts: 'persistent', expectedAction: A.REPAIR, world: 'recoverable', why: 'invalid arguments route to repair; the success path "choose a different tool" is the planner\'s answer to the repair feedback' },
  { key: 'DataError', category: 'Invalid Tool Invocation', shape: "a real PostgreSQL `22P02 invalid_text_representation` (node-postgres `DatabaseError`) from casting `version: 'v2'` to integer", injection: { kind: 'args', args: { recordId: '$record', version: 'v2' }, fixes: [{ version: '2' }] }, step: 'read', lasts: 'persistent', expectedAction: A.REPAIR, world: 'recoverable', why: 'SQLSTATE class 22 (data exception): the value the call carried is wrong, and the column is named' },
  { key: 'NullPointerException', category: 'Invalid Tool Invocation', shape: "a real `TypeError: Cannot read properties of null (reading 'title')` inside the tool", injection: { kind: 'io' }, step: 'read', lasts: 'persistent', expectedAction: A.ESCALATE, world: 'hand_off', why: "a null dereference in the tool's code is a tool bug", debatable: { otherAction: A.REJECT, why: 'when the null came from the upstream answer, it is an invalid result (the tool should check its output schema first)' } },
  { key: 'PermissionDeniedError', category: 'Invalid Tool Invocation', shape: "the OpenAI SDK's `PermissionDeniedError` (status 403, `error.code: 'unsupported_country_region_territory'`), thrown by a tool that does not declare approvalCanLift", injection: { kind: 'thrown' }, step: 'read', lasts: 'persistent', expectedAction: A.STOP, world: 'hand_off', why: 'a 403 no approval can lift: neither waiting nor rewording may get around it', debatable: { otherAction: A.REQUEST_APPROVAL, why: 'the success path "request/adjust ACL": a tool declaring approvalCanLift waits for a person (as the 403 key does)' } },
  { key: 'CertificateError', category: 'Invalid Tool Invocation', shape: "`TypeError('fetch failed')` whose `cause` is `{ code: 'CERT_HAS_EXPIRED' }`", injection: { kind: 'thrown' }, step: 'read', lasts: 'persistent', expectedAction: A.ESCALATE, world: 'hand_off', why: "time does not fix a certificate, and the model must not be told to skip TLS checks; an operator renews it or fixes the trust store" },
  { key: 'FileNotFoundError', category: 'Invalid Tool Invocation', shape: "a real Node `ENOENT` (`syscall: 'open'`, `errno: -2`) from `readFile` of the record's export file, which does not exist", injection: { kind: 'io' }, step: 'read', lasts: 'persistent', expectedAction: A.REPLAN, world: 'recoverable', why: 'a missing file is a semantic rejection: another path or source is the fix (the planner reads the replica)' },
  { key: 'IOError', category: 'Invalid Tool Invocation', shape: "a Node system error `EIO: i/o error, read` (`code: 'EIO'`, `errno: -5`, `syscall: 'read'`)", injection: { kind: 'thrown' }, step: 'read', lasts: 'persistent', expectedAction: A.ESCALATE, world: 'hand_off', why: 'a device I/O error is a resource failure; an operator checks the device', debatable: { otherAction: A.RETRY, why: 'some EIO are transient (a flaky network disk); the success path retries' } },
  { key: 'UncaughtException', category: 'Invalid Tool Invocation', shape: "a thrown non-Error: `throw 'renderer exploded'` (a string)", injection: { kind: 'thrown' }, step: 'read', lasts: 'persistent', expectedAction: A.ESCALATE, world: 'hand_off', why: 'nothing recognisable was thrown: a tool bug' },
  { key: 'AuthenticationTimeout', category: 'Invalid Tool Invocation', shape: "the token endpoint times out: `DOMException` `TimeoutError` from `AbortSignal.timeout()` inside the credential provider", injection: { kind: 'credential', mode: 'timeout' }, step: 'read', lasts: 'transient', expectedAction: A.RETRY, world: 'recoverable', why: "the provider failed for now and the tool's request was never sent: transient, replay-safe; the credential stays alive" },
  { key: 'WritePermissionError', category: 'Invalid Tool Invocation', shape: "a Node `EACCES: permission denied, open '/srv/reports/…'` (`errno: -13`) on the write", injection: { kind: 'thrown' }, step: 'write', lasts: 'persistent', expectedAction: A.STOP, world: 'hand_off', why: 'the file system forbids the write: an authorization failure the model must not work around', debatable: { otherAction: A.REPLAN, why: 'the success path "choose a writable location": a planner offered another location may replan' } },
  { key: 'ReadError', category: 'Invalid Tool Invocation', shape: "a real undici `TypeError('terminated')` / `SocketError: other side closed` (`UND_ERR_SOCKET`): the server closes the socket in the middle of the body", injection: { kind: 'io' }, step: 'read', lasts: 'transient', expectedAction: A.RETRY, world: 'recoverable', why: "httpx's ReadError is a network read failure; for a read it is transient and replay-safe" },
  // ── Partial Execution ──────────────────────────────────────────────────────────────────────────────────────
  { key: '429', category: 'Partial Execution', shape: 'HTTP 429 with `Retry-After: 1`', injection: status(429, { error: { code: 429, message: 'Too Many Requests' } }, { ...ERR_JSON, 'retry-after': '1' }), step: 'read', lasts: 'transient', expectedAction: A.RETRY, world: 'recoverable', why: 'RFC 6585 §4: rate limited; `Retry-After` is the floor of the backoff (RFC 9110 §10.2.3)' },
  { key: '503', category: 'Partial Execution', shape: 'HTTP 503 Service Unavailable', injection: status(503), step: 'read', lasts: 'transient', expectedAction: A.RETRY, world: 'recoverable', why: 'RFC 9110 §15.6.4: not processed, temporary' },
  { key: '504', category: 'Partial Execution', shape: 'HTTP 504 Gateway Timeout to a read', injection: status(504), step: 'read', lasts: 'transient', expectedAction: A.RETRY, world: 'recoverable', why: 'a read may be retried after a gateway timeout' },
  { key: '507', category: 'Partial Execution', shape: 'HTTP 507 Insufficient Storage to the write', injection: status(507), step: 'write', lasts: 'persistent', expectedAction: A.ESCALATE, world: 'hand_off', why: 'RFC 4918 §11.5: nothing was stored and it must not be repeated until an operator frees space' },
  { key: '540', category: 'Partial Execution', shape: 'HTTP 540 (endpoint temporarily disabled, non-standard)', injection: status(540), step: 'read', lasts: 'transient', expectedAction: A.RETRY, world: 'recoverable', why: 'an unlisted 5xx to a read: retry after backoff ("retry after window")' },
  { key: 'OutOfMemoryError', category: 'Partial Execution', shape: "a real V8 `RangeError: Array buffer allocation failed` (`new ArrayBuffer(2 ** 40)` in the tool)", injection: { kind: 'io' }, step: 'read', lasts: 'persistent', expectedAction: A.ESCALATE, world: 'hand_off', why: 'the tool asked for more memory than the worker has: a resource failure inside the tool', debatable: { otherAction: A.REPAIR, why: 'the success path "reduce batch size": a tool that maps it to a 413-like argument error lets the planner ask for less' } },
  { key: 'ResourceLimitExceeded', category: 'Partial Execution', shape: "an AWS SDK v3 `ServiceException` `LimitExceededException` (`$metadata.httpStatusCode: 400`, `$fault: 'client'`)", injection: { kind: 'thrown' }, step: 'read', lasts: 'transient', expectedAction: A.RETRY, world: 'recoverable', why: "smithy's retryable throttling list: a request-rate limit; retry after backoff (\"pause; reduce load; retry after reset\")", debatable: { otherAction: A.ESCALATE, why: "SageMaker's literal `ResourceLimitExceeded` (HTTP 400) is an account quota, a hard limit a person raises; the router routes that shape `repair` today (an AWS name its table does not list falls to the HTTP 400 rule)" } },
  { key: 'QuotaExceeded', category: 'Partial Execution', shape: "a real gaxios `GaxiosError`: 403 `{ error: { errors: [{ reason: 'quotaExceeded' }] } }` (Google APIs' format)", injection: { kind: 'gaxios', status: 403, reason: 'quotaExceeded' }, step: 'read', lasts: 'persistent', expectedAction: A.ESCALATE, world: 'hand_off', why: 'Google Cloud docs: a daily or per-project quota, not cured within the run', debatable: { otherAction: A.RETRY, why: 'a quota that resets soon could be waited for; the router will not wait beyond the run' } },
  { key: 'RateLimitExceeded', category: 'Partial Execution', shape: "a real gaxios `GaxiosError`: 403 `{ error: { errors: [{ reason: 'rateLimitExceeded' }] } }`", injection: { kind: 'gaxios', status: 403, reason: 'rateLimitExceeded' }, step: 'read', lasts: 'transient', expectedAction: A.RETRY, world: 'recoverable', why: 'Google APIs answer a rate limit with 403 + reason: a rate limit, not a denial' },
  // ── Output Hallucination ───────────────────────────────────────────────────────────────────────────────────
  { key: 'Malformed JSON', category: 'Output Hallucination', shape: 'a 200 `application/json` body cut short: `{"recordId":"R-…","title":"Q3 rev`', injection: { kind: 'result', contentType: 'application/json', text: '{"recordId":"$record","title":"Q3 rev' }, step: 'read', lasts: 'persistent', expectedAction: A.REJECT, world: 'recoverable', why: 'the call returned but its result is not a usable fact: never passed on; the planner reads the replica' },
  { key: 'JSON Schema Violation', category: 'Output Hallucination', shape: 'a 200 whose body fails the output schema: `{ "recordId": "R-…", "title": 42 }`', injection: { kind: 'result', contentType: 'application/json', text: '{"recordId":"$record","title":42}' }, step: 'read', lasts: 'persistent', expectedAction: A.REJECT, world: 'recoverable', why: 'the output schema fails: invalid_result, rejected', debatable: { otherAction: A.REPAIR, why: 'the success path "coerce/omit failing fields; resend" reads like a request that violated the schema' } },
  { key: 'ParseError', category: 'Output Hallucination', shape: "a real `SyntaxError: Unexpected token '<', \"<record><\"... is not valid JSON` from `JSON.parse` of an XML answer inside the tool", injection: { kind: 'io' }, step: 'read', lasts: 'persistent', expectedAction: A.REJECT, world: 'recoverable', why: 'a JSON SyntaxError from parsing the answer: the call returned, its result is unusable' },
  { key: 'InvalidContentType', category: 'Output Hallucination', shape: 'a 200 `text/html` maintenance page where JSON was expected', injection: { kind: 'result', contentType: 'text/html', text: '<html><body>Down for maintenance</body></html>' }, step: 'read', lasts: 'persistent', expectedAction: A.REJECT, world: 'recoverable', why: 'the body is text where the schema wants an object: invalid_result' },
  // ── Invalid Intermediate Reasoning ─────────────────────────────────────────────────────────────────────────
  { key: 'RuntimeError', category: 'Invalid Intermediate Reasoning', shape: "a plain `Error('unexpected state: cursor closed')` thrown by the tool", injection: { kind: 'thrown' }, step: 'read', lasts: 'persistent', expectedAction: A.ESCALATE, world: 'hand_off', why: 'an unrecognised error inside the tool is a tool bug', debatable: { otherAction: A.RETRY, why: 'the success path "reset state; retry": only the tool knows its state can be reset (its `classify` hook)' } },
  { key: 'TypeError', category: 'Invalid Intermediate Reasoning', shape: "the planner passes the wrong type: `fields: 'title'` where an array is wanted (zod `invalid_type`)", injection: { kind: 'args', args: { recordId: '$record', fields: 'title' }, fixes: [{ fields: ['title'] }] }, step: 'read', lasts: 'persistent', expectedAction: A.REPAIR, world: 'recoverable', why: 'the dictionary reads it as "wrong types passed": an argument error the schema names', debatable: { otherAction: A.ESCALATE, why: "a JavaScript TypeError thrown inside the tool's own code is a tool bug" } },
  { key: 'IndexOutOfBoundsException', category: 'Invalid Intermediate Reasoning', shape: 'HTTP 422 `{ "errors": [{ "field": "page", "message": "must be ≤ 1" }] }` to `page: 7`', injection: { kind: 'args', args: { recordId: '$record', page: 7 }, fixes: [{ page: 1 }] }, step: 'read', lasts: 'persistent', expectedAction: A.REPAIR, world: 'recoverable', why: 'the server names the field and its bound: a changed argument passes' },
  { key: 'ClassCastException', category: 'Invalid Intermediate Reasoning', shape: "the planner passes the previous step's object where a string is wanted: `recordId: { id: 'R-…' }`", injection: { kind: 'args', args: { recordId: { id: '$record' } }, fixes: [{ recordId: '$record' }] }, step: 'read', lasts: 'persistent', expectedAction: A.REPAIR, world: 'recoverable', why: 'an intermediate value cast to the wrong type is an argument error', debatable: { otherAction: A.REJECT, why: 'when the upstream value itself has the wrong type, the output schema rejects it' } },
  // ── Re-entrant Failures ────────────────────────────────────────────────────────────────────────────────────
  { key: '508', category: 'Re-entrant Failures', shape: 'HTTP 508 Loop Detected', injection: status(508), step: 'read', lasts: 'persistent', expectedAction: A.ESCALATE, world: 'hand_off', why: 'RFC 5842 §7.2: the server stopped the whole operation; the loop is in its data' },
  { key: 'StackOverflowError', category: 'Re-entrant Failures', shape: 'a real V8 `RangeError: Maximum call stack size exceeded` (unbounded recursion in the tool)', injection: { kind: 'io' }, step: 'read', lasts: 'persistent', expectedAction: A.ESCALATE, world: 'hand_off', why: 'a bug in the tool' },
  { key: 'BrokenPipeError', category: 'Re-entrant Failures', shape: "a Node `Error: write EPIPE` (`code: 'EPIPE'`, `syscall: 'write'`) while sending the write, which the store never committed", injection: { kind: 'thrown' }, step: 'write', lasts: 'transient', expectedAction: A.RECONCILE, world: 'recoverable', why: 'the request may have left: a write whose outcome is unknown is looked up by operation_id (not applied) and replayed once with the same key ("resume safely")' },
] satisfies PaladinKey[]);

/** The row of a key. @throws RangeError for a key not in the catalogue. */
export function paladinKey(key: string): PaladinKey {
  const row = PALADIN_KEYS.find((k) => k.key === key);
  if (!row) throw new RangeError(`no PALADIN key ${JSON.stringify(key)}`);
  return row;
}

/** The keys whose expected route is debatable. */
export function debatableKeys(): PaladinKey[] {
  return PALADIN_KEYS.filter((k) => k.debatable !== undefined);
}

/** The debatable keys as a Markdown list (docs/EVAL.md, between `<!-- debatable:start -->` and `<!-- debatable:end -->`). */
export function debatableMarkdown(): string {
  return debatableKeys()
    .map(
      (k) =>
        `- **${k.key}**: \`${k.expectedAction}\` (${k.why}) — or \`${k.debatable!.otherAction}\`: ${k.debatable!.why}.`,
    )
    .join('\n');
}

/** The table as Markdown (docs/EVAL.md, between `<!-- paladin:start -->` and `<!-- paladin:end -->`). */
export function paladinMarkdown(): string {
  const cell = (s: string) => s.replace(/\|/g, '\\|');
  const lines = [
    '| key | category | TypeScript shape | injected | expected route | world | why | debatable: other route, why |',
    '|---|---|---|---|---|---|---|---|',
  ];
  for (const k of PALADIN_KEYS) {
    const other = k.debatable ? `\`${k.debatable.otherAction}\`: ${cell(k.debatable.why)}` : '';
    lines.push(
      `| ${cell(k.key)} | ${k.category} | ${cell(k.shape)} | ${k.injection.kind}, ${k.step}, ${k.lasts} | \`${k.expectedAction}\` | ${k.world} | ${cell(k.why)} | ${other} |`,
    );
  }
  return lines.join('\n');
}
