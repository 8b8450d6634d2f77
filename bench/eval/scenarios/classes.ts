/**
 * One scenario per failure class (docs/DESIGN.md, "Failure classes and the two axes") that the world-change
 * scenarios (./world.ts, ./storms.ts) do not already cover: invalid arguments, a hallucinated tool, a policy 403,
 * an invalid result, a bug in the tool, an expiring token.
 */
import {
  REACTIONS,
  hasFields,
  judgeHonestEnd,
  judgeSuccess,
  lastSuccessEnd,
  never,
  type RunContext,
  type Scenario,
} from '../scenario';

const pick = <T>(random: () => number, list: readonly T[]): T => list[Math.floor(random() * list.length)]!;

export const invalidArguments: Scenario = {
  name: 'invalid-arguments',
  exercises: 'invalid_arguments',
  description: 'an invoice whose due date is not YYYY-MM-DD; the fixed call passes',
  persistent: true,
  routerActions: ['repair', 'ok'],
  prepare({ index, random, env }: RunContext) {
    const customerId = `cus_${index}`;
    const amountCents = 1_000 + Math.floor(random() * 9_000);
    const dueDate = pick(random, ['next friday', '2026/12/31', '31-12-2026']);
    return {
      goal: `Invoice ${customerId} ${amountCents} cents, due at the end of December (run ${index})`,
      script: {
        on: REACTIONS,
        steps: [
          {
            id: 'invoice',
            tool: 'create_invoice',
            args: { customerId, amountCents, currency: 'usd', dueDate },
            fixes: [{ dueDate: '2026-12-31' }],
          },
        ],
        submit: { resultFrom: 'invoice' },
      },
      curedAtMs: never,
      judge: (o) =>
        judgeSuccess(o, {
          matches: (r) => typeof (r as { invoiceId?: unknown })?.invoiceId === 'string',
          rows: env.world.rows('invoices', 'customer_id', customerId),
          what: 'invoice',
          at: lastSuccessEnd(o, 'create_invoice'),
        }),
    };
  },
};

export const capabilityMissing: Scenario = {
  name: 'capability-missing',
  exercises: 'capability_missing',
  description: 'the planner names a tool that does not exist (`find_record`); the real one is get_record',
  persistent: true,
  routerActions: ['replan', 'ok'],
  prepare({ index, env }: RunContext) {
    const recordId = `R-${index}`;
    return {
      goal: `Find record ${recordId} (run ${index})`,
      script: {
        on: REACTIONS,
        steps: [
          {
            id: 'find',
            tool: 'find_record',
            args: { recordId },
            alternatives: [{ tool: 'get_record', args: { recordId } }],
          },
        ],
        submit: { resultFrom: 'find' },
      },
      arrange: () => env.world.addRecord(recordId, `Record ${index}`),
      curedAtMs: never,
      judge: (o) =>
        judgeSuccess(o, {
          matches: (r) => hasFields(r, { recordId, title: `Record ${index}` }),
          what: 'record read',
          at: lastSuccessEnd(o, 'get_record'),
        }),
    };
  },
};

export const forbidden: Scenario = {
  name: 'forbidden',
  exercises: 'authorization',
  description: 'an export denied by policy (403 `policy_denied`): the right end is to stop, having written nothing',
  persistent: true,
  routerActions: ['stop'],
  prepare({ index, env }: RunContext) {
    const reportId = `rep-${index}`;
    return {
      goal: `Export report ${reportId} to the shared drive (run ${index})`,
      script: {
        on: REACTIONS,
        steps: [{ id: 'export', tool: 'export_report', args: { reportId } }],
        submit: { resultFrom: 'export' },
      },
      arrange() {
        env.world.fault('POST /exports', () => ({
          status: 403,
          body: { code: 'policy_denied', message: 'exports of this report are blocked by policy' },
        }));
      },
      curedAtMs: never,
      judge: (o) =>
        judgeHonestEnd(o, {
          routerStatus: 'stopped',
          rows: o.dispatches.filter((d) => d.tool === 'export_report' && d.failure === undefined).length,
          what: 'exports',
        }),
    };
  },
};

export const invalidResult: Scenario = {
  name: 'invalid-result',
  exercises: 'invalid_result',
  description: 'the primary store answers 200 with a body that is not the record; the replica has it',
  persistent: true,
  routerActions: ['reject', 'ok'],
  prepare({ index, random, env }: RunContext) {
    const recordId = `R-${index}`;
    const body = pick(random, [
      { text: `{"recordId":"${recordId}","title":"Q3 rev` },
      { text: `{"recordId":"${recordId}","title":42}` },
      { text: '<html><body>Down for maintenance</body></html>', headers: { 'content-type': 'text/html' } },
    ]);
    return {
      goal: `Read record ${recordId} (run ${index})`,
      script: {
        on: REACTIONS,
        steps: [
          {
            id: 'read',
            tool: 'get_record',
            args: { recordId },
            alternatives: [{ tool: 'get_record_replica', args: { recordId } }],
          },
        ],
        submit: { resultFrom: 'read' },
      },
      arrange() {
        env.world.addRecord(recordId, `Record ${index}`);
        env.world.fault(`GET /records/${recordId}`, () => ({ status: 200, ...body }));
      },
      curedAtMs: never,
      judge: (o) =>
        judgeSuccess(o, {
          matches: (r) => hasFields(r, { recordId, title: `Record ${index}` }),
          what: 'record read',
          at: lastSuccessEnd(o, 'get_record_replica'),
        }),
    };
  },
};

export const toolBug: Scenario = {
  name: 'tool-bug',
  exercises: 'unrecoverable',
  description: "the PDF renderer's code throws a TypeError: a person must fix the tool",
  persistent: true,
  routerActions: ['escalate'],
  prepare({ index }: RunContext) {
    return {
      goal: `Render invoice inv-${index} as a PDF (run ${index})`,
      script: {
        on: REACTIONS,
        steps: [{ id: 'render', tool: 'render_invoice_pdf', args: { invoiceId: `inv-${index}` } }],
        submit: { resultFrom: 'render' },
      },
      curedAtMs: never,
      judge: (o) => judgeHonestEnd(o, { routerStatus: 'escalated', rows: 0, what: 'PDFs' }),
    };
  },
};

export const tokenExpiry: Scenario = {
  name: 'token-expiry',
  exercises: 'authentication (a token expiring)',
  description: 'the access token expires between two runs of the same credential; the refresh token still works',
  persistent: true,
  routerActions: ['reauth'],
  prepare({ index, policy, env }: RunContext) {
    const slot = env.takeSlot();
    return {
      goal: `Read the CRM profile (run ${index})`,
      script: {
        on: REACTIONS,
        steps: [{ id: 'profile', tool: slot.tool, args: {} }],
        submit: { resultFrom: 'profile' },
      },
      async arrange() {
        await env.brokerFor(policy).current(slot.credential);
        slot.oauth.expireAll();
      },
      curedAtMs: never, // a 401 to the same token never passes; the refreshed call has another credential version
      judge: (o) =>
        judgeSuccess(o, {
          matches: (r) => hasFields(r, { name: 'Ada', plan: 'pro' }),
          what: 'profile read',
          at: lastSuccessEnd(o, slot.tool),
        }),
    };
  },
};
