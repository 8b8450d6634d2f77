/**
 * Probe: what `workflowInfo()` holds for a fresh start, a reused workflow id, a retry, continue-as-new, a cron run
 * (and a retry inside one), a reset, a schedule's runs and signal-with-start on a closed id. Run against a dev server
 * started by hand: `ADDRESS=127.0.0.1:7931 npx ts-node notes/lifecycle-probes/facts.ts`.
 */
import { execFileSync } from 'node:child_process';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';

const address = process.env.ADDRESS ?? '127.0.0.1:7931';
const CLI = '/work/wt/lifecycle/.temporal/bin/temporal';
const seen: { tag: string; facts: Record<string, unknown> }[] = [];
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main() {
  const taskQueue = `probe-${Date.now()}`;
  const worker = await Worker.create({
    connection: await NativeConnection.connect({ address }),
    taskQueue,
    workflowsPath: require.resolve('./probe-workflows'),
    activities: {
      async report(tag: string, facts: Record<string, unknown>) {
        seen.push({ tag, facts });
      },
    },
  });
  const client = new Client({ connection: await Connection.connect({ address }) });
  const show = (tag: string) => {
    for (const s of seen.filter((x) => x.tag === tag)) console.log(tag, JSON.stringify(s.facts));
  };
  await worker.runUntil(async () => {
    const id = `probe-reuse-${Date.now()}`;
    await client.workflow.execute('probe', { taskQueue, workflowId: id, args: ['fresh'] });
    await client.workflow.execute('probe', { taskQueue, workflowId: id, args: ['reused'] });
    show('fresh');
    show('reused');
    await client.workflow.execute('probe', {
      taskQueue,
      workflowId: `probe-retry-${Date.now()}`,
      args: ['retry', { failUntilAttempt: 3 }],
      retry: { maximumAttempts: 3, initialInterval: '100ms' },
    });
    show('retry');
    await client.workflow.execute('probe', {
      taskQueue,
      workflowId: `probe-can-${Date.now()}`,
      args: ['can', { can: 2 }],
    });
    show('can');
    // reset of the completed reused-id run to its first workflow task.
    const out = execFileSync(CLI, ['workflow', 'reset', '--address', address, '-w', id, '--type', 'FirstWorkflowTask', '--reason', 'probe']).toString();
    console.log('reset:', out.trim());
    await pause(2000);
    show('reused');
    // cron every 2 s, with a retry on the second cron run's first attempt.
    const cronId = `probe-cron-${Date.now()}`;
    await client.workflow.start('probe', {
      taskQueue,
      workflowId: cronId,
      args: ['cron', { failUntilAttempt: 2 }],
      cronSchedule: '@every 3s',
      retry: { maximumAttempts: 2, initialInterval: '100ms' },
    });
    await pause(10_000);
    await client.workflow.getHandle(cronId).terminate('probe done');
    show('cron');
    // a schedule, every 2 s, overlap ALLOW_ALL
    const sched = await client.schedule.create({
      scheduleId: `probe-sched-${Date.now()}`,
      spec: { intervals: [{ every: '2s' }] },
      action: { type: 'startWorkflow', workflowType: 'probe', taskQueue, args: ['schedule', { sleepMs: 3000 }], workflowId: 'probe-sched-wf' },
      policies: { overlap: 'ALLOW_ALL' },
    });
    await pause(7_000);
    await sched.delete();
    show('schedule');
    // signal-with-start on a completed id
    const swsId = `probe-sws-${Date.now()}`;
    await client.workflow.execute('probe', { taskQueue, workflowId: swsId, args: ['sws'] });
    await client.workflow.signalWithStart('probe', { taskQueue, workflowId: swsId, args: ['sws'], signal: 'nothing', signalArgs: [] });
    await pause(2000);
    show('sws');
  });
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
