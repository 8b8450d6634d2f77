/**
 * The MCP error table (activities/mcp/error-map.ts) on the rows a healthy filesystem server never produces, with
 * the SDK's own error objects; and the JSON Schema → zod converter. Pure: no server, no process.
 */
import { McpError, ErrorCode, CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import {
  MCP_ERROR_RULES,
  McpCallError,
  matchMcpRule,
  mcpClassifier,
  mcpEffect,
  zodFromInputSchema,
} from '../../activities/mcp';
import { classify, type CallContext } from '../../recovery/classify';

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
  expect(f.publicMessage).toBe(
    'srv_tool: the MCP server rejected the arguments: Invalid arguments: path must be a string',
  );
});

test('error-map: -32602 "Unknown tool: x" (the spec\'s example) → capability_missing/unknown_tool', () => {
  expect(thrown(new McpError(ErrorCode.InvalidParams, 'Unknown tool: invalid_tool_name'))).toMatchObject({
    class: 'capability_missing',
    reason: 'unknown_tool',
  });
});

test('error-map: -32601 method not found → capability_missing/unknown_tool', () => {
  expect(thrown(new McpError(ErrorCode.MethodNotFound, 'Method not found'))).toMatchObject({
    class: 'capability_missing',
    reason: 'unknown_tool',
    publicMessage: 'srv_tool: the MCP server does not support this call: Method not found',
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
    publicMessage: "srv_tool: the MCP server denied access: EACCES: permission denied, open '[path]'",
  });
  expect(result('Parent directory does not exist: /srv/data/a')).toMatchObject({
    class: 'semantic_rejection',
    reason: 'not_found',
  });
  expect(result('Destination already exists: /srv/data/b', 'write')).toMatchObject({
    class: 'semantic_rejection',
    reason: 'business_rule',
    replaySafe: false,
    publicMessage: 'srv_tool: the MCP server refused the call: Destination already exists: [path]',
  });
});

test('error-map: a thrown error no row names (a socket error) is left to the built-in classifier', () => {
  const epipe = Object.assign(new Error('write EPIPE'), { code: 'EPIPE', syscall: 'write' });
  expect(matchMcpRule(McpCallError.fromThrown('tool', epipe))).toBeUndefined();
  expect(thrown(epipe, 'write')).toMatchObject({ class: 'outcome_unknown', reason: 'network' });
});

test('mcpEffect: readOnlyHint true → read; false, absent or untrusted annotations → write', () => {
  expect(mcpEffect({ annotations: { readOnlyHint: true } }, true)).toBe('read');
  expect(mcpEffect({ annotations: { readOnlyHint: false } }, true)).toBe('write');
  expect(mcpEffect({ annotations: { readOnlyHint: true } })).toBe('write'); // untrusted by default
  expect(mcpEffect({})).toBe('write');
  expect(mcpEffect({ annotations: { readOnlyHint: true } }, false)).toBe('write');
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

test('zodFromInputSchema: a schema without properties (or not an object) accepts any object, and only objects', () => {
  const s = zodFromInputSchema({ type: 'object' });
  expect(s.safeParse({ anything: [1] }).success).toBe(true);
  expect(s.safeParse('text').success).toBe(false);
  expect(zodFromInputSchema(null).safeParse({}).success).toBe(true);
});
