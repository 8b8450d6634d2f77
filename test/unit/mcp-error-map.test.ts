/**
 * The MCP error table (activities/mcp/error-rules.ts, matched by error-map.ts) on the rows a healthy filesystem
 * server never produces, with the SDK's own error objects; the isError signals (result-signals.ts); a remote
 * server's HTTP answers; the annotation table; and the JSON Schema → zod converter. Pure: no server, no process.
 */
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError, ErrorCode, CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { ANNOTATION_RULES, decideAnnotations } from '../../activities/mcp/annotations';
import { McpCallError } from '../../activities/mcp/call-error';
import type { McpHttpAnswer } from '../../activities/mcp/call-scope';
import { isSessionGone, McpReconnectError } from '../../activities/mcp/connection';
import { matchMcpRule, mcpClassifierFor } from '../../activities/mcp/error-map';

const mcpClassifier = mcpClassifierFor();
import { MCP_ERROR_RULES } from '../../activities/mcp/error-rules';
import { zodFromInputSchema, zodFromJsonSchema } from '../../activities/mcp/json-schema';
import { mcpToolEffect } from '../../activities/mcp/tools';
import { MAX_HINT_MS, readResultSignals, retryHintInText, statusInText } from '../../activities/mcp/result-signals';
import { classify, fieldIssuesFromZod, type CallContext } from '../../recovery/classify';

const ctx = (effect: 'read' | 'write'): CallContext => ({
  tool: 'srv_tool',
  callId: 'c1',
  effect,
  deduplicates: false,
  approvalCanLift: false,
  nowMs: 0,
  diagnosticRef: 'd1',
});
const thrown = (error: unknown, effect: 'read' | 'write' = 'read') =>
  classify({ kind: 'thrown', error: McpCallError.fromThrown('tool', error) }, ctx(effect), mcpClassifier);
const result = (text: string, effect: 'read' | 'write' = 'read') =>
  classify(
    { kind: 'thrown', error: McpCallError.fromResult('tool', { content: [{ type: 'text', text }], isError: true }) },
    ctx(effect),
    mcpClassifier,
  );

test('error-map: row ids are unique; the last row takes every other isError result', () => {
  const ids = MCP_ERROR_RULES.map((r) => r.id);
  expect(new Set(ids).size).toBe(ids.length);
  const last = MCP_ERROR_RULES[MCP_ERROR_RULES.length - 1]!;
  expect(last).toMatchObject({ id: 'tool_error', source: 'result' });
  expect(last.text).toBeUndefined();
});

test('error-map: JSON-RPC -32602 thrown → invalid_arguments/schema, replay-safe even for a write', () => {
  const f = thrown(new McpError(ErrorCode.InvalidParams, 'Invalid arguments: path must be a string'), 'write');
  expect(f).toMatchObject({ class: 'invalid_arguments', reason: 'schema', replaySafe: true, retryable: false });
  expect([f.publicMessage, f.serverSaid]).toEqual([
    'srv_tool: the MCP server rejected the arguments.',
    'Invalid arguments: path must be a string',
  ]);
});

test('error-map: -32602 "Unknown tool: x" (the spec\'s example) → capability_missing/unknown_tool', () => {
  expect(thrown(new McpError(ErrorCode.InvalidParams, 'Unknown tool: invalid_tool_name'))).toMatchObject({
    class: 'capability_missing',
    reason: 'unknown_tool',
  });
});

test('error-map: the JSON-RPC code is read before the words: an isError "MCP error -32602:" whose words name an unknown operation → invalid_arguments (the arguments were refused), for a read and a write', () => {
  for (const effect of ['read', 'write'] as const) {
    const f = result('MCP error -32602: Unknown operation "frobnicate" for field op', effect);
    expect([f.class, f.reason, f.phase, f.replaySafe, f.publicMessage]).toEqual([
      'invalid_arguments',
      'schema',
      'dispatch',
      true,
      'srv_tool: the MCP server rejected the arguments.',
    ]);
  }
  // Without a code, the same words still name a missing operation.
  expect(result('Unknown operation "frobnicate"')).toMatchObject({
    class: 'capability_missing',
    reason: 'unknown_tool',
  });
});

test('error-map: an McpCallError of -32602 read by the built-in classifier alone (callMcpTool in a tool of its own, no mcpClassifier): its "(result -32602)" is the JSON-RPC code, not words about a result → invalid_arguments, replay-safe', () => {
  const text = 'MCP error -32602: Input validation error: Invalid arguments for tool read';
  const error = McpCallError.fromResult('read', { content: [{ type: 'text', text }], isError: true });
  expect(error.message).toBe(
    'MCP tool "read" failed (result -32602): Input validation error: Invalid arguments for tool read',
  );
  for (const effect of ['read', 'write'] as const) {
    const f = classify({ kind: 'thrown', error }, ctx(effect));
    expect([f.class, f.phase, f.replaySafe, f.retryable]).toEqual(['invalid_arguments', 'dispatch', true, false]);
  }
  // Its message alone, as it crosses an activity boundary in an ApplicationFailure, reads the same.
  const copied = classify({ kind: 'thrown', error: new Error(error.message) }, ctx('write'));
  expect([copied.class, copied.phase]).toEqual(['invalid_arguments', 'dispatch']);
});

test('error-map: -32601 method not found → capability_missing/unknown_tool', () => {
  expect(thrown(new McpError(ErrorCode.MethodNotFound, 'Method not found'))).toMatchObject({
    class: 'capability_missing',
    reason: 'unknown_tool',
    publicMessage: 'srv_tool: the MCP server does not support this call.',
    serverSaid: 'Method not found',
  });
});

test('error-map: -32603 internal → unrecoverable/tool_bug; replay-safe for a read, not for a write', () => {
  expect(thrown(new McpError(ErrorCode.InternalError, 'boom'), 'read')).toMatchObject({
    class: 'unrecoverable',
    reason: 'tool_bug',
    replaySafe: true,
  });
  expect(thrown(new McpError(ErrorCode.InternalError, 'boom'), 'write')).toMatchObject({
    class: 'unrecoverable',
    replaySafe: false,
  });
});

test("error-map: the client's outputSchema check (-32602 'Structured content does not match') → invalid_result", () => {
  const f = thrown(
    new McpError(
      ErrorCode.InvalidParams,
      "Structured content does not match the tool's output schema: data/content must be string",
    ),
  );
  expect(f).toMatchObject({ class: 'invalid_result', reason: 'schema_violation' });
});

test('error-map: a result the SDK cannot parse (ZodError) → invalid_result, not invalid_arguments', () => {
  const parsed = CallToolResultSchema.safeParse({ content: 'not an array' });
  expect(parsed.success).toBe(false);
  const f = thrown(parsed.error);
  expect(f).toMatchObject({ class: 'invalid_result', reason: 'schema_violation' });
  expect(f.issues).toBeUndefined();
});

test('error-map: -32001 request timeout → read transient/timeout retryable; write outcome_unknown/timeout', () => {
  const timeout = () => new McpError(ErrorCode.RequestTimeout, 'Request timed out', { timeout: 60_000 });
  expect(thrown(timeout(), 'read')).toMatchObject({ class: 'transient', reason: 'timeout', retryable: true });
  expect(thrown(timeout(), 'write')).toMatchObject({
    class: 'outcome_unknown',
    reason: 'timeout',
    phase: 'commit_unknown',
    replaySafe: false,
  });
});

test('error-map: an isError text starting "MCP error -32603:" → unrecoverable, like the thrown form', () => {
  expect(result('MCP error -32603: Tool t has taskSupport but was not registered')).toMatchObject({
    class: 'unrecoverable',
    reason: 'tool_bug',
  });
});

test('error-map: isError texts → EACCES/permission denied → authorization; "does not exist" → not_found; else business_rule', () => {
  expect(result("EACCES: permission denied, open '/srv/data/x'")).toMatchObject({
    class: 'authorization',
    reason: 'forbidden',
    publicMessage: 'srv_tool: the MCP server denied access.',
    serverSaid: "EACCES: permission denied, open '[path]'",
  });
  expect(result('Parent directory does not exist: /srv/data/a')).toMatchObject({
    class: 'semantic_rejection',
    reason: 'not_found',
  });
  expect(result('Destination already exists: /srv/data/b', 'write')).toMatchObject({
    class: 'semantic_rejection',
    reason: 'business_rule',
    replaySafe: false,
    publicMessage: 'srv_tool: the MCP server refused the call.',
    serverSaid: 'Destination already exists: [path]',
  });
});

test('error-map: a thrown error no row names (a socket error) is left to the built-in classifier', () => {
  const epipe = Object.assign(new Error('write EPIPE'), { code: 'EPIPE', syscall: 'write' });
  expect(matchMcpRule(McpCallError.fromThrown('tool', epipe))).toBeUndefined();
  expect(thrown(epipe, 'write')).toMatchObject({ class: 'outcome_unknown', reason: 'network' });
});

test('decideAnnotations(…).effect: readOnlyHint true → read; false, absent or untrusted annotations → write', () => {
  expect(decideAnnotations({ annotations: { readOnlyHint: true } }, true).effect).toBe('read');
  expect(decideAnnotations({ annotations: { readOnlyHint: false } }, true).effect).toBe('write');
  expect(decideAnnotations({}, false).effect).toBe('write');
  expect(decideAnnotations({ annotations: { readOnlyHint: true } }, false).effect).toBe('write');
});

test('zodFromInputSchema: type, required, enum, items, additionalProperties: false are checked; the rest is left to the server', () => {
  const s = zodFromInputSchema({
    type: 'object',
    properties: {
      path: { type: 'string', description: 'the path' },
      n: { type: 'integer' },
      mode: { enum: ['a', 'b'] },
      tags: { type: 'array', items: { type: 'string' } },
      when: { anyOf: [{ type: 'string' }, { type: 'number' }] },
      o: {
        type: 'object',
        properties: { x: { type: ['string', 'null'] } },
        required: ['x'],
        additionalProperties: false,
      },
    },
    required: ['path'],
  });
  expect(s.safeParse({ path: 'a', when: true, extra: 1 })).toEqual({
    success: true,
    data: { path: 'a', when: true, extra: 1 },
  });
  const bad = s.safeParse({ path: 3, n: 1.5, mode: 'c', tags: [1], o: { y: 1 } });
  expect(bad.success ? [] : bad.error.issues.map((i) => [i.path.join('.'), i.code])).toEqual([
    ['path', 'invalid_type'],
    ['n', 'invalid_type'],
    ['mode', 'invalid_value'],
    ['tags.0', 'invalid_type'],
    ['o.x', 'invalid_union'],
    ['o', 'unrecognized_keys'],
  ]);
  expect(z.toJSONSchema(s, { io: 'input', unrepresentable: 'any' })).toMatchObject({
    properties: { path: { type: 'string', description: 'the path' }, mode: { enum: ['a', 'b'] } },
    required: ['path'],
  });
});

test('zodFromInputSchema: format, pattern and bounds stay in the JSON Schema (unchecked), so field issues word them', () => {
  const server = {
    type: 'object',
    properties: {
      email: { type: 'string', format: 'email', description: 'who' },
      count: { type: 'integer', minimum: 1, maximum: 50 },
      id: { type: 'string', pattern: '^ord-[0-9]+$', minLength: 5 },
      bogus: { type: 'string', format: 7, minimum: Number.NaN },
    },
    required: ['email', 'count', 'id'],
    additionalProperties: false,
  };
  const s = zodFromInputSchema(server);
  // Checked as before: types and required keys only; the server checks the rest.
  expect(s.safeParse({ email: 'not-an-email', count: 99, id: 'x' }).success).toBe(true);
  const jsonSchema = z.toJSONSchema(s, { io: 'input', unrepresentable: 'any' });
  expect(jsonSchema).toMatchObject({
    properties: {
      email: { type: 'string', format: 'email', description: 'who' },
      count: { type: 'integer', minimum: 1, maximum: 50 },
      id: { type: 'string', pattern: '^ord-[0-9]+$', minLength: 5 },
      bogus: { type: 'string' },
    },
  });
  expect((jsonSchema.properties as Record<string, object>).bogus).toEqual({ type: 'string' });
  const input = { email: 1, id: 42 };
  const parsed = s.safeParse(input);
  expect(parsed.success ? [] : fieldIssuesFromZod(parsed.error, { input, jsonSchema })).toEqual([
    { path: ['email'], expected: 'email address', received: '1', suggestion: 'change email to an email address' },
    {
      path: ['count'],
      expected: 'integer between 1 and 50',
      received: 'missing',
      suggestion: 'add count (integer between 1 and 50)',
    },
    {
      path: ['id'],
      expected: 'string matching ^ord-[0-9]+$ of at least 5 characters',
      received: '42',
      suggestion: 'change id to a string matching ^ord-[0-9]+$ of at least 5 characters',
    },
  ]);
});

test('zodFromInputSchema: a schema without properties (or not an object) accepts any object, and only objects', () => {
  const s = zodFromInputSchema({ type: 'object' });
  expect(s.safeParse({ anything: [1] }).success).toBe(true);
  expect(s.safeParse('text').success).toBe(false);
  expect(zodFromInputSchema(null).safeParse({}).success).toBe(true);
});

describe('isError signals (issue 13: auth and transient allow-lists, structured error objects)', () => {
  const withContent = (content: unknown, structuredContent?: unknown) =>
    McpCallError.fromResult('tool', { content, isError: true, ...(structuredContent ? { structuredContent } : {}) });
  const classifyResult = (error: McpCallError, effect: 'read' | 'write' = 'read', classifier = mcpClassifier) =>
    classify({ kind: 'thrown', error }, ctx(effect), classifier);
  const textResult = (text: string) => withContent([{ type: 'text', text }]);

  test.each([
    ['RFC 6750 code in words', 'upstream said invalid_token'],
    ['"token expired"', 'The access token expired; sign in again'],
    ['"token has expired"', 'Error: token has expired'],
    ['401 reason phrase', 'GET /v1/balance: 401 Unauthorized'],
    ['"unauthenticated"', 'request unauthenticated'],
    ['OAuth error JSON text', '{"error":"invalid_token","error_description":"The token is no longer valid"}'],
    [
      'Google error JSON text',
      '{"error":{"code":401,"message":"Request had invalid credentials","status":"UNAUTHENTICATED"}}',
    ],
  ])('auth: %s → authentication/credential_expired, replay-safe even for a write', (_label, text) => {
    const f = classifyResult(textResult(text), 'write');
    expect(f).toMatchObject({
      class: 'authentication',
      reason: 'credential_expired',
      replaySafe: true,
      retryable: false,
    });
    expect(f.publicMessage).toBe('srv_tool: the MCP server refused the credential; it must be refreshed.');
    expect(f.serverSaid).toBe(text.replace('/v1/balance', '[path]'));
  });

  test('auth: a structured {category, code, message} in structuredContent → authentication', () => {
    const error = withContent([{ type: 'text', text: 'The request failed.' }], {
      category: 'auth',
      code: 'SESSION_GONE',
      message: 'log in again',
    });
    expect(error.signals).toEqual({ category: 'auth', errorCode: 'session_gone', message: 'log in again' });
    expect(classifyResult(error)).toMatchObject({ class: 'authentication', reason: 'credential_expired' });
  });

  test("auth: a server's own code (errors.authCodes), as the structured code or a word of the text", () => {
    const server = mcpClassifierFor({ authCodes: ['E_SESSION_REVOKED'] });
    expect(classifyResult(textResult('E_SESSION_REVOKED: please reconnect'), 'read', server)).toMatchObject({
      class: 'authentication',
    });
    const structured = withContent([{ type: 'text', text: 'failed' }], { code: 'e_session_revoked' });
    expect(classifyResult(structured, 'read', server)).toMatchObject({ class: 'authentication' });
    // Without the server's list the same text says nothing known: a rejection.
    expect(classifyResult(textResult('E_SESSION_REVOKED: please reconnect'))).toMatchObject({
      class: 'semantic_rejection',
      reason: 'business_rule',
    });
  });

  test('transient: HTTP 502 in the text → a read is retryable; a write may have been applied → outcome_unknown', () => {
    const error = () => textResult('payments API: HTTP 502 Bad Gateway');
    expect(classifyResult(error(), 'read')).toMatchObject({
      class: 'transient',
      reason: 'unavailable',
      retryable: true,
      replaySafe: true,
      publicMessage: 'srv_tool: the service behind the MCP tool failed; the read can be retried.',
      serverSaid: 'payments API: HTTP 502 Bad Gateway',
    });
    expect(classifyResult(error(), 'write')).toMatchObject({
      class: 'outcome_unknown',
      phase: 'commit_unknown',
      replaySafe: false,
    });
  });

  test('transient: 503 and 429 were not processed → retryable for a write too; a retry hint becomes retryAfterMs', () => {
    expect(classifyResult(textResult('503 Service Unavailable'), 'write')).toMatchObject({
      class: 'transient',
      reason: 'unavailable',
      retryable: true,
      replaySafe: true,
    });
    const limited = classifyResult(textResult('HTTP 429 Too Many Requests. Retry after 2 seconds.'), 'write');
    expect(limited).toMatchObject({ class: 'transient', reason: 'rate_limited', retryable: true, retryAfterMs: 2_000 });
    expect([limited.publicMessage, limited.serverSaid]).toEqual([
      'srv_tool: the MCP server is rate limited (retry after 2000 ms); the request was not processed, so it is safe to try again.',
      'HTTP 429 Too Many Requests. Retry after 2 seconds.',
    ]);
    const structured = withContent([{ type: 'text', text: 'slow down' }], {
      error: { code: 'rate_limited', retry_after: 3 },
    });
    expect(classifyResult(structured)).toMatchObject({
      class: 'transient',
      reason: 'rate_limited',
      retryAfterMs: 3_000,
    });
    expect(classifyResult(textResult('rate limit exceeded, try again in 500ms'))).toMatchObject({
      reason: 'rate_limited',
      retryAfterMs: 500,
    });
  });

  // The kind: a write is retried as "not processed" only on a structured signal (status, code, category). Words
  // alone may tell of one step of the tool's work, and a signal of "maybe sent" the first row lacks wins.
  test.each([
    [
      'a 504 whose text says "overloaded" (status 504 against the words)',
      '504 Gateway Timeout: upstream overloaded',
      'unavailable',
    ],
    [
      'words alone: "temporarily unavailable" beside a timeout',
      'The bank request timed out; payment service temporarily unavailable',
      'unavailable',
    ],
    [
      'words alone: "rate limited" after "created"',
      'Payment pay_1 created, but the receipt e-mail was rate limited',
      'rate_limited',
    ],
    ['words alone: "overloaded"', 'overloaded', 'unavailable'],
  ])('transient, maybe sent: %s → a write reconciles (outcome_unknown), a read retries', (_name, text, reason) => {
    expect(classifyResult(textResult(text), 'write')).toMatchObject({
      class: 'outcome_unknown',
      reason,
      retryable: false,
      replaySafe: false,
    });
    expect(classifyResult(textResult(text), 'read')).toMatchObject({
      class: 'transient',
      reason,
      retryable: true,
      replaySafe: true,
    });
  });

  test('transient, not processed, on a write: the status, the structured code or the category says so', () => {
    for (const error of [
      textResult('HTTP 503: payment service temporarily unavailable'),
      withContent([{ type: 'text', text: 'slow down' }], { error: { code: 'rate_limited' } }),
      withContent([{ type: 'text', text: 'try later' }], { category: 'unavailable' }),
    ]) {
      expect(classifyResult(error, 'write')).toMatchObject({ class: 'transient', retryable: true, replaySafe: true });
    }
  });

  test('transient: timeouts named as such; a sentence with the word "timeout" in it is not one', () => {
    expect(classifyResult(textResult('upstream request timeout after 30s'))).toMatchObject({
      class: 'transient',
      reason: 'timeout',
    });
    expect(classifyResult(textResult('the query timed out'), 'write')).toMatchObject({ class: 'outcome_unknown' });
    // Not a timeout: a validation message about a parameter named "timeout" (the vocabulary reads "must be").
    expect(classifyResult(textResult('timeout must be a positive number'))).toMatchObject({
      class: 'invalid_arguments',
      reason: 'schema',
    });
  });

  test("transient: a server's own transient code (errors.transientCodes): a read retries, a write reconciles", () => {
    const server = mcpClassifierFor({ transientCodes: ['E_BUSY'] });
    expect(classifyResult(textResult('E_BUSY'), 'read', server)).toMatchObject({ class: 'transient', retryable: true });
    expect(classifyResult(textResult('E_BUSY'), 'write', server)).toMatchObject({ class: 'outcome_unknown' });
  });

  test('structured codes and statuses for the other classes: not_found, validation, conflict, 403', () => {
    const s = (structuredContent: unknown) =>
      classifyResult(withContent([{ type: 'text', text: 'x' }], structuredContent));
    expect(s({ code: 'not_found' })).toMatchObject({ class: 'semantic_rejection', reason: 'not_found' });
    expect(s({ category: 'validation', message: 'amount must be positive' })).toMatchObject({
      class: 'invalid_arguments',
      reason: 'schema',
    });
    expect(s({ status: 409 })).toMatchObject({ class: 'semantic_rejection', reason: 'conflict' });
    expect(s({ error: { code: 403, message: 'no' } })).toMatchObject({ class: 'authorization', reason: 'forbidden' });
  });

  test('words of the vocabulary are read as a repair ("invalid", "must be"); what the text does not say stays semantic_rejection/business_rule', () => {
    expect(classifyResult(textResult('Invalid resourceId: 0. Must be a finite positive integer.'))).toMatchObject({
      class: 'invalid_arguments',
      reason: 'schema',
    });
    expect(classifyResult(textResult('The order cannot be shipped to this country.'))).toMatchObject({
      class: 'semantic_rejection',
      reason: 'business_rule',
    });
  });

  test("a server's classify hook runs after the table and may change its answer; a hook that throws is ignored", () => {
    const hook = mcpClassifierFor({}, (facts, _ctx, answer) =>
      facts.detail.includes('quota')
        ? { class: 'unrecoverable' }
        : answer.class === 'transient'
          ? { retryAfterMs: 9_000 }
          : undefined,
    );
    expect(classifyResult(textResult('monthly quota used up'), 'read', hook)).toMatchObject({
      class: 'unrecoverable',
      reason: 'unspecified',
      retryable: false,
    });
    expect(classifyResult(textResult('HTTP 503'), 'read', hook)).toMatchObject({
      class: 'transient',
      reason: 'unavailable',
      retryAfterMs: 9_000,
    });
    const throwing = mcpClassifierFor({}, () => {
      throw new Error('bug in the hook');
    });
    expect(classifyResult(textResult('HTTP 503'), 'read', throwing)).toMatchObject({ class: 'transient' });
  });
});

describe('a remote server\'s HTTP answers (issue 13: "classified like any HTTP answer")', () => {
  const answer = (
    status: number,
    headers: Record<string, string>,
    body: unknown,
    sessionId?: string,
  ): McpHttpAnswer => ({
    kind: 'http',
    status,
    headers,
    body: JSON.stringify(body),
    sessionId,
  });
  const fromHttp = (http: McpHttpAnswer, effect: 'read' | 'write' = 'read') =>
    classify(
      {
        kind: 'thrown',
        error: McpCallError.fromThrown('tool', new StreamableHTTPError(http.status, 'Error POSTing to endpoint'), http),
      },
      ctx(effect),
      mcpClassifier,
    );

  test('401 with WWW-Authenticate error="invalid_token" and resource_metadata (RFC 6750, RFC 9728) → the HTTP rules: credential_expired', () => {
    const f = fromHttp(
      answer(
        401,
        {
          'www-authenticate':
            'Bearer error="invalid_token", error_description="Token has expired", resource_metadata="https://mcp.example/.well-known/oauth-protected-resource/mcp"',
        },
        { error: 'invalid_token', error_description: 'Token has expired' },
      ),
    );
    expect(f).toMatchObject({
      class: 'authentication',
      reason: 'credential_expired',
      status: 401,
      code: 'invalid_token',
    });
    expect(f.publicMessage).not.toContain('mcp.example');
  });

  test('403 insufficient_scope → authorization; 429 with Retry-After → rate_limited, 5 s; 502 to a write → outcome_unknown', () => {
    expect(
      fromHttp(answer(403, { 'www-authenticate': 'Bearer error="insufficient_scope", scope="payments:write"' }, {})),
    ).toMatchObject({ class: 'authorization', status: 403 });
    expect(fromHttp(answer(429, { 'retry-after': '5' }, {}))).toMatchObject({
      class: 'transient',
      reason: 'rate_limited',
      retryAfterMs: 5_000,
    });
    expect(fromHttp(answer(502, {}, 'Bad Gateway'), 'write')).toMatchObject({ class: 'outcome_unknown', status: 502 });
  });

  test('a session the server no longer knows (404, or 400 "No valid session ID" as server-everything answers) → transient, not processed; without a session id, 404 is the HTTP rule', () => {
    const gone = answer(
      404,
      {},
      { jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: 1 },
      'sid-1',
    );
    expect(isSessionGone(gone)).toBe(true);
    expect(fromHttp(gone, 'write')).toMatchObject({
      class: 'transient',
      reason: 'network',
      phase: 'dispatch',
      retryable: true,
      replaySafe: true,
    });
    const everything = answer(
      400,
      {},
      { jsonrpc: '2.0', error: { code: -32000, message: 'Bad Request: No valid session ID provided' } },
      'sid-1',
    );
    expect(isSessionGone(everything)).toBe(true);
    const sdk = answer(
      400,
      {},
      { jsonrpc: '2.0', error: { code: -32000, message: 'Bad Request: Server not initialized' } },
      'sid-1',
    );
    expect(isSessionGone(sdk)).toBe(true);
    expect(fromHttp({ ...gone, sessionId: undefined })).toMatchObject({
      class: 'semantic_rejection',
      reason: 'not_found',
    });
    expect(isSessionGone(answer(400, {}, { error: 'bad request' }, 'sid-1'))).toBe(false);
  });

  test('a reconnect that fails: refused → transient, not sent (any tool); its 401 → authentication; its 502 → still not sent', () => {
    const refused = Object.assign(new TypeError('fetch failed'), {
      cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED', syscall: 'connect' }),
    });
    const asCall = (err: unknown) =>
      classify({ kind: 'thrown', error: McpCallError.fromThrown('tool', err) }, ctx('write'), mcpClassifier);
    expect(asCall(new McpReconnectError(refused, undefined))).toMatchObject({
      class: 'transient',
      reason: 'network',
      phase: 'dispatch',
      retryable: true,
      replaySafe: true,
      publicMessage:
        'srv_tool: the MCP server went away and could not be reached again; the request was not sent, so it is safe to try again.',
    });
    const unauthorized = answer(401, { 'www-authenticate': 'Bearer error="invalid_token"' }, {});
    expect(asCall(new McpReconnectError(new Error('Streamable HTTP error'), unauthorized))).toMatchObject({
      class: 'authentication',
      reason: 'credential_expired',
    });
    expect(
      asCall(new McpReconnectError(new Error('Streamable HTTP error'), answer(502, {}, 'Bad Gateway'))),
    ).toMatchObject({
      class: 'transient',
      replaySafe: true,
    });
  });
});

describe('readResultSignals: statuses and retry hints in text', () => {
  test.each([
    ['HTTP/1.1 503 Service Unavailable', 503],
    ['upstream status code: 429', 429],
    ['status_code=500', 500],
    ['got 504 Gateway Timeout', 504],
    ['order 4040 not found', undefined],
    ['HTTP 200 OK', undefined],
  ])('statusInText(%j) → %s', (text, status) => {
    expect(statusInText(text)).toBe(status);
  });

  test.each([
    ['Retry-After: 30', 30_000],
    ['retry after 1.5 seconds', 1_500],
    ['try again in 250 ms', 250],
    ['retry in 2 minutes', 120_000],
    ['"retry_after_ms": 800', 800],
    ['no hint here', undefined],
  ])('retryHintInText(%j) → %s ms', (text, ms) => {
    expect(retryHintInText(text)).toBe(ms);
  });

  test('a hint is capped at 1 hour; structured retryAfterMs wins over the text', () => {
    expect(retryHintInText('retry after 99999 seconds')).toBe(MAX_HINT_MS);
    expect(readResultSignals({ error: { message: 'x', retryAfterMs: 1_200 } }, 'retry after 30 s')).toMatchObject({
      retryAfterMs: 1_200,
    });
  });
});

describe('the tables', () => {
  test('MCP_ERROR_RULES: ids unique, every row cites its source; ANNOTATION_RULES likewise, the last row takes every tool', () => {
    const tables: readonly (readonly { id: string; cite: string }[])[] = [MCP_ERROR_RULES, ANNOTATION_RULES];
    for (const rows of tables) {
      expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length);
      for (const r of rows) expect([r.id, r.cite.length > 10]).toEqual([r.id, true]);
    }
    expect(ANNOTATION_RULES.at(-1)).toMatchObject({ id: 'write', effect: 'write', idempotent: false });
  });

  test.each([
    ['untrusted read-only', { readOnlyHint: true }, false, 'untrusted', 'write', { carrier: 'none' }],
    ['read-only', { readOnlyHint: true }, true, 'read_only', 'read', { carrier: 'none' }],
    [
      'read-only and destructive (contradiction)',
      { readOnlyHint: true, destructiveHint: true },
      true,
      'contradiction',
      'write',
      { carrier: 'none' },
    ],
    [
      'idempotent write',
      { readOnlyHint: false, idempotentHint: true },
      true,
      'idempotent_write',
      'write',
      { carrier: 'arguments', deduplicates: true },
    ],
    ['no annotations', {}, true, 'write', 'write', { carrier: 'none' }],
  ])('annotations: %s → rule %s', (_label, annotations, trusted, rule, effect, idempotency) => {
    expect(decideAnnotations({ annotations }, trusted).rule).toBe(rule);
    expect(mcpToolEffect({ annotations }, trusted)).toEqual({ effect, idempotency });
  });

  test('annotations: a tool override wins; an idempotency key argument carries the operation_id', () => {
    expect(mcpToolEffect({ annotations: { readOnlyHint: true } }, true, { effect: 'write' })).toEqual({
      effect: 'write',
      idempotency: { carrier: 'none' },
    });
    expect(mcpToolEffect({}, false, { idempotencyKey: 'key', deduplicates: true })).toEqual({
      effect: 'write',
      idempotency: { carrier: 'field', name: 'key', deduplicates: true },
    });
    expect(mcpToolEffect({ annotations: { idempotentHint: true } }, true, { idempotencyKey: 'key' })).toEqual({
      effect: 'write',
      idempotency: { carrier: 'field', name: 'key', deduplicates: true },
    });
    expect(mcpToolEffect({}, false, { effect: 'read', idempotencyKey: 'key' })).toEqual({
      effect: 'read',
      idempotency: { carrier: 'none' },
    });
  });
});

test('zodFromInputSchema never throws on a schema whose reads throw (a getter, a Proxy): it accepts any object', () => {
  const getter = {
    type: 'object',
    get properties(): unknown {
      throw new Error('getter');
    },
  };
  const proxy = new Proxy(
    {},
    {
      get() {
        throw new Error('trap');
      },
    },
  );
  for (const schema of [getter, proxy, { type: 'object', properties: { a: getter } }]) {
    const s = zodFromInputSchema(schema);
    expect([s.safeParse({ a: 1 }).success, s.safeParse(1).success]).toEqual([true, false]);
    expect(zodFromJsonSchema(schema).safeParse(1).success).toBe(true);
  }
});
