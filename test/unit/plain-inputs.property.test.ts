/**
 * workflows/plain-input.ts (and the parts in recovery/plain-inputs.ts) against the schemas they stand in front of:
 * a plain check may refuse what its schema accepts (the schema then decides), never accept what it refuses. Values
 * are valid inputs with one field anywhere in them replaced by an odd value, removed, or joined by an unknown key;
 * plus exact cases, and the inputs the plugin itself builds, which must take the fast path.
 */
import fc from 'fast-check';
import { RecoveryPlugin } from '../../plugin/recovery-plugin';
import { supportTools } from '../../examples/support-tools';
import { agentOptionsSchema } from '../../workflows/agent-input';
import {
  plainlyValidAgentOptions,
  plainlyValidDecision,
  plainlyValidRouterOptions,
  plainlyValidToolPlanInput,
} from '../../workflows/plain-input';
import { routerOptionsSchema } from '../../workflows/router-options';
import { plannerDecisionSchema } from '../../workflows/planner-contract';
import { toolPlanInputSchema } from '../../workflows/tool-plan';
import { budgetPolicySchema } from '../../recovery/budget-schemas';
import { startRun } from '../../recovery/budgets';
import { plainlyValidBudgetOverride } from '../../recovery/plain-inputs';

const RUNS = Number(process.env.PP_RUNS ?? 4000);

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

const ODD: unknown[] = [
  ...[
    undefined,
    null,
    0,
    -0,
    -1,
    1,
    1.01,
    1.5,
    100.01,
    2 ** 53,
    1e300,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    '',
    'x',
    true,
    false,
  ],
  ...[{}, [], [1], ['x'], { carrier: 'none' }, 'a'.repeat(65), 'bad name', 86_400_001, 604_800_001, 101, 10_001, 999],
  ...[Object.create(null), new Date(0), [, 1]],
];

type Path = (string | number)[];

/** Every path into `v` (objects and arrays), the root included. */
function pathsOf(v: unknown, at: Path = []): Path[] {
  const out: Path[] = [at];
  if (Array.isArray(v)) v.forEach((x, i) => out.push(...pathsOf(x, [...at, i])));
  else if (typeof v === 'object' && v !== null)
    for (const [k, x] of Object.entries(v)) out.push(...pathsOf(x, [...at, k]));
  return out;
}

/**
 * A deep copy of the arrays, Dates, plain and null-prototype objects in `v`, in this realm (structuredClone's come
 * from another one). Every object an edit can write into is copied: an edit never writes into `base` or `ODD`.
 */
function clone(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(clone); // `map` keeps holes
  if (v instanceof Date) return new Date(v.getTime());
  if (typeof v !== 'object' || v === null) return v;
  const proto: unknown = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null) return v;
  const out = (proto === null ? Object.create(null) : {}) as Record<string, unknown>;
  for (const [k, x] of Object.entries(v)) out[k] = clone(x);
  return out;
}

type Edit = { kind: 'replace'; value: unknown } | { kind: 'drop' } | { kind: 'add'; key: string; value: unknown };

/** A deep copy of `base` with `edit` applied at `path` (a drop or add at the root edits the root object). */
function edited(base: unknown, path: Path, edit: Edit): unknown {
  const copy = clone(base);
  if (path.length === 0) {
    if (edit.kind === 'replace') return edit.value;
    if (edit.kind === 'add' && typeof copy === 'object' && copy !== null) {
      (copy as Record<string, unknown>)[edit.key] = edit.value;
    }
    return copy;
  }
  let parent = copy as Record<string | number, unknown>;
  for (const p of path.slice(0, -1)) parent = parent[p] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  if (edit.kind === 'replace') parent[last] = edit.value;
  else if (edit.kind === 'drop') {
    if (Array.isArray(parent)) parent.splice(Number(last), 1);
    else delete parent[last];
  } else {
    const target = parent[last];
    if (typeof target === 'object' && target !== null) (target as Record<string, unknown>)[edit.key] = edit.value;
  }
  return copy;
}

/** `base` with each one edit at each path: every odd value in its place, the field dropped, an unknown key added. */
function singleEdits(base: unknown): { path: Path; edit: Edit; value: unknown }[] {
  const edits: Edit[] = [
    ...ODD.map((value) => ({ kind: 'replace' as const, value })),
    { kind: 'drop' },
    ...ODD.map((value) => ({ kind: 'add' as const, key: 'extra', value })),
  ];
  return pathsOf(base).flatMap((path) => edits.map((edit) => ({ path, edit, value: edited(base, path, edit) })));
}

function editsOf(base: unknown): fc.Arbitrary<unknown> {
  const paths = pathsOf(base);
  const edit: fc.Arbitrary<Edit> = fc.oneof(
    fc.constantFrom(...ODD).map((value) => ({ kind: 'replace' as const, value })),
    fc.constant({ kind: 'drop' as const }),
    fc
      .record({
        key: fc.constantFrom('extra', 'name', 'carrier', 'calls', 'maxTurns', 'deduplicates'),
        value: fc.constantFrom(...ODD),
      })
      .map(({ key, value }) => ({ kind: 'add' as const, key, value })),
  );
  return fc
    .array(fc.tuple(fc.constantFrom(...paths), edit), { minLength: 1, maxLength: 2 })
    .map((edits) =>
      edits.reduce<unknown>(
        (v, [p, e]) => (pathsOf(v).some((q) => q.join('\u0000') === p.join('\u0000')) ? edited(v, p, e) : v),
        base,
      ),
    );
}

describe('the edits', () => {
  it("copy what they write: a second edit inside the first one's value leaves ODD as it was, with no cycle", () => {
    const odd = ODD.find((v) => typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === null)!;
    const date = ODD.find((v) => v instanceof Date)!;
    for (const value of [odd, date]) {
      const once = edited({ a: 1 }, ['a'], { kind: 'replace', value });
      const twice = edited(once, ['a'], { kind: 'add', key: 'extra', value });
      expect(pathsOf(twice)).toHaveLength(3); // root, a, a.extra
      expect(Object.keys(value as object)).toEqual([]);
      expect(Object.keys((twice as { a: object }).a)).toEqual(['extra']);
    }
  });
});

describe('plain input checks never accept what the schema refuses', () => {
  it('the valid bases take the fast path', () => {
    expect(toolPlanInputSchema().safeParse(toolPlanInput).success).toBe(true);
    expect(agentOptionsSchema().safeParse(agentOptions).success).toBe(true);
    expect(plainlyValidToolPlanInput(toolPlanInput)).toBe(true);
    expect(plainlyValidAgentOptions(agentOptions)).toBe(true);
    expect(routerOptionsSchema().safeParse(routerOptions).success).toBe(true);
    expect(plainlyValidRouterOptions(routerOptions)).toBe(true);
  });

  const INPUTS = [
    ['toolPlanWorkflow input', toolPlanInput, plainlyValidToolPlanInput, () => toolPlanInputSchema()],
    ['agentWorkflow options', agentOptions, plainlyValidAgentOptions, () => agentOptionsSchema()],
    ['createToolRouter options', routerOptions, plainlyValidRouterOptions, () => routerOptionsSchema()],
  ] as const;

  it.each(INPUTS)('%s: every single edit at every path, plain ⇒ the schema accepts', (_what, base, plain, schema) => {
    let fast = 0;
    for (const { path, edit, value: v } of singleEdits(base)) {
      if (!plain(v)) continue;
      fast++;
      expect({ path, edit, accepted: schema().safeParse(v).success }).toEqual({ path, edit, accepted: true });
    }
    expect(fast).toBeGreaterThan(100);
  });

  it.each(INPUTS)('%s: random 1–2 edits, plain ⇒ the schema accepts', (_what, base, plain, schema) => {
    let fast = 0;
    fc.assert(
      fc.property(editsOf(base), (v) => {
        if (!plain(v)) return;
        fast++;
        expect(schema().safeParse(v).success).toBe(true);
      }),
      { numRuns: RUNS },
    );
    expect(fast).toBeGreaterThan(0);
  });
});

describe('planner decisions: plain ⇒ the schema parses it to an equal value', () => {
  const decisions = [
    {
      kind: 'tool_calls',
      calls: [
        { callId: 'c1', tool: 'check_inventory', args: { sku: 'A' } },
        { callId: 'c2', tool: 'x', args: [1] },
      ],
    },
    { kind: 'submit', result: { items: [] } },
    { kind: 'stop', reason: 'cannot help' },
  ];

  it.each(decisions.map((d) => [d.kind, d] as const))('%s: the base and every single edit of it', (_kind, base) => {
    expect(plainlyValidDecision(base)).toBe(true);
    for (const { path, edit, value: v } of singleEdits(base)) {
      if (!plainlyValidDecision(v)) continue;
      const parsed = plannerDecisionSchema().safeParse(v);
      expect({ path, edit, accepted: parsed.success }).toEqual({ path, edit, accepted: true });
      expect({ path, edit, data: parsed.data }).toEqual({ path, edit, data: v });
    }
  });

  it('refuses a repeated callId, an empty call list and a submit without a result, as the schema does', () => {
    const call = { callId: 'c1', tool: 't', args: {} };
    for (const d of [
      { kind: 'tool_calls', calls: [call, { ...call }] },
      { kind: 'tool_calls', calls: [] },
      { kind: 'submit', result: undefined },
      { kind: 'submit' },
    ]) {
      expect(plainlyValidDecision(d)).toBe(false);
      expect(plannerDecisionSchema().safeParse(d).success).toBe(false);
    }
  });
});

describe('perCallRetries past int32 (Temporal maximumAttempts = 1 + perCallRetries)', () => {
  it('the plain check and the schema both refuse 2 147 483 647, both take 2 147 483 646', () => {
    expect([2_147_483_647, 2_147_483_646].map((n) => plainlyValidBudgetOverride({ perCallRetries: n }))).toEqual([
      false,
      true,
    ]);
    expect(
      [2_147_483_647, 2_147_483_646].map((n) => budgetPolicySchema().safeParse({ perCallRetries: n }).success),
    ).toEqual([false, true]);
  });
});

describe('startRun: a plain policy gets the schema’s defaults', () => {
  it('plain ⇒ the policy startRun keeps is the one budgetPolicySchema() parses, key order included', () => {
    const base = { perCallRetries: 5, perRunAttempts: 7 };
    let fast = 0;
    fc.assert(
      fc.property(editsOf(base), (v) => {
        if (!plainlyValidBudgetOverride(v)) return;
        fast++;
        const parsed = budgetPolicySchema().parse(v);
        expect(JSON.stringify(startRun(v as never).policy)).toBe(JSON.stringify(parsed));
      }),
      { numRuns: 500 },
    );
    expect(fast).toBeGreaterThan(0);
    expect(startRun({ perCallRetries: 0, perTurnReplans: undefined }).policy).toEqual({
      perCallRetries: 0,
      perTurnReplans: 2,
      perCallRepairs: 2,
      perRunAttempts: 50,
      consecutiveUnknownToolTurns: 2,
    });
  });
});

describe('plain input checks: exact cases', () => {
  const plan = (over: Record<string, unknown>) => ({ ...toolPlanInput, ...over });
  const withSpec = (over: Record<string, unknown>) => plan({ catalog: [spec(over)] });

  it.each([
    ['a 65-character tool name', withSpec({ name: 'a'.repeat(65) })],
    ['a space in a tool name', withSpec({ name: 'a b' })],
    ['an empty description', withSpec({ description: '' })],
    ['an array as inputSchema', withSpec({ inputSchema: [] })],
    ['a symbol key in inputSchema', withSpec({ inputSchema: { [Symbol('k')]: 1 } })],
    ['a fractional timeout', withSpec({ startToCloseTimeoutMs: 1.5 })],
    ['a zero heartbeat', withSpec({ heartbeatTimeoutMs: 0 })],
    ['arguments that do not deduplicate', withSpec({ idempotency: { carrier: 'arguments', deduplicates: false } })],
    ['an unknown carrier', withSpec({ idempotency: { carrier: 'query', name: 'k', deduplicates: true } })],
    ['jitter above 1', plan({ backoff: { jitterRatio: 1.01 } })],
    ['an interval above 24 h', plan({ backoff: { maximumIntervalMs: 86_400_001 } })],
    ['zero run attempts', plan({ budgets: { perRunAttempts: 0 } })],
    ['an unknown budget', plan({ budgets: { perDayRetries: 1 } })],
    ['an empty step id', plan({ calls: [{ tool: 't', args: {}, stepId: '' }] })],
    ['an unknown key', plan({ extra: 1 })],
  ])('refuses %s, as the schema does', (_what, input) => {
    expect(plainlyValidToolPlanInput(input)).toBe(false);
    expect(toolPlanInputSchema().safeParse(input).success).toBe(false);
  });

  it('leaves to the schema what it does not vouch for: a header carrier without a name (the schema defaults it)', () => {
    const input = withSpec({ idempotency: { carrier: 'header', deduplicates: true } });
    expect(plainlyValidToolPlanInput(input)).toBe(false);
    expect(toolPlanInputSchema().safeParse(input).success).toBe(true);
  });

  it('refuses agent options out of range, as the schema does', () => {
    for (const over of [{ maxTurns: 10_001 }, { planner: { heartbeatTimeoutMs: 999 } }, { calls: [] }]) {
      const options = { ...agentOptions, ...over };
      expect(plainlyValidAgentOptions(options)).toBe(false);
      expect(agentOptionsSchema().safeParse(options).success).toBe(false);
    }
  });

  it('a getter that throws is left to the schema, not thrown', () => {
    const input = { ...toolPlanInput };
    Object.defineProperty(input, 'calls', {
      enumerable: true,
      get: () => {
        throw new Error('boom');
      },
    });
    expect(plainlyValidToolPlanInput(input)).toBe(false);
  });

  it("the plugin's own workflow defaults take the fast path, for both workflows", () => {
    const tools = supportTools('http://127.0.0.1:1').all;
    const defaults = new RecoveryPlugin({ tools }).workflowDefaults();
    expect(defaults.catalog.length).toBe(tools.length);
    expect(plainlyValidToolPlanInput({ ...defaults, calls: [{ tool: 'check_inventory', args: { sku: 'A' } }] })).toBe(
      true,
    );
    expect(plainlyValidAgentOptions({ ...defaults, searchAttributes: false })).toBe(true);
  });
});
