/**
 * Probe: what an activity attempt sees after `temporal activity reset` (and `update-options`): its attempt, its
 * scheduled times, and the heartbeat details an earlier attempt recorded (also after a detail-less heartbeat).
 * `ADDRESS=127.0.0.1:7931 npx ts-node --transpile-only notes/lifecycle-probes/activity.ts`.
 */
import { execFileSync } from 'node:child_process';
import { Context } from '@temporalio/activity';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';

const address = process.env.ADDRESS ?? '127.0.0.1:7931';
const CLI = '/work/wt/lifecycle/.temporal/bin/temporal';
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main() {
  const taskQueue = `probe-act-${Date.now()}`;
  const worker = await Worker.create({
    connection: await NativeConnection.connect({ address }),
    taskQueue,
    workflowsPath: require.resolve('./probe-workflows'),
    activities: {
      async report() {},
      async beatOnce(mode: string) {
        const ctx = Context.current();
        const { info } = ctx;
        console.log(mode, JSON.stringify({
          attempt: info.attempt,
          scheduled: info.scheduledTimestampMs,
          currentAttemptScheduled: info.currentAttemptScheduledTimestampMs,
          heartbeatDetails: info.heartbeatDetails ?? null,
        }));
        if (info.attempt > 1 || info.heartbeatDetails !== undefined) return 'second';
        ctx.heartbeat({ mark: 1 });
        try {
          for (let i = 0; i < 25; i++) {
            await ctx.sleep(300);
            ctx.heartbeat(mode.includes('bare') ? undefined : { mark: 1 });
          }
        } catch (err) {
          console.log(mode, 'attempt ended by', (err as Error).name, (err as Error).message);
          throw err;
        }
        return 'late';
      },
      async hangOnce(mode: string) {
        const { info } = Context.current();
        console.log(mode, JSON.stringify({
          attempt: info.attempt,
          scheduledTimestampMs: info.scheduledTimestampMs,
          currentAttemptScheduledTimestampMs: info.currentAttemptScheduledTimestampMs,
          startedTimestampMs: info.startedTimestampMs,
          heartbeatDetails: info.heartbeatDetails ?? null,
        }));
        if (info.attempt > 1 || info.heartbeatDetails !== undefined) return 'second';
        Context.current().heartbeat({ mark: 1 });
        if (mode.endsWith('+bare')) {
          await pause(300);
          Context.current().heartbeat();
        }
        await pause(10_000);
        return 'late';
      },
    },
  });
  const client = new Client({ connection: await Connection.connect({ address }) });
  await worker.runUntil(async () => {
    for (const mode of (process.env.MODES ?? 'reset,reset+bare,update-options').split(',')) {
      const wid = `probe-act-${mode}-${Date.now()}`;
      const type = mode.startsWith('beat') ? 'beatProbe' : 'hangProbe';
      const h = await client.workflow.start(type, { taskQueue, workflowId: wid, args: [mode] });
      await pause(1000);
      const args =
        mode.endsWith('update-options')
          ? ['activity', 'update-options', '--retry-maximum-attempts', '3']
          : mode.endsWith('pause')
            ? ['activity', 'pause']
            : ['activity', 'reset'];
      execFileSync(CLI, [...args, '--address', address, '--workflow-id', wid, '--activity-id', '1']);
      const r = await h.result().catch((e: Error) => `failed: ${e.message} / ${(e.cause as Error)?.message}`);
      console.log(mode, 'result', r);
    }
  });
}
main().then(() => process.exit(0), (e) => { console.error(e); process.exit(1); });
