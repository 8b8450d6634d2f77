/**
 * Real tools on the real dev server: `@modelcontextprotocol/server-filesystem` over stdio, its tools registered
 * in the RecoveryPlugin through the MCP adapter. Every number comes from the workflow's outcomes and history.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { filesystemTools, type FilesystemTools } from '../../examples/mcp-filesystem';
import { testEnv } from '../setup/env';
import { eventTypes, failedOutcome, harness, okOutcome } from './harness';

let env: TestWorkflowEnvironment;
let dir: string;
let root: string;
let fs: FilesystemTools;

beforeAll(async () => {
  env = await testEnv();
  dir = mkdtempSync(join(tmpdir(), 'rr-mcp-wf-'));
  root = join(dir, 'allowed');
  mkdirSync(root);
  writeFileSync(join(root, 'note.txt'), 'hello from mcp\n');
  mkdirSync(join(dir, 'outside'));
  writeFileSync(join(dir, 'outside', 'secret.txt'), 'not for the agent\n');
  fs = await filesystemTools([root], { stderr: 'ignore' });
});

afterAll(async () => {
  await fs?.close();
  await env?.teardown();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('MCP filesystem: a read succeeds; a missing file → replan after 1 attempt; a path outside → stop after 1 attempt', async () => {
  const h = await harness(env, fs.tools);
  const r = await h.run(() =>
    h.runPlan({
      calls: [
        { tool: 'fs_read_text_file', args: { path: join(root, 'note.txt') } },
        { tool: 'fs_read_text_file', args: { path: join(root, 'missing.txt') } },
        { tool: 'fs_read_text_file', args: { path: join(dir, 'outside', 'secret.txt') } },
      ],
      stopOnTerminal: false,
    }),
  );
  expect(r.outcomes).toHaveLength(3);

  const read = okOutcome(r.outcomes[0]);
  expect(read).toMatchObject({
    value: {
      content: [{ type: 'text', text: 'hello from mcp\n' }],
      structuredContent: { content: 'hello from mcp\n' },
    },
    attempts: 1,
    activities: 1,
  });

  const missing = failedOutcome(r.outcomes[1]);
  expect(missing).toMatchObject({
    action: 'replan',
    attempts: 1,
    activities: 1,
    failure: { class: 'semantic_rejection', reason: 'not_found', retryable: false, replaySafe: true },
  });
  expect([missing.failure.publicMessage, missing.failure.serverSaid]).toEqual([
    'fs_read_text_file: the MCP server reports that it does not exist.',
    "ENOENT: no such file or directory, open '[path]'",
  ]);

  const outside = failedOutcome(r.outcomes[2]);
  expect(outside).toMatchObject({
    action: 'stop',
    attempts: 1,
    activities: 1,
    failure: { class: 'authorization', reason: 'forbidden', retryable: false },
  });
  expect([outside.failure.publicMessage, outside.failure.serverSaid]).toEqual([
    'fs_read_text_file: the MCP server denied access.',
    'Access denied - path outside allowed directories: [path] not in [path]',
  ]);
  // Nothing the model sees names a folder of this host.
  expect(JSON.stringify([missing.feedback, outside.feedback])).not.toContain(dir);

  const types = eventTypes(await h.history(r.workflowId));
  expect(types.filter((t) => t === 'ACTIVITY_TASK_SCHEDULED')).toHaveLength(3);
  expect(types.filter((t) => t === 'ACTIVITY_TASK_FAILED')).toHaveLength(2);
});

test('MCP filesystem: bad arguments → repair in preflight: 1 activity that fails before anything reaches the server', async () => {
  const h = await harness(env, fs.tools);
  const r = await h.run(() => h.runPlan({ calls: [{ tool: 'fs_read_text_file', args: { path: 42 } }] }));
  const out = failedOutcome(r.outcomes[0]);
  expect(out).toMatchObject({
    action: 'repair',
    attempts: 1,
    activities: 1,
    failure: { class: 'invalid_arguments', reason: 'schema', phase: 'preflight' },
  });
  expect(out.feedback.issues).toEqual([expect.objectContaining({ path: ['path'], received: '42' })]);
});
