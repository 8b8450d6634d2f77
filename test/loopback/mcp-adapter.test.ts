/**
 * The MCP adapter against the real `@modelcontextprotocol/server-filesystem`, started over stdio on a temporary
 * folder (no Temporal). Each call goes the way the tool activity takes it: the input schema (preflight), then
 * `execute`, and what it throws through `classify` with the tool's own `classify` hook; a result through the
 * output schema.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { AnyTool } from '../../activities/define-tool';
import { connectMcp, McpAdapterError, McpCallError, mcpTools } from '../../mcp';
import { mcpClassifierFor } from '../../activities/mcp/error-map';

const mcpClassifier = mcpClassifierFor();
import { classify, classifyZodError } from '../../recovery/classify';
import type { ToolFailure } from '../../recovery/failure';
import { routeFor } from '../../recovery/routes';
import { filesystemTools, type FilesystemTools } from '../../examples/mcp-filesystem';
import { callContext as baseCallContext, toolContext } from '../fixtures/tool-contexts';

let dir: string;
let root: string;
let outsideFile: string;
let fs: FilesystemTools;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'rr-mcp-'));
  root = join(dir, 'allowed');
  mkdirSync(root);
  writeFileSync(join(root, 'note.txt'), 'hello from mcp\n');
  mkdirSync(join(dir, 'outside'));
  outsideFile = join(dir, 'outside', 'secret.txt');
  writeFileSync(outsideFile, 'not for the agent\n');
  fs = await filesystemTools([root], { stderr: 'ignore' });
});

afterAll(async () => {
  await fs?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const tool = (name: string, from: FilesystemTools = fs): AnyTool => {
  const t = from.tools.find((x) => x.name === name);
  if (!t) throw new Error(`no tool ${name}`);
  return t;
};

const callContext = (t: AnyTool) => baseCallContext(t, 'test/mcp/1');

type Answer = { ok: true; value: unknown } | { ok: false; failure: ToolFailure; thrown?: unknown };

/** `execute` then the output schema; what it throws goes through `classify` with the tool's hook. */
async function dispatch(t: AnyTool, args: unknown): Promise<Answer> {
  try {
    const raw: unknown = await t.execute(args, toolContext(t));
    return { ok: true, value: t.output.parse(raw) };
  } catch (err) {
    return { ok: false, failure: classify({ kind: 'thrown', error: err }, callContext(t), t.classify), thrown: err };
  }
}

/** The activity's order: the input schema first (nothing dispatched when it fails), then `dispatch`. */
async function invoke(t: AnyTool, args: unknown): Promise<Answer> {
  const parsed = t.input.safeParse(args);
  if (!parsed.success) {
    return {
      ok: false,
      failure: classifyZodError(parsed.error, callContext(t), { input: args, jsonSchema: t.spec.inputSchema }),
    };
  }
  return dispatch(t, parsed.data);
}

const failureOf = (a: Answer): ToolFailure => {
  if (a.ok) throw new Error(`expected a failure, got ${JSON.stringify(a.value)}`);
  return a.failure;
};

test('mcpTools: the server offers 14 tools, named fs_<name>, read-only ones from readOnlyHint, the rest writes', () => {
  expect(fs.tools.map((t) => [t.name, t.effect])).toEqual([
    ['fs_read_file', 'read'],
    ['fs_read_text_file', 'read'],
    ['fs_read_media_file', 'read'],
    ['fs_read_multiple_files', 'read'],
    ['fs_write_file', 'write'],
    ['fs_edit_file', 'write'],
    ['fs_create_directory', 'write'],
    ['fs_list_directory', 'read'],
    ['fs_list_directory_with_sizes', 'read'],
    ['fs_directory_tree', 'read'],
    ['fs_move_file', 'write'],
    ['fs_search_files', 'read'],
    ['fs_get_file_info', 'read'],
    ['fs_list_allowed_directories', 'read'],
  ]);
  const read = tool('fs_read_text_file');
  expect(read.idempotency).toEqual({ carrier: 'none' });
  expect(read.downstream).toBe('mcp:secure-filesystem-server');
  expect(read.classify).toEqual(expect.any(Function)); // the table with this server's codes (mcpClassifierFor)
  expect(read.spec.inputSchema).toMatchObject({
    type: 'object',
    properties: {
      path: { type: 'string' },
      head: { type: 'number', description: 'If provided, returns only the first N lines of the file' },
    },
    required: ['path'],
  });
});

test('read_text_file on an existing file → its text, as content and structuredContent', async () => {
  const a = await invoke(tool('fs_read_text_file'), { path: join(root, 'note.txt') });
  expect(a).toEqual({
    ok: true,
    value: {
      content: [{ type: 'text', text: 'hello from mcp\n' }],
      structuredContent: { content: 'hello from mcp\n' },
    },
  });
});

test('a relative path resolves inside the allowed folder → the same text', async () => {
  const a = await invoke(tool('fs_read_text_file'), { path: 'note.txt' });
  expect(a).toMatchObject({ ok: true, value: { structuredContent: { content: 'hello from mcp\n' } } });
});

test('a missing file → isError "ENOENT" → semantic_rejection/not_found, replay-safe, route replan, no host path', async () => {
  const a = await invoke(tool('fs_read_text_file'), { path: join(root, 'missing.txt') });
  const f = failureOf(a);
  expect(f).toEqual({
    tool: 'fs_read_text_file',
    callId: 'call-1',
    class: 'semantic_rejection',
    reason: 'not_found',
    phase: 'dispatch',
    retryable: false,
    replaySafe: true,
    publicMessage: 'fs_read_text_file: the MCP server reports that it does not exist.',
    serverSaid: "ENOENT: no such file or directory, open '[path]'",
    diagnosticRef: 'test/mcp/1',
  });
  expect(routeFor(f).action).toBe('replan');
  // The raw facts stay in the thrown error (for the operator's log), with the real path.
  expect(a.ok ? undefined : a.thrown).toMatchObject({
    name: 'McpCallError',
    source: 'result',
    code: 'mcp_call_failed',
    rpcCode: undefined,
    detail: `ENOENT: no such file or directory, open '${join(root, 'missing.txt')}'`,
  });
});

test('a path outside the allowed folder → authorization/forbidden, route stop; the message has no host path', async () => {
  const f = failureOf(await invoke(tool('fs_read_text_file'), { path: outsideFile }));
  expect(f).toMatchObject({ class: 'authorization', reason: 'forbidden', retryable: false, replaySafe: true });
  expect([f.publicMessage, f.serverSaid]).toEqual([
    'fs_read_text_file: the MCP server denied access.',
    'Access denied - path outside allowed directories: [path] not in [path]',
  ]);
  expect(JSON.stringify(f)).not.toContain(dir);
  expect(routeFor(f).action).toBe('stop');
});

test('a write outside the allowed folder → authorization/forbidden as well, and nothing is written', async () => {
  const target = join(dir, 'outside', 'new.txt');
  const f = failureOf(await invoke(tool('fs_write_file'), { path: target, content: 'x' }));
  expect(f).toMatchObject({ class: 'authorization', reason: 'forbidden', replaySafe: true });
  expect(() => readFileSync(target)).toThrow(/ENOENT/);
});

test('a write inside the folder → applied: the server answers and the file holds the text', async () => {
  const a = await invoke(tool('fs_write_file'), { path: join(root, 'out.txt'), content: 'written by a tool' });
  expect(a).toMatchObject({ ok: true, value: { structuredContent: { content: expect.stringContaining('out.txt') } } });
  expect(readFileSync(join(root, 'out.txt'), 'utf8')).toBe('written by a tool');
});

test('bad params → invalid_arguments in preflight from the MCP input schema, nothing dispatched', async () => {
  const f = failureOf(await invoke(tool('fs_read_text_file'), { path: 42 }));
  expect(f).toMatchObject({ class: 'invalid_arguments', reason: 'schema', phase: 'preflight', replaySafe: true });
  expect(f.issues).toEqual([
    { path: ['path'], expected: 'string', received: '42', suggestion: 'change path to a string' },
  ]);
  expect(routeFor(f).action).toBe('repair');
  const missing = failureOf(await invoke(tool('fs_read_text_file'), {}));
  expect(missing.issues).toEqual([
    { path: ['path'], expected: 'string', received: 'missing', suggestion: 'add path (string)' },
  ]);
  // The words come from the tool's JSON Schema: `head` is the server's "number" (a wrong key is named too).
  const typo = failureOf(await invoke(tool('fs_read_text_file'), { path: 'note.txt', head: '3' }));
  expect(typo.issues).toEqual([
    { path: ['head'], expected: 'number', received: '"3"', suggestion: 'send 3 as a number, without quotes' },
  ]);
});

test("bad params the server sees (preflight bypassed) → its -32602 'Input validation error' → invalid_arguments", async () => {
  const a = await dispatch(tool('fs_read_text_file'), { path: 42 });
  const f = failureOf(a);
  expect(f).toMatchObject({ class: 'invalid_arguments', reason: 'schema', phase: 'dispatch', replaySafe: true });
  expect([f.publicMessage, f.serverSaid]).toEqual([
    'fs_read_text_file: the MCP server rejected the arguments.',
    'Input validation error: Invalid arguments for tool read_text_file: Invalid input: expected string, received number at path',
  ]);
  expect(a.ok ? undefined : a.thrown).toMatchObject({ source: 'result', code: 'mcp_call_failed', rpcCode: -32602 });
  expect(routeFor(f).action).toBe('repair');
});

test('an unknown tool name → the server\'s "Tool … not found" (-32602) → capability_missing/unknown_tool', async () => {
  const result = await fs.client.callTool({ name: 'format_disk', arguments: {} });
  expect(result).toEqual({
    content: [{ type: 'text', text: 'MCP error -32602: Tool format_disk not found' }],
    isError: true,
  });
  const error = McpCallError.fromResult('format_disk', result);
  const ctx = { ...callContext(tool('fs_read_text_file')), tool: 'fs_format_disk' };
  const f = classify({ kind: 'thrown', error }, ctx, mcpClassifier);
  expect(f).toMatchObject({ class: 'capability_missing', reason: 'unknown_tool', replaySafe: true });
  expect([f.publicMessage, f.serverSaid]).toEqual([
    'fs_format_disk: the MCP server does not offer this tool.',
    'Tool format_disk not found',
  ]);
  expect(routeFor(f).action).toBe('replan');
});

test('mcpTools: include adopts the named tools in its order; a name the server lacks → unknown_tool', async () => {
  const two = await mcpTools(fs.client, { include: ['list_directory', 'read_text_file'], prefix: 'x.' });
  expect(two.map((t) => t.name)).toEqual(['x.list_directory', 'x.read_text_file']);
  await expect(mcpTools(fs.client, { include: ['format_disk'] })).rejects.toMatchObject({
    name: 'McpAdapterError',
    code: 'unknown_tool',
    message: expect.stringMatching(
      /^mcpTools: include names "format_disk", which the server does not offer \(it offers: read_file, /,
    ),
  });
  await expect(mcpTools(fs.client, { prefix: 'bad prefix!' })).rejects.toMatchObject({ code: 'invalid_options' });
});

test('connectMcp: a command that cannot start, or a server that exits before the handshake → connect_failed', async () => {
  const missing = connectMcp({ command: join(dir, 'no-such-server'), stderr: 'ignore' });
  await expect(missing).rejects.toBeInstanceOf(McpAdapterError);
  await expect(missing).rejects.toMatchObject({
    code: 'connect_failed',
    message: expect.stringContaining(`could not start the MCP server "${join(dir, 'no-such-server')}"`),
  });
  await expect(
    connectMcp({ command: process.execPath, args: ['-e', 'process.exit(3)'], stderr: 'ignore' }),
  ).rejects.toMatchObject({ code: 'connect_failed' });
  await expect(connectMcp({ command: '' })).rejects.toMatchObject({
    code: 'invalid_options',
    message: 'connectMcp: `command` must be a non-empty string (the executable to start)',
  });
});

describe('a server process that dies', () => {
  let dying: FilesystemTools;
  beforeAll(async () => {
    dying = await filesystemTools([root], { stderr: 'ignore', reconnect: false });
  });
  afterAll(async () => {
    await dying?.close();
  });

  test('killed while a read and a write wait → read transient (retryable), write outcome_unknown; then "Not connected" → transient, not sent', async () => {
    const pid = (dying.client.transport as StdioClientTransport).pid;
    expect(pid).toEqual(expect.any(Number));
    // Stopped, the server cannot answer: both requests are sent and wait; then the process is killed.
    process.kill(pid!, 'SIGSTOP');
    const read = dispatch(tool('fs_read_text_file', dying), { path: join(root, 'note.txt') });
    const write = dispatch(tool('fs_write_file', dying), { path: join(root, 'never.txt'), content: 'x' });
    process.kill(pid!, 'SIGKILL');
    const [r, w] = [failureOf(await read), failureOf(await write)];
    expect(r).toMatchObject({
      class: 'transient',
      reason: 'network',
      phase: 'dispatch',
      retryable: true,
      replaySafe: true,
      publicMessage:
        'fs_read_text_file: the connection to the MCP server closed before it answered; the read can be retried.',
    });
    expect(routeFor(r).action).toBe('retry');
    expect(w).toMatchObject({
      class: 'outcome_unknown',
      reason: 'network',
      phase: 'commit_unknown',
      retryable: false,
      replaySafe: false,
      publicMessage:
        'fs_write_file: the connection to the MCP server closed before it answered after the write was sent; it may or may not have been applied. Check its status before any new attempt.',
    });
    expect(routeFor(w).action).toBe('reconcile');

    const after = failureOf(
      await dispatch(tool('fs_write_file', dying), { path: join(root, 'never.txt'), content: 'x' }),
    );
    expect(after).toMatchObject({
      class: 'transient',
      reason: 'network',
      phase: 'dispatch',
      retryable: true,
      replaySafe: true,
      publicMessage:
        'fs_write_file: the MCP server is not connected (its process exited or the client was closed); the request was not sent, so it is safe to try again.',
    });
    expect(() => readFileSync(join(root, 'never.txt'))).toThrow(/ENOENT/);
  });
});
