/**
 * One run of an eval scenario (bench/eval/scenarios) as plain activities, on one arm: the scenario's faults for the
 * seed, the script's steps through `plainToolsWorkflow` under Temporal's default retry policy (cut off at `capMs`
 * per call, as the eval's `temporal-default`), then the eval's own scoring: the recorder's dispatches with the
 * oracle's cure times (retries, wasted retries, identical re-executions, wasted retry time) and the judge's verdict
 * on the services' rows. The same seed on every arm: the same fault schedule.
 */
import { collect } from '../eval/driver';
import { baselineSteps } from '../eval/baseline/plan';
import type { BaselineResult } from '../eval/baseline/workflow';
import type { Eval } from '../eval/env';
import { baselineOptions } from '../eval/policies';
import type { RunOutcome, Scenario } from '../eval/scenario';
import { retryStats } from '../eval/scoring';
import { queueOf, type Arm } from './arms';

export interface PlainRunScore {
  scenario: string;
  arm: Arm;
  seed: number;
  correct: boolean;
  status: string;
  dispatches: number;
  retries: number;
  wasted: number;
  identicalReexecutions: number;
  wastedRetryMs: number;
  duplicateSideEffects: number;
  finalState: string;
}

export interface RunSpec {
  seed: number;
  index: number;
  random: () => number;
  capMs: number;
}

/** Runs `scenario` once on `arm`; a run that breaks (the harness, not a tool) is scored wrong with its reason. */
export async function runPlain(ev: Eval, scenario: Scenario, arm: Arm, run: RunSpec): Promise<PlainRunScore> {
  const runId = `sh-${scenario.name}-${arm}-${run.seed}`;
  const base = { scenario: scenario.name, arm, seed: run.seed };
  try {
    const prepared = scenario.prepare({ ...run, runId, policy: 'temporal-default', env: ev.env });
    await prepared.arrange?.();
    const timeoutOf = (tool: string) => ev.catalog.find((t) => t.name === tool)?.startToCloseTimeoutMs ?? 5_000;
    const startMs = Date.now();
    const handle = await ev.client.workflow.start('plainToolsWorkflow', {
      taskQueue: queueOf(arm),
      workflowId: runId,
      args: [
        {
          steps: baselineSteps(prepared.script, timeoutOf),
          submit: prepared.script.submit,
          options: baselineOptions('temporal-default', run.capMs),
        },
      ],
    });
    const r = (await handle.result()) as BaselineResult;
    const outcome: RunOutcome = {
      status: r.status,
      result: r.result,
      ...(r.reason ? { reason: r.reason } : {}),
      startMs,
      endMs: Date.now(),
      actions: [],
      ...collect(ev, runId, prepared),
    };
    await prepared.settle?.();
    const verdict = prepared.judge(outcome);
    ev.env.recorder.forget(runId);
    return {
      ...base,
      correct: verdict.correct,
      status: outcome.status,
      dispatches: outcome.dispatches.length,
      ...retryStats(outcome.dispatches),
      duplicateSideEffects: verdict.duplicateSideEffects,
      finalState: verdict.finalState,
    };
  } catch (err) {
    const zero = { dispatches: 0, retries: 0, wasted: 0, identicalReexecutions: 0, wastedRetryMs: 0 };
    return { ...base, ...zero, correct: false, status: 'error', duplicateSideEffects: 0, finalState: String(err) };
  }
}
