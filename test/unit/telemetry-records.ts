/**
 * Recovery records for the telemetry tests (test/unit/telemetry.test.ts, test/unit/metrics.test.ts): one agent run
 * of three turns that meets every rule of recovery/telemetry.ts once. Not a test file.
 */
import type { RecoveryRecord } from '../../recovery/records';

const FULL_BUDGETS = { retries: 3, replans: 2, repairs: 2, runAttempts: 50 };

/** A success on the first attempt, with the fields a test overrides. */
export function rec(
  fields: Partial<RecoveryRecord> & Pick<RecoveryRecord, 'callId' | 'tool' | 'turn'>,
): RecoveryRecord {
  return {
    attempts: 1,
    activities: 1,
    budgetsLeft: FULL_BUDGETS,
    terminal: 'succeeded',
    durationMs: 20,
    ...fields,
  };
}

/**
 * 1. t1 check_inventory: 503, 503, 200 — 3 attempts in 1 activity: 2 retries, needed a retry and succeeded.
 * 2. t1 book_slot: 409 → replan (semantic_rejection).
 * 3. t2 book_slot: changed args, succeeds; 1 200 ms after the replan.
 * 4. t2 ghost_tool: unknown tool → replan (capability_missing), nothing dispatched.
 * 5. t3 get_quote: 503 × 4, retries spent → replan (transient), budget exhausted; 300 ms after the replan.
 * 6. t3 book_slot: 401, refresh, 401 → escalate (authentication), 2 activities × 1 attempt + a server retry = 3
 *    attempts; 600 ms after the replan.
 * 7. t3 check_inventory: a 200 that fails the output schema → reject (invalid_result).
 */
export const RUN: readonly RecoveryRecord[] = Object.freeze([
  rec({ callId: 't1:check_inventory#0', tool: 'check_inventory', turn: 1, attempts: 3, durationMs: 180 }),
  rec({
    callId: 't1:book_slot#0',
    tool: 'book_slot',
    turn: 1,
    class: 'semantic_rejection',
    reason: 'conflict',
    phase: 'dispatch',
    action: 'replan',
    terminal: 'fed_back',
    budgetsLeft: { ...FULL_BUDGETS, replans: 1 },
  }),
  rec({
    callId: 't2:book_slot#0',
    tool: 'book_slot',
    turn: 2,
    evidence: 'args_changed',
    replanLatencyMs: 1_200,
    replanAfter: 'semantic_rejection',
  }),
  rec({
    callId: 't2:ghost_tool#0',
    tool: 'ghost_tool',
    turn: 2,
    class: 'capability_missing',
    reason: 'unknown_tool',
    phase: 'preflight',
    action: 'replan',
    terminal: 'fed_back',
    attempts: 0,
    activities: 0,
    durationMs: 0,
  }),
  rec({
    callId: 't3:get_quote#0',
    tool: 'get_quote',
    turn: 3,
    class: 'transient',
    reason: 'unavailable',
    phase: 'dispatch',
    action: 'replan',
    terminal: 'fed_back',
    attempts: 4,
    budgetsLeft: { ...FULL_BUDGETS, retries: 0, replans: 1 },
    durationMs: 700,
    replanLatencyMs: 300,
    replanAfter: 'capability_missing',
  }),
  rec({
    callId: 't3:book_slot#0',
    tool: 'book_slot',
    turn: 3,
    class: 'authentication',
    reason: 'refresh_failed',
    phase: 'dispatch',
    action: 'escalate',
    terminal: 'escalated',
    attempts: 3,
    activities: 2,
    evidence: 'credential_refreshed',
    budgetsLeft: { ...FULL_BUDGETS, retries: 2, replans: 0 },
    durationMs: 90,
    replanLatencyMs: 600,
    replanAfter: 'transient',
  }),
  rec({
    callId: 't3:check_inventory#0',
    tool: 'check_inventory',
    turn: 3,
    class: 'invalid_result',
    reason: 'schema',
    phase: 'postcheck',
    action: 'reject',
    terminal: 'fed_back',
    budgetsLeft: { ...FULL_BUDGETS, replans: 0 },
  }),
]);
