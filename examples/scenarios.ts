/**
 * The main job's scenarios: each is a service script, a plan of tool calls, and the outcome the router must reach,
 * checked against the service's own request counts.
 */
import type { LedgerService } from './ledger-service';
import type { Script, ScriptedService } from './scripted-service';
import type { PlannedCall, ToolPlanResult } from '../workflows/tool-plan';

/** The loopback services a scenario runs against: the scripted HTTP service and the SQLite ledger. */
export interface ScenarioFixtures {
  service: ScriptedService;
  ledger: LedgerService;
}

export interface Scenario {
  name: string;
  description: string;
  script: Script;
  calls: PlannedCall[];
  /** What must hold; returns the mismatches (empty when the scenario passed). */
  check(result: ToolPlanResult, fx: ScenarioFixtures): string[];
  /** Faults to arm on the fixtures before the run. */
  arrange?(fx: ScenarioFixtures): void;
  /** One-line expected terminal state, for the report. */
  expected: string;
}

const expectEq = (what: string, actual: unknown, expected: unknown): string[] =>
  JSON.stringify(actual) === JSON.stringify(expected)
    ? []
    : [`${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`];

export const SCENARIOS: Scenario[] = [
  {
    name: 'transient-then-ok',
    description: 'inventory answers 503, 503, then 200: bounded retry with backoff',
    script: {
      'GET /inventory': [
        { status: 503, headers: { 'retry-after': '1' }, body: { error: 'unavailable' } },
        { status: 503, body: { error: 'unavailable' } },
        { status: 200, body: { items: [{ id: 'a1' }] } },
      ],
    },
    calls: [{ tool: 'check_inventory', args: { sku: 'SKU-1' } }],
    expected: 'succeeded after 3 attempts',
    check: (r, { service: s }) => [
      ...expectEq('ok', r.outcomes[0]?.ok, true),
      ...expectEq('attempts', r.outcomes[0]?.attempts, 3),
      ...expectEq('service hits', s.hits('GET /inventory'), 3),
    ],
  },
  {
    name: 'conflict-replan',
    description: 'the slot was taken between plan and execution: 409 → replan, never retried',
    script: { 'POST /calendar/book': [{ status: 409, body: { code: 'slot_taken', message: 'slot 10:00 is taken' } }] },
    calls: [{ tool: 'book_slot', args: { slot: '10:00', customerId: 'cus_7' } }],
    expected: 'replan after 1 dispatch',
    check: (r, { service: s }) => [
      ...expectEq('action', r.outcomes[0] && !r.outcomes[0].ok ? r.outcomes[0].action : 'ok', 'replan'),
      ...expectEq('service hits', s.hits('POST /calendar/book'), 1),
    ],
  },
  {
    name: 'invalid-args-repair',
    description: 'bad invoice args → field-level repair; the identical call is refused; the fixed one runs',
    script: { 'POST /invoices': [{ status: 201, body: { id: 'inv_1' } }] },
    calls: [
      { tool: 'create_invoice', args: { customerId: '42', amount: '12.50', currency: 'USD' } },
      { tool: 'create_invoice', args: { customerId: '42', amount: '12.50', currency: 'USD' }, sameTurn: true },
      {
        tool: 'create_invoice',
        args: { customerId: 'cus_42', amountCents: 1250, currency: 'usd', dueDate: '2026-10-01' },
        sameTurn: true,
      },
    ],
    expected: 'repair, refused, then succeeded with 1 dispatch',
    check: (r, { service: s }) => [
      ...expectEq(
        'actions',
        r.outcomes.map((o) => (o.ok ? 'ok' : o.action)),
        ['repair', 'repair', 'ok'],
      ),
      ...expectEq(
        'refused',
        r.outcomes.map((o) => !o.ok && o.refused),
        [false, true, false],
      ),
      ...expectEq('service hits', s.hits('POST /invoices'), 1),
    ],
  },
  {
    name: 'unknown-tool',
    description: 'a hallucinated tool name → replan with the capability list, nothing dispatched',
    script: {},
    calls: [{ tool: 'get_date', args: {} }],
    expected: 'replan with the 6 capabilities, 0 activities',
    check: (r) => [
      ...expectEq('action', r.outcomes[0] && !r.outcomes[0].ok ? r.outcomes[0].action : 'ok', 'replan'),
      ...expectEq(
        'capabilities',
        r.outcomes[0] && !r.outcomes[0].ok ? r.outcomes[0].feedback.capabilities?.map((c) => c.name) : [],
        ['book_slot', 'check_inventory', 'create_invoice', 'issue_refund', 'send_newsletter', 'send_newsletter_blind'],
      ),
      ...expectEq('activities', r.outcomes[0]?.activities, 0),
    ],
  },
  {
    name: 'lost-answer-reconcile',
    description: 'the refund committed but its answer was lost → looked up by operation_id, not re-sent',
    script: {},
    arrange: ({ ledger }) => ledger.fault({ kind: 'lose_response' }),
    calls: [{ tool: 'issue_refund', args: { orderId: 'O-1842', amountCents: 50000 }, stepId: 'refund-O-1842' }],
    expected: 'succeeded via lookup; 1 row, 1 POST',
    check: (r, { ledger }) => [
      ...expectEq('reconciled', r.outcomes[0]?.ok ? r.outcomes[0].reconciled : 'failed', 'lookup'),
      ...expectEq('refund rows', ledger.rows('refunds'), 1),
      ...expectEq('refund POSTs', ledger.hits('POST /refunds'), 1),
    ],
  },
  {
    name: 'duplicate-key-reconcile',
    description:
      'a 503 after the refund committed, then 409 to the retry under the same key → looked up, not a conflict',
    script: {},
    arrange: ({ ledger }) => ledger.fault({ kind: 'commit_then_503' }),
    calls: [{ tool: 'issue_refund', args: { orderId: 'O-1843', amountCents: 2500 }, stepId: 'refund-O-1843' }],
    expected: 'succeeded via lookup; 1 row, 2 POSTs',
    check: (r, { ledger }) => [
      ...expectEq('reconciled', r.outcomes[0]?.ok ? r.outcomes[0].reconciled : 'failed', 'lookup'),
      ...expectEq('refund rows', ledger.rows('refunds'), 1),
      ...expectEq('refund POSTs', ledger.hits('POST /refunds'), 2),
    ],
  },
];
