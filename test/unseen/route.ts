/**
 * Runs one unseen case through the real `invokeTool` activity (`createToolActivities` under
 * `MockActivityEnvironment`, no server), as test/dialects/invoke.ts does, and compares the answer with the
 * expectation. The tool has no `errors` dialect: the router must read the library's error on its own. A case may
 * bring an adapter's own tool instead (an MCP server's), called with its arguments.
 */
import { ApplicationFailure } from '@temporalio/common';
import { activityEnv } from '../fixtures/activity-env';
import { z } from 'zod';
import { defineTool, type AnyTool } from '../../activities/define-tool';
import { createToolActivities } from '../../activities/invoke-tool';
import { DEFAULT_BACKOFF_POLICY } from '../../recovery/backoff';
import type { FailureMeta, ToolFailure } from '../../recovery/failure';
import { routeFor } from '../../recovery/routes';
import type { Expected, Got, Row, UnseenCase } from './cases';

const silent = { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error() {} };

/** The tool name of a case id (`nodemailer.smtp-421.write` → `nodemailer_smtp-421_write`). */
function toolName(id: string): string {
  return id.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64);
}

/**
 * Routes one case. @returns what the router answered.
 * @throws Error when the client did not fail (a provoked error must fail) or the activity threw something else.
 */
export async function routeCase(c: UnseenCase): Promise<Got> {
  const tool = c.tool?.tool ?? toolAround(c);
  const activities = createToolActivities({ tools: [tool], backoff: DEFAULT_BACKOFF_POLICY });
  const env = activityEnv({ activityId: 'act-1' }, { logger: silent });
  const err = await env
    .run(activities.invokeTool, {
      tool: tool.name,
      args: c.tool?.args ?? {},
      callId: 'call-1',
      operationId: `op-${toolName(c.id)}`,
    })
    .then(
      () => new Error(`${c.id}: the client did not fail`),
      (e: unknown) => e,
    );
  if (!(err instanceof ApplicationFailure)) throw err instanceof Error ? err : new Error(String(err));
  const [failure, meta] = err.details as [ToolFailure, FailureMeta | undefined];
  if (process.env.RR_UNSEEN_DEBUG && c.tool) console.error(c.id, '←', failure.phase, failure.publicMessage);
  return {
    class: failure.class,
    reason: failure.reason,
    action: routeFor(failure).action,
    applied: failure.replaySafe ? 'no' : 'maybe',
    verify: meta?.postcondition === 'already',
  };
}

/** A tool with no schema and no dialect whose `execute` is the case's `run`: the router reads what it throws. */
function toolAround(c: UnseenCase): AnyTool {
  const verdict = c.verify;
  return defineTool({
    name: toolName(c.id),
    description: 'Calls a client library the router has no table for.',
    input: z.object({}),
    output: z.unknown(),
    effect: c.effect,
    ...(verdict ? { verify: async () => verdict } : {}),
    ...(c.classify ? { classify: c.classify } : {}),
    execute: async () => {
      try {
        await c.run();
      } catch (e) {
        if (process.env.RR_UNSEEN_DEBUG) console.error(c.id, '←', describeThrown(e));
        throw e;
      }
      return {};
    },
  });
}

/** Name, code and message of a thrown value, for `RR_UNSEEN_DEBUG=1` (operator-side only). */
function describeThrown(e: unknown): string {
  if (!(e instanceof Error)) return String(e);
  const code = (e as { code?: unknown }).code;
  const inner = e.cause ?? (e as { error?: unknown }).error;
  const cause = inner instanceof Error ? ` (inner ${inner.name}: ${inner.message})` : '';
  return `${e.constructor.name}${code === undefined ? '' : ` [${String(code)}]`}: ${e.message}${cause}`;
}

/** True when `got` routes as `expected`: class and action; for a write, `applied`; where set, `verify`. */
export function routesAsExpected(expected: Expected, got: Got, effect: UnseenCase['effect']): boolean {
  if (got.class !== expected.class || got.action !== expected.action) return false;
  if (effect === 'write' && expected.applied !== undefined && got.applied !== expected.applied) return false;
  if (expected.verify !== undefined && got.verify !== expected.verify) return false;
  return true;
}

/** Measures one case against its expectation; an error of the harness itself is a row that is not ok. */
export async function measureCase(library: string, c: UnseenCase, expected: Expected): Promise<Row> {
  const { source: _source, ...want } = expected;
  try {
    const got = await routeCase(c);
    return { library, id: c.id, effect: c.effect, expected: want, got, ok: routesAsExpected(expected, got, c.effect) };
  } catch (e) {
    const error = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
    return { library, id: c.id, effect: c.effect, expected: want, got: { error }, ok: false };
  }
}
