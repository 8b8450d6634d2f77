/** Probe: is a memo upserted by attempt 1 of a (cron) run visible to its retry, and to the next cron run? */
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';

const address = process.env.ADDRESS ?? '127.0.0.1:7931';
const seen: { tag: string; facts: Record<string, unknown> }[] = [];
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main() {
  const taskQueue = `probe-${Date.now()}`;
  const worker = await Worker.create({
    connection: await NativeConnection.connect({ address }),
    taskQueue,
    workflowsPath: require.resolve('./probe-workflows'),
    activities: { async report(tag: string, facts: Record<string, unknown>) { seen.push({ tag, facts }); } },
  });
  const client = new Client({ connection: await Connection.connect({ address }) });
  await worker.runUntil(async () => {
    await client.workflow.execute('probe', {
      taskQueue, workflowId: `probe-memo-retry-${Date.now()}`, args: ['retry', { failUntilAttempt: 2, memo: true }],
      retry: { maximumAttempts: 2, initialInterval: '100ms' }, memo: { given: 'at start' },
    });
    const cronId = `probe-memo-cron-${Date.now()}`;
    await client.workflow.start('probe', {
      taskQueue, workflowId: cronId, args: ['cron', { failUntilAttempt: 2, memo: true }], cronSchedule: '@every 3s',
      retry: { maximumAttempts: 2, initialInterval: '100ms' }, memo: { given: 'at start' },
    });
    await pause(8_000);
    await client.workflow.getHandle(cronId).terminate('probe done');
  });
  for (const s of seen) console.log(s.tag, s.facts.attempt, (s.facts.runId as string).slice(0, 8), JSON.stringify(s.facts.memo));
}
main().then(() => process.exit(0), (e) => { console.error(e); process.exit(1); });
