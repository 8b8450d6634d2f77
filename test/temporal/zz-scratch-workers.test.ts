import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { z } from 'zod';
import { defineTool } from '../../activities/define-tool';
import { testEnv } from '../setup/env';
import { harness } from './harness';

let env: TestWorkflowEnvironment;
beforeAll(async () => { env = await testEnv(); });
afterAll(async () => { await env?.teardown(); });
const echo = defineTool({
  name: 'echo', description: 'e', input: z.object({ n: z.number() }), output: z.object({ n: z.number() }), effect: 'read',
  async execute(a) { return { n: a.n }; },
});
const N = Number(process.env.SCRATCH_N ?? 10);
const MODE = process.env.SCRATCH_MODE ?? 'per-test';
test('workers', async () => {
  const t0 = process.cpuUsage();
  if (MODE === 'per-test') {
    for (let i = 0; i < N; i++) {
      const h = await harness(env, [echo]);
      await h.run(() => h.runPlan({ calls: [{ tool: 'echo', args: { n: i } }] }));
    }
  } else if (MODE === 'shared') {
    const h = await harness(env, [echo]);
    await h.run(async () => { for (let i = 0; i < N; i++) await h.runPlan({ calls: [{ tool: 'echo', args: { n: i } }] }); });
  }
  const u = process.cpuUsage(t0);
  console.log(`SCRATCH ${MODE} N=${N} cpu=${((u.user + u.system) / 1e6).toFixed(2)} s`);
}, 600_000);
