/**
 * The `approvals` commands of the CLI (operator/cli-approvals.ts) as an operator runs them, in a child process against
 * the run's dev server: `pending` names its columns, `list` labels each field of a waiting call, and what it shows is
 * what `approve` takes (the call id and the digest). docs/approvals.md, "From the command line".
 */
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import type { ToolContext } from '../../activities/tool-context';
import { startScriptedService, type ScriptedService } from '../../examples/scripted-service';
import { listApprovals, pendingApprovals } from '../../client';
import { RecoveryPlugin } from '../../plugin/recovery-plugin';
import { testEnv, uniqueTaskQueue } from '../setup/env';
import { TS_CHILD_ARGS } from '../setup/ts-child';
import { GATED_SCRIPT, gatedExportTool } from './fixtures/gated-export-tool';
import { FAST_BACKOFF } from './harness';

const ROOT = resolve(__dirname, '../..');
let env: TestWorkflowEnvironment;
let service: ScriptedService;
let worker: Worker;
let running: Promise<void>;
const seen: Array<{ month: string; approval: ToolContext['approval'] }> = [];
const taskQueue = uniqueTaskQueue('cli-approvals');
let workflowId: string;

/** The CLI's output for `args`, run as `npx recovery-router` runs it. */
async function cli(...args: string[]): Promise<string[]> {
  const { stdout } = await promisify(execFile)(process.execPath, [...TS_CHILD_ARGS, 'client.ts', ...args], {
    cwd: ROOT,
    env: { ...process.env, TEMPORAL_ADDRESS: process.env.TEMPORAL_TEST_ADDRESS },
    timeout: 60_000,
  });
  return stdout.split('\n');
}

beforeAll(async () => {
  env = await testEnv();
  service = await startScriptedService(GATED_SCRIPT);
  const plugin = new RecoveryPlugin({
    tools: [gatedExportTool(() => service.url, seen)],
    config: { taskQueue, backoff: FAST_BACKOFF },
  });
  worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    workflowsPath: require.resolve('./fixtures/parallel-approvals-workflow'),
    plugins: [plugin],
  });
  running = worker.run();
  workflowId = uniqueTaskQueue('cli-approvals-run');
  const calls = [{ tool: 'export_report', args: { month: '2026-11' }, callId: 'c-2026-11' }];
  await env.client.workflow.start('parallelCalls', {
    taskQueue,
    workflowId,
    args: [{ ...plugin.workflowDefaults(), calls }],
  });
  // Waiting, and listed by visibility (which trails the workflow by a moment).
  for (let i = 0; i < 600; i++) {
    const listed = await listApprovals(env.client);
    if (listed.some((a) => a.workflowId === workflowId)) break;
    await new Promise((r) => setTimeout(r, 100));
  }
});
afterAll(async () => {
  await env?.client.workflow
    .getHandle(workflowId)
    .terminate('test over')
    .catch(() => undefined);
  worker?.shutdown();
  await running;
  await service?.close();
});

test('approvals pending: a header row names the columns, then the waiting workflow, its tool and since when', async () => {
  const out = await cli('approvals', 'pending');
  expect(out[0]).toBe('workflowId\ttool\tsince');
  const row = out.find((l) => l.startsWith(`${workflowId}\t`))!;
  const started = (await env.client.workflow.getHandle(workflowId).describe()).startTime;
  expect(row.split('\t')).toEqual([workflowId, 'export_report', started.toISOString()]);
});

test('approvals list: each field of the waiting call labelled, the call id and digest as approve takes them', async () => {
  const [call] = await pendingApprovals(env.client, workflowId);
  const out = await cli('approvals', 'list', workflowId);
  expect(out.slice(0, 6)).toEqual([
    'callId      c-2026-11 (the <callId> of approve and deny)',
    '  tool       export_report',
    `  operation  ${call!.operationId}`,
    `  message    ${call!.message}`,
    `  argsDigest ${call!.argsDigest}`,
    '  args       {"month":"2026-11"}',
  ]);
});
