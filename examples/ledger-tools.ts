/**
 * Write tools on the ledger service (examples/ledger-service.ts): a refund and a newsletter e-mail, each with a
 * terminal-state lookup by operation_id. The receivers do NOT deduplicate (a repeated key is a 409), so a write
 * whose answer was lost must be reconciled, never replayed blind.
 */
import { z } from 'zod';
import { defineTool, type LookupResult } from '../activities/define-tool';
import type { ToolContext } from '../activities/tool-context';

const Refund = z.object({
  refundId: z.string().min(1),
  orderId: z.string(),
  amountCents: z.number().int(),
  status: z.string(),
});
const Email = z.object({ messageId: z.string().min(1), recipient: z.string(), issue: z.string() });

/** GET a record by key: 200 → applied; 404 with seen=false → not_applied; 404 with seen=true → unknown. */
async function lookupBy<T>(ctx: ToolContext, url: string, timeoutMs: number): Promise<LookupResult<T>> {
  // A 404 is an answer here, not a failure (`accept`): the ledger's "no such operation".
  const res = await ctx.http.request({ url, timeoutMs, accept: [404] });
  if (res.status !== 404) return { state: 'applied', result: res.body as T };
  const seen = (res.body as { seen?: boolean } | undefined)?.seen === true;
  return seen
    ? { state: 'unknown', detail: 'the request arrived but nothing was committed yet' }
    : { state: 'not_applied' };
}

export interface LedgerToolOptions {
  /** Client timeout of a write, in ms (the tool gives up and the outcome is unknown). @default 2_000 */
  writeTimeoutMs?: number;
  /** Client timeout of a lookup's GET, in ms (a lookup that times out answers nothing and is asked again). @default 2_000 */
  lookupTimeoutMs?: number;
  /** Activity StartToClose timeout, in ms. @default 10_000 */
  startToCloseMs?: number;
  /** Heartbeat timeout, in ms (so a stale attempt learns it was abandoned). @default none */
  heartbeatMs?: number;
}

export function ledgerTools(baseUrl: string, options: LedgerToolOptions = {}) {
  const writeTimeoutMs = options.writeTimeoutMs ?? 2_000;
  const lookupTimeoutMs = options.lookupTimeoutMs ?? 2_000;
  const timeouts = {
    startToCloseMs: options.startToCloseMs ?? 10_000,
    ...(options.heartbeatMs ? { heartbeatMs: options.heartbeatMs } : {}),
  };
  // The ledger's lookup reads the database it commits to, and answers `unknown` for a request it received but has not
  // committed ("seen"): a "not found" means the request never arrived. So nothing needs time to settle or to show.
  const commit = { settleMs: 0, lookupLagMs: 0 };

  const issueRefund = defineTool({
    name: 'issue_refund',
    description: 'Refunds part or all of an order.',
    input: z.object({ orderId: z.string().regex(/^O-\d+$/), amountCents: z.number().int().positive() }).strict(),
    output: Refund,
    effect: 'write',
    idempotency: { carrier: 'header', name: 'Idempotency-Key', deduplicates: false },
    timeouts,
    commit,
    async execute(args, ctx) {
      return (
        await ctx.http.request({ method: 'POST', url: `${baseUrl}/refunds`, json: args, timeoutMs: writeTimeoutMs })
      ).body as never;
    },
    lookup: (operationId, ctx) =>
      lookupBy(ctx, `${baseUrl}/refunds?op_key=${encodeURIComponent(operationId)}`, lookupTimeoutMs),
  });

  const emailInput = z.object({ recipient: z.string().min(1), issue: z.string().min(1) }).strict();
  const sendEmail = (url: string) => async (args: z.output<typeof emailInput>, ctx: ToolContext) =>
    (
      await ctx.http.request({
        method: 'POST',
        url,
        json: { ...args, dedupeKey: ctx.operationId },
        timeoutMs: writeTimeoutMs,
      })
    ).body as never;

  const sendNewsletter = defineTool({
    name: 'send_newsletter',
    description: 'Sends one newsletter issue to one recipient.',
    input: emailInput,
    output: Email,
    effect: 'write',
    idempotency: { carrier: 'header', name: 'X-Dedupe-Key', deduplicates: false },
    timeouts,
    commit,
    execute: sendEmail(`${baseUrl}/emails`),
    lookup: (operationId, ctx) =>
      lookupBy(ctx, `${baseUrl}/messages?dedupe_key=${encodeURIComponent(operationId)}`, lookupTimeoutMs),
  });

  /** The same send through a provider that has no lookup endpoint (its outcome cannot be looked up). */
  const sendNewsletterNoLookup = defineTool({
    name: 'send_newsletter_blind',
    description: 'Sends one newsletter issue through a provider without a message log.',
    input: emailInput,
    output: Email,
    effect: 'write',
    idempotency: { carrier: 'header', name: 'X-Dedupe-Key', deduplicates: false },
    timeouts,
    execute: sendEmail(`${baseUrl}/emails`),
  });

  return {
    issueRefund,
    sendNewsletter,
    sendNewsletterNoLookup,
    all: [issueRefund, sendNewsletter, sendNewsletterNoLookup],
  };
}
