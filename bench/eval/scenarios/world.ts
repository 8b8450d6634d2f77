/**
 * The ways the world changes mid-run: a slot booked between plan and execution, a price changed after the quote,
 * a document deleted after it was listed, a commit whose answer is lost (to a
 * receiver that refuses a repeated key, and to one without idempotency keys), and a state that already holds.
 */
import { WORKING_SLOTS } from '../../../examples/calendar-service';
import {
  REACTIONS,
  appliedLookupEnd,
  hasFields,
  holdsVerifyEnd,
  judgeSuccess,
  lastSuccessEnd,
  never,
  type RunContext,
  type RunOutcome,
  type Scenario,
} from '../scenario';
import type { Dispatch } from '../scoring';

/** 2027-01-01 plus `n` days, `YYYY-MM-DD`. */
function dayOf(n: number): string {
  return new Date(Date.UTC(2027, 0, 1) + n * 86_400_000).toISOString().slice(0, 10);
}

export const slotTaken: Scenario = {
  name: 'slot-taken',
  exercises: 'semantic_rejection (a slot booked between plan and execution)',
  description: 'the listed slot is booked by someone else right after the listing: 409 slot_taken, book the next',
  persistent: true,
  routerActions: ['replan', 'ok'],
  prepare({ index, random, env }: RunContext) {
    const day = dayOf(index);
    const i = Math.floor(random() * (WORKING_SLOTS.length - 1));
    const [slot, next] = [WORKING_SLOTS[i]!, WORKING_SLOTS[i + 1]!];
    const customerId = `cus_${index}`;
    return {
      goal: `Book a 1-hour call for ${customerId} on ${day} at ${slot}, or the next free slot (run ${index})`,
      script: {
        on: REACTIONS,
        steps: [
          { id: 'list', tool: 'list_free_slots', args: { day } },
          {
            id: 'book',
            tool: 'book_calendar_slot',
            args: { day, slot, customerId },
            alternatives: [{ tool: 'book_calendar_slot', args: { day, slot: next, customerId } }],
          },
        ],
        submit: { resultFrom: 'book' },
      },
      arrange: () => env.calendar.takeAfterListing(day, slot, 'cus_other'),
      curedAtMs: never,
      judge: (o) =>
        judgeSuccess(o, {
          matches: (r) => hasFields(r, { day, slot: next, customerId }),
          rows: env.calendar.rows({ day, customerId }),
          what: `booking of ${customerId}`,
          at: lastSuccessEnd(o, 'book_calendar_slot'),
        }),
    };
  },
};

export const priceChanged: Scenario = {
  name: 'price-changed',
  exercises: 'semantic_rejection (a price changed after the quote)',
  description: 'the price rises 5–25 % right after the quote: 409 price_changed, order at the new price',
  persistent: true,
  routerActions: ['replan', 'ok'],
  prepare({ index, random, env }: RunContext) {
    const sku = `SKU-P${index}`;
    const price = 1_000 + Math.floor(random() * 4_000);
    const newPrice = Math.round(price * (1.05 + random() * 0.2));
    return {
      // The scripted planner cannot read the new price from the feedback; its alternative carries it (a model reads
      // it from `observedState.currentPriceCents`).
      goal: `Order one ${sku} at the quoted price (run ${index})`,
      script: {
        on: REACTIONS,
        steps: [
          { id: 'quote', tool: 'get_quote', args: { sku } },
          {
            id: 'order',
            tool: 'place_order',
            args: { sku, priceCents: price },
            alternatives: [{ tool: 'place_order', args: { sku, priceCents: newPrice } }],
          },
        ],
        submit: { resultFrom: 'order' },
      },
      arrange() {
        env.world.setPrice(sku, price);
        env.world.changePriceAfterQuote(sku, newPrice);
      },
      curedAtMs: never,
      judge: (o) =>
        judgeSuccess(o, {
          matches: (r) => hasFields(r, { sku, priceCents: newPrice }),
          rows: env.world.rows('orders', 'sku', sku),
          what: 'order',
          at: lastSuccessEnd(o, 'place_order'),
        }),
    };
  },
};

export const documentDeleted: Scenario = {
  name: 'document-deleted',
  exercises: 'semantic_rejection (a document deleted mid-run)',
  description: 'the listed document is moved to the trash right after the listing: 404, read it from the trash',
  persistent: true,
  routerActions: ['replan', 'ok'],
  prepare({ index, env }: RunContext) {
    const folder = `folder-${index}`;
    const docId = `doc-${index}`;
    const text = `Minutes of meeting ${index}`;
    return {
      goal: `Read the document in ${folder} (run ${index})`,
      script: {
        on: REACTIONS,
        steps: [
          { id: 'list', tool: 'list_documents', args: { folder } },
          {
            id: 'read',
            tool: 'read_document',
            args: { docId },
            alternatives: [{ tool: 'read_deleted_document', args: { docId } }],
          },
        ],
        submit: { resultFrom: 'read' },
      },
      arrange() {
        env.world.addDocument(folder, docId, text);
        env.world.deleteAfterListing(folder, docId);
      },
      curedAtMs: never,
      judge: (o) =>
        judgeSuccess(o, {
          matches: (r) => hasFields(r, { docId, text }),
          what: 'document read',
          at: lastSuccessEnd(o, 'read_deleted_document'),
        }),
    };
  },
};

/**
 * How late a late answer comes, ms: far past the tools' 2 s client timeout, so that the client has given up whatever
 * the load. At 2.5 s a loaded CI machine (load 6 on 2 cores) let one answer in before the client's timer fired: the
 * refund then succeeded plainly, with no reconciliation, and the row was scored wrong (CI, 2026-12-06). The server
 * writes nothing to a socket the client closed.
 */
const LATE_ANSWER_MS = 30_000;

export const lostRefund: Scenario = {
  name: 'lost-response-refund',
  exercises: 'outcome_unknown (a commit whose answer is lost)',
  description:
    'the ledger commits the refund and drops the connection, answers after the client gave up, or loses the request in transit (seeded)',
  persistent: false,
  routerActions: ['reconcile'],
  prepare({ index, random, runId, env }: RunContext) {
    const orderId = `O-${index}`;
    const fault = (['lose_response', 'late_response', 'lost_in_transit'] as const)[Math.floor(random() * 3)]!;
    let faulted: Dispatch | undefined;
    const judgeAt = (o: RunOutcome) =>
      fault === 'lost_in_transit' ? lastSuccessEnd(o, 'issue_refund') : appliedLookupEnd(o, 'issue_refund');
    return {
      goal: `Refund 500 cents on order ${orderId} (run ${index})`,
      script: {
        on: REACTIONS,
        steps: [{ id: 'refund', tool: 'issue_refund', args: { orderId, amountCents: 500 } }],
        submit: { resultFrom: 'refund' },
      },
      arrange: () =>
        env.armLedgerFault(
          runId,
          fault === 'late_response' ? { kind: fault, delayMs: LATE_ANSWER_MS } : { kind: fault },
        ),
      curedAtMs(d) {
        faulted ??= d;
        // A lost answer after the commit: the refund exists, a re-execution can only collide with it (409).
        return d === faulted && fault === 'lost_in_transit' ? 0 : null;
      },
      judge(o) {
        const rows = countRefunds(env, orderId);
        return judgeSuccess(o, {
          matches: (r) => hasFields(r, { orderId, amountCents: 500 }),
          rows,
          what: `refund row (${fault})`,
          at: judgeAt(o),
        });
      },
    };
  },
};

function countRefunds(env: RunContext['env'], orderId: string): number {
  return (env.ledger.db.prepare('SELECT COUNT(*) AS n FROM refunds WHERE order_id = ?').get(orderId) as { n: number })
    .n;
}

export const lostEmail: Scenario = {
  name: 'lost-response-email',
  exercises: 'outcome_unknown (a provider without idempotency keys)',
  description: 'the provider sends the e-mail and drops the connection, or answers after the client gave up',
  persistent: false,
  routerActions: ['reconcile'],
  prepare({ index, random, env }: RunContext) {
    const recipient = `reader${index}@example.org`;
    const late = random() < 0.5;
    return {
      goal: `Send issue 42 of the newsletter to ${recipient} (run ${index})`,
      script: {
        on: REACTIONS,
        steps: [{ id: 'send', tool: 'send_email', args: { recipient, issue: '42' } }],
        submit: { resultFrom: 'send' },
      },
      arrange: () => env.armEmailFault(recipient, late ? LATE_ANSWER_MS : 'destroy'),
      curedAtMs: never, // the e-mail was sent: a re-execution sends another
      judge: (o) =>
        judgeSuccess(o, {
          matches: (r) => hasFields(r, { recipient, issue: '42' }),
          rows: env.world.rows('emails', 'recipient', recipient),
          what: `e-mail (${late ? 'late answer' : 'lost answer'})`,
          at: appliedLookupEnd(o, 'send_email'),
        }),
    };
  },
};

export const alreadyHolds: Scenario = {
  name: 'already-holds',
  exercises: 'a state that already holds (409 to a write whose goal is met)',
  description: 'subscribe an address that is already on the list: 409 already_subscribed; the goal holds',
  persistent: true,
  routerActions: ['reconcile'], // a reconciliation settled by the postcondition (`already_satisfied`)
  prepare({ index, env }: RunContext) {
    const email = `member${index}@example.org`;
    const list = 'weekly';
    return {
      goal: `Make sure ${email} gets the weekly newsletter (run ${index})`,
      script: {
        on: REACTIONS,
        steps: [{ id: 'subscribe', tool: 'subscribe_to_list', args: { email, list } }],
        submit: { result: { email, list, subscribed: true } },
      },
      arrange: () => env.world.subscribe(email, list),
      curedAtMs: never,
      judge: (o) => {
        const rows = env.world.rows('subscriptions', 'email', email);
        const correct = o.status === 'submitted' && rows === 1;
        return {
          correct,
          finalState: `${rows} subscription; ${o.status}`,
          duplicateSideEffects: Math.max(0, rows - 1),
          // The router learns it from its postcondition read; a baseline never does.
          correctActionAtMs: correct ? (holdsVerifyEnd(o, 'subscribe_to_list') ?? o.endMs) : null,
        };
      },
    };
  },
};
