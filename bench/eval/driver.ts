/**
 * Runs one scenario (or one PALADIN key) once under one policy, on the eval's workers, and scores it:
 * - `router`: `agentWorkflow` with the scripted planner (the plugin's defaults: budgets, backoff, per-tool
 *   overrides), reconciliation reviews cut to 10 s so a run that would wait for a person escalates instead;
 * - `temporal-default`, `naive-3x`: `baselineAgentWorkflow` (bench/eval/baseline/) with that retry policy.
 * The run's dispatches and lookups come from the recorder; the end state from the services (the scenario's judge).
 */
import type { Client } from '@temporalio/client';
import { decideApproval, pendingApprovals } from '../../operator/approvals';
import type { RecoveryRecord } from '../../recovery/records';
import type { AgentResult } from '../../workflows/agent';
import { baselineSteps } from './baseline/plan';
import type { BaselineResult } from './baseline/workflow';
import { BASELINE_QUEUE, ROUTER_QUEUE, type Eval } from './env';
import { baselineOptions } from './policies';
import type { PreparedRun, RunOutcome, Scenario, Script } from './scenario';
import { retryStats, type PolicyName, type RunScore } from './scoring';

/** Reconciliation reviews wait this long for a person before they escalate, ms. */
const REVIEW_TIMEOUT_MS = 10_000;

/** The router's action per recorded call: the routed action, or `ok` for a call that never failed. */
export function routerActions(records: readonly RecoveryRecord[]): string[] {
  return records.map((r) => (r.class === undefined ? 'ok' : (r.action ?? r.terminal)));
}

/** Approves the first call of `workflowId` that waits for approval (the eval acts as the person). */
async function approveWhenWaiting(client: Client, workflowId: string, deadlineMs: number): Promise<void> {
  while (Date.now() < deadlineMs) {
    const waiting = await pendingApprovals(client, workflowId).catch(() => []);
    const call = waiting[0];
    if (call) {
      await decideApproval(client, workflowId, {
        callId: call.callId,
        argsDigest: call.argsDigest,
        approved: true,
        by: 'eval@example.org',
        reason: 'the success path of the catalogue grants access',
      });
      return;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Runs `script` through the router. */
export async function runRouter(
  ev: Eval,
  runId: string,
  goal: string,
  script: Script,
  approves = false,
): Promise<{ outcome: Omit<RunOutcome, 'dispatches' | 'lookups'>; records: RecoveryRecord[] }> {
  ev.planners.add(goal, script);
  const startMs = Date.now();
  const handle = await ev.client.workflow.start('agentWorkflow', {
    taskQueue: ROUTER_QUEUE,
    workflowId: runId,
    args: [goal, { ...ev.plugin.workflowDefaults(), reconcile: { reviewTimeoutMs: REVIEW_TIMEOUT_MS } }],
  });
  const approval = approves ? approveWhenWaiting(ev.client, runId, startMs + 60_000) : Promise.resolve();
  const r = (await handle.result()) as AgentResult;
  const endMs = Date.now();
  await approval;
  return {
    outcome: {
      status: r.status,
      result: r.result,
      ...(r.reason ? { reason: r.reason } : {}),
      startMs,
      endMs,
      actions: routerActions(r.records),
    },
    records: r.records,
  };
}

/** Runs `script` through a baseline policy. */
export async function runBaseline(
  ev: Eval,
  runId: string,
  script: Script,
  policy: Exclude<PolicyName, 'router'>,
  capMs: number,
): Promise<Omit<RunOutcome, 'dispatches' | 'lookups'>> {
  const timeoutOf = (tool: string) => ev.catalog.find((t) => t.name === tool)?.startToCloseTimeoutMs ?? 5_000;
  const startMs = Date.now();
  const handle = await ev.client.workflow.start('baselineAgentWorkflow', {
    taskQueue: BASELINE_QUEUE,
    workflowId: runId,
    args: [{ steps: baselineSteps(script, timeoutOf), submit: script.submit, options: baselineOptions(policy, capMs) }],
  });
  const r = (await handle.result()) as BaselineResult;
  return {
    status: r.status,
    result: r.result,
    ...(r.reason ? { reason: r.reason } : {}),
    startMs,
    endMs: Date.now(),
    actions: [],
  };
}

/** The recorder's view of a run, each failure stamped with the oracle's `curedAtMs`, in start order. */
export function collect(ev: Eval, runId: string, prepared: Pick<PreparedRun, 'curedAtMs'>) {
  const dispatches = ev.env.recorder
    .dispatchesOf(runId)
    .sort((a, b) => a.startMs - b.startMs)
    .map((d) => (d.failure === undefined ? d : { ...d, curedAtMs: prepared.curedAtMs(d) }));
  return { dispatches, lookups: ev.env.recorder.lookupsOf(runId) };
}

type RunSpec = { seed: number; index: number; random: () => number; capMs: number };

/** One run of `scenario` under `policy`, scored; a run that breaks (not a failed tool: the harness) is scored wrong. */
export async function runScenario(ev: Eval, scenario: Scenario, policy: PolicyName, run: RunSpec): Promise<RunScore> {
  try {
    return await scoreRun(ev, scenario, policy, run);
  } catch (err) {
    console.error(`${scenario.name}/${policy}/${run.seed}: the run broke: ${String((err as Error)?.stack ?? err)}`);
    const zero = {
      dispatches: 0,
      retries: 0,
      wasted: 0,
      identicalReexecutions: 0,
      wastedRetryMs: 0,
      duplicateSideEffects: 0,
    };
    return {
      seed: run.seed,
      correct: false,
      ...zero,
      msToCorrectAction: null,
      status: 'error',
      finalState: 'error',
      actions: [],
    };
  }
}

async function scoreRun(ev: Eval, scenario: Scenario, policy: PolicyName, run: RunSpec): Promise<RunScore> {
  const runId = `ev-${scenario.name}-${policy}-${run.seed}`;
  const prepared = scenario.prepare({
    runId,
    seed: run.seed,
    random: run.random,
    index: run.index,
    policy,
    env: ev.env,
  });
  await prepared.arrange?.();
  const base =
    policy === 'router'
      ? (await runRouter(ev, runId, prepared.goal, prepared.script)).outcome
      : await runBaseline(ev, runId, prepared.script, policy, run.capMs);
  const outcome: RunOutcome = { ...base, ...collect(ev, runId, prepared) };
  await prepared.settle?.();
  const verdict = prepared.judge(outcome);
  const actionsOk = policy !== 'router' || scenario.routerActions.every((a) => outcome.actions.includes(a));
  const correct = verdict.correct && actionsOk;
  const stats = retryStats(outcome.dispatches);
  ev.env.recorder.forget(runId);
  return {
    seed: run.seed,
    correct,
    dispatches: outcome.dispatches.length,
    ...stats,
    duplicateSideEffects: verdict.duplicateSideEffects,
    msToCorrectAction:
      correct && verdict.correctActionAtMs !== null ? Math.max(0, verdict.correctActionAtMs - outcome.startMs) : null,
    status: outcome.status,
    finalState: actionsOk ? verdict.finalState : `${verdict.finalState}; actions ${outcome.actions.join(',')}`,
    actions: outcome.actions,
    ...(outcome.reason ? { reason: outcome.reason.slice(0, 300) } : {}),
    timeline: outcome.dispatches.map((d) => ({
      tool: d.tool,
      atMs: d.startMs - outcome.startMs,
      ms: d.endMs - d.startMs,
      failure: d.failure ?? 'ok',
    })),
    endMs: outcome.endMs - outcome.startMs,
  };
}
