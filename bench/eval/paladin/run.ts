/** Runs one PALADIN key through the router and judges it (bench/eval/paladin/plan.ts). */
import { collect, runRouter } from '../driver';
import type { Eval } from '../env';
import type { IoEnv } from './faults';
import { paladinKey } from './keys';
import { paladinRun, type PaladinVerdict } from './plan';

export async function runPaladinKey(
  ev: Eval,
  key: string,
  o: { index: number; random: () => number; io: IoEnv; slot?: Eval['slots'][number] },
): Promise<PaladinVerdict> {
  const runId = `ev-paladin-${o.index}`;
  try {
    return await runKey(ev, key, runId, o);
  } catch (err) {
    console.error(`PALADIN ${key}: the run broke: ${String((err as Error)?.stack ?? err)}`);
    const k = paladinKey(key);
    return {
      key,
      category: k.category,
      expectedAction: k.expectedAction,
      action: 'error',
      correct: false,
      recovered: false,
      hallucinatedSuccess: false,
      world: k.world,
      goalReached: false,
      toolCalls: 0,
      dispatches: 0,
      status: 'error',
      actions: [],
    };
  }
}

async function runKey(ev: Eval, key: string, runId: string, o: Parameters<typeof runPaladinKey>[2]) {
  const run = paladinRun(key, {
    runId,
    index: o.index,
    env: ev.env,
    io: o.io,
    random: o.random,
    ...(o.slot ? { slot: o.slot } : {}),
  });
  await run.arrange();
  const { outcome, records } = await runRouter(ev, runId, run.goal, run.script, run.approves);
  const verdict = run.judge({ ...outcome, ...collect(ev, runId, { curedAtMs: () => null }) }, records);
  ev.env.recorder.forget(runId);
  return verdict;
}
