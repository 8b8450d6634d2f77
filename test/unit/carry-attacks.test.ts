/**
 * Attacks on what a long agent carries across continue-as-new (docs/DESIGN.md, "Long-lived agents"): the gate's ledger
 * as compaction cuts it, step ids of a tool whose name is a prototype key, and the router state a run is handed
 * (`agentWorkflow`'s third argument, `createToolRouter({ restore })`). Pure unit tests: no workers, no servers.
 */
import { ApplicationFailure } from '@temporalio/common';
import { argsHash } from '../../recovery/canonical';
import { spend, startCall as startBudgetCall, startRun, startTurn } from '../../recovery/budgets';
import {
  EMPTY_CALL_LEDGER,
  lastFailure,
  recordFailure,
  recordOutcome,
  type CallLedger,
} from '../../recovery/call-ledger';
import { toolFailureSchema, type ToolFailure } from '../../recovery/failure';
import type { AttemptRecord } from '../../recovery/gate';
import { chatRequest } from '../../activities/planners/openai-request';
import { closedStep } from '../../workflows/agent-carry';
import { checkInput } from '../../workflows/agent-input';
import { trimObservations } from '../../workflows/agent-window';
import type { Observation } from '../../workflows/planner-contract';
import { afterCall, newRun, startCall } from '../../workflows/agent-run';
import { checkRouterOptions } from '../../workflows/router-options';
import { compactRouterState, MAX_LEDGER_ENTRIES } from '../../workflows/router/compact';
import type { ToolOutcome, ToolRouterState } from '../../workflows/tool-router-types';

const rateLimited: ToolFailure = toolFailureSchema().parse({
  tool: 'search',
  callId: 'c1',
  class: 'transient',
  reason: 'rate_limited',
  phase: 'dispatch',
  retryable: true,
  replaySafe: true,
  retryAfterMs: 60_000,
  status: 429,
  publicMessage: 'Too many requests.',
  diagnosticRef: 'diag-1',
});

function attempt(n: number, endedAtMs: number): AttemptRecord {
  const failure = { ...rateLimited, callId: `c${n}` };
  return { tool: 'search', argsHash: argsHash({ q: n }), credentialVersion: 0, failure, endedAtMs };
}

/** A router state as the router builds it after a few calls: every optional field present. */
function realState(): ToolRouterState {
  const budgets = startBudgetCall(startTurn(startRun({})), 'search#0');
  return {
    budgets,
    calls: recordOutcome(recordFailure(EMPTY_CALL_LEDGER, attempt(1, 1_000)), 'search', argsHash({ q: 2 }), 'd').ledger,
    grants: { [`search|${argsHash({ q: 1 })}`]: 1 },
    credentialVersions: { search: 2 },
    successes: { 't1:search': 1 },
    records: [],
    recordsOmitted: 3,
    unknownToolTurns: { count: 1, lastTurn: 1 },
    stepArgs: { 'search#0': [argsHash({ q: 1 })] },
    pendingReplan: { atMs: 1_000, class: 'semantic_rejection' },
  };
}

/** The `invalid_input` message `fn` fails with. */
function refused(fn: () => void): string {
  try {
    fn();
  } catch (err) {
    if (err instanceof ApplicationFailure && err.type === 'invalid_input' && err.nonRetryable) return err.message;
    throw err;
  }
  throw new Error('expected an invalid_input ApplicationFailure, nothing was thrown');
}

describe('compaction keeps the gate ledger entries a later call can still hit (newest by last entry)', () => {
  test('compact: a failure recorded again after 128 others is the newest, and the gate still sees it', () => {
    let calls: CallLedger = recordFailure(EMPTY_CALL_LEDGER, attempt(0, 1_000));
    for (let i = 1; i <= MAX_LEDGER_ENTRIES; i++) calls = recordFailure(calls, attempt(i, 1_000 + i));
    // The first call, retried after its backoff, is rate-limited again: the newest failure of the run.
    calls = recordFailure(calls, { ...attempt(0, 5_000), earliestRetryAtMs: 65_000 });
    const out = compactRouterState({ ...realState(), calls });
    expect(Object.keys(out.calls.failures)).toHaveLength(MAX_LEDGER_ENTRIES);
    expect(lastFailure(out.calls, 'search', argsHash({ q: 0 }))?.earliestRetryAtMs).toBe(65_000);
    expect(lastFailure(out.calls, 'search', argsHash({ q: 1 }))).toBeUndefined(); // the oldest goes
  });

  test('compact: an outcome seen again after 128 others is kept with its count', () => {
    let calls: CallLedger = EMPTY_CALL_LEDGER;
    for (let i = 0; i <= MAX_LEDGER_ENTRIES; i++)
      calls = recordOutcome(calls, 'search', argsHash({ q: i }), 'd').ledger;
    calls = recordOutcome(calls, 'search', argsHash({ q: 0 }), 'd').ledger;
    const out = compactRouterState({ ...realState(), calls });
    const kept = Object.entries(out.calls.outcomes);
    expect(kept).toHaveLength(MAX_LEDGER_ENTRIES);
    expect(kept.at(-1)).toEqual([`search\u0000${argsHash({ q: 0 })}\u0000d`, 2]);
    expect(kept[0]![0]).toBe(`search\u0000${argsHash({ q: 2 })}\u0000d`);
  });
});

describe('compaction of steps', () => {
  test('compact: 1,000 hallucinated tool names (steps that spent nothing, no operation id) carry nothing', () => {
    let budgets = startTurn(startRun({}));
    for (let i = 0; i < 1_000; i++) budgets = startBudgetCall(budgets, `${'x'.repeat(100)}${i}#0`);
    budgets = startBudgetCall(budgets, 'search#0'); // dispatched: holds an operation id
    budgets = startBudgetCall(budgets, 'fix#0');
    budgets = spend(budgets, 'repair', 'fix#0').ledger; // spent a repair, before any dispatch
    const out = compactRouterState({ ...realState(), budgets });
    expect(out.budgets.calls).toEqual([
      { key: 'search#0', retries: 0, repairs: 0 },
      { key: 'fix#0', retries: 0, repairs: 1 },
    ]);
    expect(JSON.stringify(out).length).toBeLessThan(5_000);
  });
});

describe('closed steps (workflows/agent-carry.ts)', () => {
  test('step ids of names with #, digits, prototype keys and 64+ characters: only <tool>#<n> below its successes is closed', () => {
    const successes = JSON.parse('{"a#1": 1, "x": 2, "123": 1, "__proto__": 1}') as Record<string, number>;
    const long = 'L'.repeat(128);
    Object.defineProperty(successes, long, { value: 1, enumerable: true });
    const closed = closedStep(successes);
    const ids = ['a#1#0', 'a#1', 'x#1', 'x#2', '123#0', '__proto__#0', 'constructor#0', `${long}#0`, 'custom-step'];
    expect(ids.filter(closed)).toEqual(['a#1#0', 'x#1', '123#0', '__proto__#0', `${long}#0`]);
  });
});

describe('the window cuts a turn in half', () => {
  test('openai request: every tool message follows the assistant message that holds its tool_call id', () => {
    const obs: Observation[] = [];
    for (let turn = 1; turn <= 3; turn++) {
      for (let i = 0; i < 4; i++) {
        obs.push({
          kind: 'tool_result',
          callId: `c${turn}-${i}`,
          tool: 'search',
          args: { i },
          value: i,
          empty: false,
          turn,
        });
      }
      obs.push({ kind: 'decision_rejected', message: 'no', turn });
      obs.push({ kind: 'user_message', text: `after turn ${turn}` });
    }
    expect(trimObservations(obs, { maxObservations: 9 })).toBe(9); // keeps the last call of turn 2 on
    const capabilities = [{ name: 'search', description: 'Searches.', inputSchema: { type: 'object' } }];
    const input = { goal: 'g', turn: 4, capabilities, observations: obs, omittedObservations: 9 };
    const { messages } = chatRequest(input, 'm');
    const open = new Set<string>();
    for (const m of messages) {
      if (m.role === 'assistant') for (const c of m.tool_calls ?? []) open.add(c.id);
      else if (m.role === 'tool') expect(open.delete(m.tool_call_id)).toBe(true);
      else expect(open.size).toBe(0); // no assistant tool_calls left unanswered before the next message
    }
    expect(open.size).toBe(0);
    expect(messages.filter((m) => m.role === 'tool')).toHaveLength(5);
    expect(messages[2]).toEqual({ role: 'user', content: expect.stringMatching(/^9 earlier messages/) });
  });
});

describe('a tool named like a prototype key', () => {
  const ok = (tool: string, callId: string): ToolOutcome => ({
    ok: true,
    ended: 'ran',
    tool,
    callId,
    operationId: `wf:${tool}#0`,
    value: { sent: true },
    empty: false,
    noProgress: false,
    attempts: 1,
    activities: 1,
  });

  test.each(['__proto__', 'constructor', 'toString'])(
    'agent steps: %s#0 closes when it succeeds, the next call is step #1 (its own operation id)',
    (tool) => {
      const run = newRun('goal', undefined);
      const call = { callId: 'c1', tool, args: { to: 'a' } };
      const first = startCall(run, call);
      expect(first.options.stepId).toBe(`${tool}#0`);
      expect(afterCall(run, call, first, ok(tool, 'c1'))).toBeUndefined();
      expect(Object.prototype.hasOwnProperty.call(run.toolSuccesses, tool)).toBe(true);
      expect(JSON.parse(JSON.stringify(run.toolSuccesses))).toEqual(JSON.parse(`{"${tool}":1}`));
      expect(startCall(run, { ...call, callId: 'c2' }).options.stepId).toBe(`${tool}#1`);
    },
  );
});

describe('the router state a run is handed', () => {
  test('createToolRouter: restore takes a router.state() with every optional field', () => {
    expect(() => checkRouterOptions({ catalog: [], restore: realState() })).not.toThrow();
  });

  const carry = (router: unknown) => ({
    router,
    observations: [],
    turn: 1,
    invalidDecisionsInARow: 0,
    pendingUserMessages: [],
    toolSuccesses: {},
    continuedAsNew: 1,
  });

  test('agentWorkflow: a carried router.state() with every optional field is taken, and one with a newer field', () => {
    expect(() => checkInput('goal', {}, carry(realState()))).not.toThrow();
    expect(() => checkInput('goal', {}, carry({ ...realState(), fromANewerWorker: 1 }))).not.toThrow();
  });

  test.each<[string, unknown, string]>([
    ['maxChars below 100,000', { maxChars: 50 }, 'observationWindow.maxChars: Too small'],
    ['maxObservations 0', { maxObservations: 0 }, 'observationWindow.maxObservations: Too small'],
    ['maxObservations not an integer', { maxObservations: 1.5 }, 'observationWindow.maxObservations: '],
    ['maxObservations a string', { maxObservations: '5' }, 'observationWindow.maxObservations: '],
    ['a string', 'x', 'observationWindow: '],
    ['null', null, 'observationWindow: '],
    ['an unknown key', { max: 5 }, 'observationWindow: Unrecognized key'],
  ])('agentWorkflow: observationWindow %s fails the run as invalid_input naming the field', (_, window, field) => {
    expect(refused(() => checkInput('goal', { observationWindow: window }, undefined))).toContain(
      `agentWorkflow options.${field}`,
    );
  });

  const { calls: _calls, ...noCalls } = realState();
  test.each<[string, unknown, string]>([
    ['no call ledger', noCalls, 'agentWorkflow carried.router.calls: '],
    ['stepArgs not a record', { ...realState(), stepArgs: 5 }, 'agentWorkflow carried.router.stepArgs: '],
    [
      'stepArgs of non-lists',
      { ...realState(), stepArgs: { 'a#0': 'h' } },
      'agentWorkflow carried.router.stepArgs.a#0: ',
    ],
    [
      'recordsOmitted a string',
      { ...realState(), recordsOmitted: 'x' },
      'agentWorkflow carried.router.recordsOmitted: ',
    ],
    [
      'recordsOmitted negative',
      { ...realState(), recordsOmitted: -1 },
      'agentWorkflow carried.router.recordsOmitted: ',
    ],
    [
      'recordsOmitted past 2^53',
      { ...realState(), recordsOmitted: 1e300 },
      'agentWorkflow carried.router.recordsOmitted: ',
    ],
    [
      'a ledger failure that is not an attempt record',
      { ...realState(), calls: { failures: { k: 1 }, outcomes: {} } },
      'agentWorkflow carried.router.calls.failures.k: ',
    ],
    [
      'unknownToolTurns a string',
      { ...realState(), unknownToolTurns: 'x' },
      'agentWorkflow carried.router.unknownToolTurns: ',
    ],
    [
      'credentialVersions negative',
      { ...realState(), credentialVersions: { a: -1 } },
      'agentWorkflow carried.router.credentialVersions.a: ',
    ],
  ])('agentWorkflow: a carried router with %s fails the run as invalid_input naming the field', (_, router, field) => {
    expect(refused(() => checkInput('goal', {}, carry(router)))).toContain(field);
  });
});
