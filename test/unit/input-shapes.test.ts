/**
 * The shapes of the workflows' inputs (workflows/input-shapes.ts and the shapes built on it: `toolPlanWorkflow`'s
 * input, `agentWorkflow`'s options, `createToolRouter`'s options) and of the planner's decisions: valid inputs pass
 * and come back equal, each field's rule refuses, naming the field. Pure unit tests: no workers, no servers.
 */
import { RecoveryPlugin } from '../../plugin/recovery-plugin';
import { supportTools } from '../../examples/support-tools';
import { agentOptionsSchema } from '../../workflows/agent-input';
import { routerOptionsSchema } from '../../workflows/router-options';
import { plannerDecisionSchema } from '../../workflows/planner-contract';
import { toolPlanInputSchema } from '../../workflows/tool-plan';
import { budgetPolicySchema } from '../../recovery/budget-schemas';
import { startRun } from '../../recovery/budgets';

const spec = (over: Record<string, unknown>) => ({
  name: 'check_inventory',
  description: 'Items in stock.',
  inputSchema: { type: 'object', properties: { sku: { type: 'string' } } },
  effect: 'read',
  idempotency: { carrier: 'none' },
  hasLookup: false,
  approvalCanLift: false,
  startToCloseTimeoutMs: 5_000,
  ...over,
});
const catalog = [
  spec({}),
  spec({
    name: 'refund.v2',
    effect: 'write',
    idempotency: { carrier: 'header', name: 'Idempotency-Key', deduplicates: true },
    hasLookup: true,
    hasVerify: true,
    scope: 'payments:write',
    approvalCanLift: true,
    heartbeatTimeoutMs: 1_000,
  }),
  spec({ name: 'send-mail', effect: 'write', idempotency: { carrier: 'field', name: 'key', deduplicates: false } }),
  spec({ name: 'put_doc', effect: 'write', idempotency: { carrier: 'arguments', deduplicates: true } }),
];
const budgets = {
  perCallRetries: 3,
  perTurnReplans: 0,
  perCallRepairs: 2,
  perRunAttempts: 1,
  consecutiveUnknownToolTurns: 2,
};
const backoff = {
  initialIntervalMs: 1,
  backoffCoefficient: 1.5,
  maximumIntervalMs: 86_400_000,
  jitterRatio: 1,
  maxRetryAfterMs: 604_800_000,
};
const shared = {
  catalog,
  grantedScopes: ['payments:write'],
  budgets,
  backoff,
  approvalTimeoutMs: 0,
  approvalHoldMs: 0,
  toolOverrides: { refund: { budgets: { perCallRetries: 0 }, backoff: { jitterRatio: 0 } }, other: {} },
  reconcile: {
    lookupBudget: 0,
    replayBudget: 1,
    lookupTimeoutMs: 1,
    lookupBackoff: { initialIntervalMs: 100 },
    reviewTimeoutMs: 0,
    searchAttributes: false,
  },
};
const routerOptions = { ...shared, searchAttributes: false, stepBudgetsAcrossTurns: true };
const toolPlanInput = {
  ...shared,
  searchAttributes: true,
  calls: [
    { tool: 'check_inventory', args: { sku: 'A' } },
    { tool: 'nope', args: null, stepId: 's1', sameTurn: true },
  ],
  stopOnTerminal: false,
  failOnTerminal: true,
};
const agentOptions = {
  ...shared,
  searchAttributes: true,
  maxTurns: 10_000,
  maxInvalidDecisions: 0,
  planner: { startToCloseTimeoutMs: 1_000, maximumAttempts: 100, taskQueue: 'q', heartbeatTimeoutMs: 3_600_000 },
  continueAsNewAfterTurns: 1,
};

const firstIssue = (r: { success: boolean; error?: { issues: readonly { path: unknown[]; message: string }[] } }) =>
  r.success ? 'ok' : `${r.error!.issues[0]!.path.join('.')}: ${r.error!.issues[0]!.message}`;

describe("the workflows' inputs", () => {
  it('valid inputs of every field pass and come back equal', () => {
    expect(toolPlanInputSchema().parse(toolPlanInput)).toEqual(toolPlanInput);
    expect(agentOptionsSchema().parse(agentOptions)).toEqual(agentOptions);
    expect(routerOptionsSchema().parse(routerOptions)).toEqual(routerOptions);
  });

  const plan = (over: Record<string, unknown>) => ({ ...toolPlanInput, ...over });
  const withSpec = (over: Record<string, unknown>) => plan({ catalog: [spec(over)] });

  it.each([
    [
      'a 65-character tool name',
      withSpec({ name: 'a'.repeat(65) }),
      'catalog.0.name: tool names are 1-64 characters of [a-zA-Z0-9_.-]',
    ],
    [
      'a space in a tool name',
      withSpec({ name: 'a b' }),
      'catalog.0.name: tool names are 1-64 characters of [a-zA-Z0-9_.-]',
    ],
    [
      'an empty description',
      withSpec({ description: '' }),
      'catalog.0.description: Too small: expected string to have >=1 characters',
    ],
    [
      'an array as inputSchema',
      withSpec({ inputSchema: [] }),
      'catalog.0.inputSchema: Invalid input: expected record, received array',
    ],
    [
      'a fractional timeout',
      withSpec({ startToCloseTimeoutMs: 1.5 }),
      'catalog.0.startToCloseTimeoutMs: Invalid input: expected int, received number',
    ],
    [
      'a zero heartbeat',
      withSpec({ heartbeatTimeoutMs: 0 }),
      'catalog.0.heartbeatTimeoutMs: Too small: expected number to be >0',
    ],
    [
      'arguments that do not deduplicate',
      withSpec({ idempotency: { carrier: 'arguments', deduplicates: false } }),
      'catalog.0.idempotency.deduplicates: Invalid input: expected true',
    ],
    [
      'an unknown carrier',
      withSpec({ idempotency: { carrier: 'query', name: 'k', deduplicates: true } }),
      'catalog.0.idempotency.carrier: Invalid input',
    ],
    [
      'jitter above 1',
      plan({ backoff: { jitterRatio: 1.01 } }),
      'backoff.jitterRatio: Too big: expected number to be <=1',
    ],
    [
      'an interval above 24 h',
      plan({ backoff: { maximumIntervalMs: 86_400_001 } }),
      'backoff.maximumIntervalMs: BackoffPolicy.maximumIntervalMs must be at most 86400000 ms (24 hours)',
    ],
    [
      'zero run attempts',
      plan({ budgets: { perRunAttempts: 0 } }),
      'budgets.perRunAttempts: Too small: expected number to be >=1',
    ],
    ['an unknown budget', plan({ budgets: { perDayRetries: 1 } }), 'budgets: Unrecognized key: "perDayRetries"'],
    [
      'an empty step id',
      plan({ calls: [{ tool: 't', args: {}, stepId: '' }] }),
      'calls.0.stepId: Too small: expected string to have >=1 characters',
    ],
    ['an unknown key', plan({ extra: 1 }), ': Unrecognized key: "extra"'],
    [
      'a scope list given as a string',
      plan({ grantedScopes: 'billing' }),
      'grantedScopes: Invalid input: expected array, received string',
    ],
  ])('toolPlanWorkflow refuses %s, naming the field', (_what, input, issue) => {
    expect(firstIssue(toolPlanInputSchema().safeParse(input))).toBe(issue);
  });

  it("a header carrier without a name takes the draft's header name (the shape's default)", () => {
    const parsed = toolPlanInputSchema().parse(withSpec({ idempotency: { carrier: 'header', deduplicates: true } }));
    expect(parsed.catalog?.[0]?.idempotency).toEqual({
      carrier: 'header',
      name: 'Idempotency-Key',
      deduplicates: true,
    });
  });

  it("refuses agent options out of range, and a tool plan's calls", () => {
    const issues = [{ maxTurns: 10_001 }, { planner: { heartbeatTimeoutMs: 999 } }, { calls: [] }].map((over) =>
      firstIssue(agentOptionsSchema().safeParse({ ...agentOptions, ...over })),
    );
    expect(issues).toEqual([
      'maxTurns: Too big: expected number to be <=10000',
      'planner.heartbeatTimeoutMs: Too small: expected number to be >=1000',
      ': Unrecognized key: "calls"',
    ]);
  });

  it("the plugin's own workflow defaults pass, for both workflows and the router", () => {
    const tools = supportTools('http://127.0.0.1:1').all;
    const defaults = new RecoveryPlugin({ tools }).workflowDefaults();
    expect(defaults.catalog.length).toBe(tools.length);
    const calls = [{ tool: 'check_inventory', args: { sku: 'A' } }];
    expect(toolPlanInputSchema().safeParse({ ...defaults, calls }).success).toBe(true);
    expect(agentOptionsSchema().safeParse({ ...defaults, searchAttributes: false }).success).toBe(true);
    expect(routerOptionsSchema().safeParse(defaults).success).toBe(true);
  });
});

describe('perCallRetries past int32 (Temporal maximumAttempts = 1 + perCallRetries)', () => {
  it('refuses 2 147 483 647, takes 2 147 483 646', () => {
    expect(
      [2_147_483_647, 2_147_483_646].map((n) => firstIssue(budgetPolicySchema().safeParse({ perCallRetries: n }))),
    ).toEqual(["perCallRetries: must be at most 2147483646 (Temporal's maximumAttempts is an int32)", 'ok']);
  });

  it('startRun fills the defaults of the fields left out (an undefined one too)', () => {
    expect(startRun({ perCallRetries: 0, perTurnReplans: undefined }).policy).toEqual({
      perCallRetries: 0,
      perTurnReplans: 2,
      perCallRepairs: 2,
      perRunAttempts: 50,
      consecutiveUnknownToolTurns: 2,
    });
  });
});

describe('planner decisions', () => {
  it('a valid decision of each kind passes and comes back equal', () => {
    for (const d of [
      { kind: 'tool_calls', calls: [{ callId: 'c1', tool: 't', args: { a: 1 } }] },
      { kind: 'submit', result: { ok: true } },
      { kind: 'stop', reason: 'cannot' },
    ]) {
      expect(plannerDecisionSchema().parse(d)).toEqual(d);
    }
  });

  it('refuses a repeated callId, an empty call list, a submit without a result and an unknown kind', () => {
    const call = { callId: 'c1', tool: 't', args: {} };
    expect(
      [
        { kind: 'tool_calls', calls: [call, call] },
        { kind: 'tool_calls', calls: [] },
        { kind: 'submit' },
        { kind: 'answer' },
      ].map((d) => firstIssue(plannerDecisionSchema().safeParse(d))),
    ).toEqual([
      'calls.1.callId: duplicate callId "c1"',
      'calls: Too small: expected array to have >=1 items',
      'result: a submit needs a result (any JSON value)',
      'kind: Invalid input',
    ]);
  });
});
