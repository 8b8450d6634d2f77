/**
 * Runs a tool through the real `invokeTool` activity (`createToolActivities` under `MockActivityEnvironment`, no
 * server) and returns what the workflow-side router gets: the ToolFailure from the ApplicationFailure's details
 * and its route. With `RR_BASELINE_DIR` set (a copy of another branch's `recovery/`), each provoked error is also
 * classified by that copy and one line `{ library, error, before, after }` is appended to `RR_BASELINE_OUT`: the
 * before/after table of issue 10.
 */
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { ApplicationFailure } from '@temporalio/common';
import { activityEnv } from '../fixtures/activity-env';
import type { CredentialBroker } from '../../activities/credentials';
import { defineTool, type AnyTool, type ToolDefinition } from '../../activities/define-tool';
import { createToolActivities } from '../../activities/invoke-tool';
import { DEFAULT_BACKOFF_POLICY } from '../../recovery/backoff';
import type { ToolFailure } from '../../recovery/failure';
import { z } from 'zod';
import { routeFor, type RecoveryAction } from '../../recovery/routes';

const silent = { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error() {} };

export interface Routed {
  failure: ToolFailure;
  action: RecoveryAction;
  /** What the tool's `execute` threw (undefined when the failure came from elsewhere). */
  thrown: unknown;
}

/**
 * A tool with no arguments whose `execute` runs `run` (where the provoked error is thrown) and returns `{}`.
 * @param more further definition fields (`errors`, `idempotency`, `credential`, …).
 */
export function toolCalling(
  name: string,
  effect: 'read' | 'write',
  run: () => unknown,
  more: Partial<ToolDefinition> = {},
): AnyTool {
  return defineTool({
    name,
    description: 'Calls a client library.',
    input: z.object({}),
    output: z.unknown(),
    effect,
    ...more,
    execute: async () => {
      await run();
      return {};
    },
  });
}

/** The fields every provoked error asserts. */
export function summary(r: Routed) {
  const f = r.failure;
  return { class: f.class, reason: f.reason, action: r.action, retryAfterMs: f.retryAfterMs, phase: f.phase };
}

/**
 * Runs `tool` once with `args` through the activity and returns its routed failure.
 * @throws Error when the call succeeds (a provoked error must fail).
 */
export async function invoke(
  tool: AnyTool,
  args: unknown,
  options: { credentials?: CredentialBroker; label?: [library: string, error: string] } = {},
): Promise<Routed> {
  let thrown: unknown;
  const watched = defineTool({
    ...tool,
    async execute(a: unknown, ctx) {
      try {
        return await tool.execute(a, ctx);
      } catch (err) {
        thrown = err;
        throw err;
      }
    },
  });
  const activities = createToolActivities({
    tools: [watched],
    backoff: DEFAULT_BACKOFF_POLICY,
    ...(options.credentials ? { credentials: options.credentials } : {}),
  });
  const env = activityEnv({ activityId: 'act-1' }, { logger: silent });
  const err = await env
    .run(activities.invokeTool, { tool: tool.name, args, callId: 'call-1', operationId: `op-${tool.name}` })
    .then(
      () => undefined,
      (e: unknown) => e,
    );
  if (!(err instanceof ApplicationFailure)) throw new Error(`expected an ApplicationFailure, got ${String(err)}`);
  const failure = (err.details as [ToolFailure])[0];
  const routed = { failure, action: routeFor(failure).action, thrown };
  if (options.label) recordBaseline(options.label, tool, routed);
  return routed;
}

/** Appends the before/after row when `RR_BASELINE_DIR` is set (see the module docs). */
function recordBaseline([library, error]: [string, string], tool: AnyTool, after: Routed): void {
  const dir = process.env.RR_BASELINE_DIR;
  const out = process.env.RR_BASELINE_OUT;
  if (!dir || !out) return;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const base = require(join(dir, 'recovery')) as {
    classify: (raw: unknown, ctx: unknown) => ToolFailure;
    routeFor: (f: ToolFailure) => { action: string };
  };
  const ctx = {
    tool: tool.name,
    callId: 'call-1',
    effect: tool.effect,
    deduplicates: tool.effect === 'write' && tool.idempotency.carrier !== 'none' && tool.idempotency.deduplicates,
    approvalCanLift: false,
    nowMs: Date.now(),
    diagnosticRef: 'baseline',
  };
  const before = after.thrown === undefined ? undefined : base.classify({ kind: 'thrown', error: after.thrown }, ctx);
  const row = {
    library,
    error,
    effect: tool.effect,
    before: before ? `${before.class}/${before.reason} → ${base.routeFor(before).action}` : '(not a thrown error)',
    after: `${after.failure.class}/${after.failure.reason} → ${after.action}`,
  };
  appendFileSync(out, `${JSON.stringify(row)}\n`);
}

/**
 * Asserts model-visible text carries none of the given secrets (host, port, SQL values, keys) and no stack frame.
 * @throws the jest assertion error naming the leak.
 */
export function expectClean(text: string, secrets: readonly (string | number)[]): void {
  for (const s of secrets) expect(text).not.toContain(String(s));
  expect(text).not.toMatch(/\n\s+at |\bat [\w.<>]+ \(|\.ts:\d+|\.js:\d+/);
  expect(text).not.toMatch(/127\.0\.0\.1|localhost/);
}
