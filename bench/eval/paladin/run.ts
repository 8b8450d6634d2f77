/** Runs one PALADIN key through the router and judges it (bench/eval/paladin/plan.ts). */
import { collect, runRouter } from '../driver';
import type { Eval } from '../env';
import type { IoEnv } from './faults';
import { paladinRun, type PaladinVerdict } from './plan';

export async function runPaladinKey(
  ev: Eval,
  key: string,
  o: { index: number; random: () => number; io: IoEnv; slot?: Eval['slots'][number] },
): Promise<PaladinVerdict> {
  const runId = `ev-paladin-${o.index}`;
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
