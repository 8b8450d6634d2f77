/**
 * The `pay` write tool as issue 27 describes it, built from a plain recipe (so a worker process can build the same
 * tool): `effect: 'write'`, the operation id in the `Idempotency-Key` header, `deduplicates` per column, a `lookup`
 * an author would write (200 → applied, 404 → not_applied, anything else throws) and a `verify` read by invoice,
 * each present per column. `quirk` is what the tool does after its POST was answered 2xx. Two reads for the slot
 * test: `stuck_read` never settles (it ignores its AbortSignal), `plain_read` reads the invoice's payments. Every
 * request carries the service's API key in `x-api-key` (`PAY_API_KEY`), which the tool marks secret.
 */
import { z } from 'zod';
import { defineTool, type AnyTool, type LookupResult, type VerifyResult } from '../../activities/define-tool';
import { HttpOutcomeError } from '../../activities/http';
import type { ToolContext } from '../../activities/tool-context';
import { PAY_START_TO_CLOSE_MS, type Column } from './columns';
import type { ToolQuirk } from './fault-kinds';

export interface PayRecipe {
  /** Base URL of the payments service (or of a proxy in front of it). */
  url: string;
  column: Column;
  quirk: ToolQuirk;
  /** Add `stuck_read` and `plain_read`. @default false */
  reads?: boolean;
  /** `pay`'s `commit` declaration. @default undeclared */
  commit?: { settleMs: number; lookupLagMs: number };
  /** `pay`'s StartToClose timeout, ms. @default PAY_START_TO_CLOSE_MS */
  startToCloseMs?: number;
}

/** The payments service's API key, sent by every request of `pay` (a planted secret: it must never leave its origin). */
export const PAY_API_KEY = 'pk_live_W1reS4fetyK3y7Qz';
const headers = { 'x-api-key': PAY_API_KEY };

const Payment = z.object({
  paymentId: z.string().min(1),
  invoice: z.string(),
  amountCents: z.number().int(),
  status: z.literal('captured'),
  receipt: z.unknown().optional(),
});
type PaymentOut = z.output<typeof Payment>;
const PayArgs = z.object({
  invoice: z.string().regex(/^INV-[A-Za-z0-9-]+$/),
  amountCents: z.number().int().positive(),
});
type PayArgs = z.output<typeof PayArgs>;

/** A value the tool throws or returns after its POST was answered 2xx. @throws per `quirk`. */
async function afterCommit(quirk: ToolQuirk, payment: PaymentOut, poll: () => Promise<unknown>): Promise<PaymentOut> {
  switch (quirk.kind) {
    case 'none':
      return payment;
    case 'poll_async': {
      if ((payment as { status?: unknown }).status !== 'pending') return payment;
      const op = (await poll()) as PaymentOut | { status: 'failed' };
      if (op.status === 'failed') throw new Error('the payment failed');
      return op;
    }
    case 'return_bytes':
      return { ...payment, receipt: 'x'.repeat(quirk.bytes) };
    case 'return_bigint':
      return { ...payment, receipt: { amountMinor: BigInt(payment.amountCents) } };
    case 'return_circular': {
      const p: PaymentOut & { receipt?: unknown } = { ...payment };
      p.receipt = { payment: p };
      return p;
    }
    case 'throw':
      throw nonError(quirk.value);
    case 'throw_cause_loop': {
      const a = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET', syscall: 'read', errno: -104 });
      if (quirk.loop === 'self') a.cause = a;
      else a.cause = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET', cause: a });
      throw a;
    }
    case 'hang':
      return new Promise<never>(() => undefined);
  }
}

/** The non-Error values issue 27 names. */
function nonError(value: Extract<ToolQuirk, { kind: 'throw' }>['value']): unknown {
  switch (value) {
    case 'null':
      return null;
    case 'undefined':
      return undefined;
    case 'string':
      return 'payment captured but the receipt could not be stored';
    case 'number':
      return 42;
    case 'symbol':
      return Symbol('receipt');
    case 'revoked_proxy': {
      const { proxy, revoke } = Proxy.revocable({}, {});
      revoke();
      return proxy;
    }
    case 'getters': {
      const thrower = () => {
        throw new Error('getter exploded');
      };
      const o: object = {};
      for (const k of ['message', 'name', 'stack', 'cause', 'code', 'status', 'errors', 'toString', 'toJSON'])
        Object.defineProperty(o, k, { get: thrower, enumerable: true });
      return o;
    }
  }
}

async function lookupPayment(url: string, operationId: string, ctx: ToolContext): Promise<LookupResult<PaymentOut>> {
  try {
    const r = await ctx.http.request({ url: `${url}/payments/by-key/${encodeURIComponent(operationId)}`, headers });
    // An asynchronous API's operation that failed: what an author maps to "not applied".
    if ((r.body as { status?: unknown }).status === 'failed') return { state: 'not_applied' };
    return { state: 'applied', result: r.body as PaymentOut };
  } catch (err) {
    if (HttpOutcomeError.is(err) && err.outcome.status === 404) return { state: 'not_applied' };
    throw err;
  }
}

async function verifyPayment(url: string, args: PayArgs, ctx: ToolContext): Promise<VerifyResult> {
  const r = await ctx.http.request({ url: `${url}/payments?invoice=${encodeURIComponent(args.invoice)}`, headers });
  const list = (r.body as { payments: unknown[] }).payments;
  if (!Array.isArray(list)) throw new Error('the payments list is not an array');
  return list.length > 0 ? { verdict: 'holds', state: list[0] } : 'does_not_hold';
}

export function payTool(recipe: PayRecipe): AnyTool {
  const { url, column, quirk } = recipe;
  return defineTool({
    name: 'pay',
    description: 'Captures a payment for an invoice.',
    input: PayArgs,
    output: Payment,
    effect: 'write',
    idempotency: { carrier: 'header', name: 'Idempotency-Key', deduplicates: column.dedup },
    timeouts: { startToCloseMs: recipe.startToCloseMs ?? PAY_START_TO_CLOSE_MS },
    ...(recipe.commit ? { commit: recipe.commit } : {}),
    secretHeaders: ['x-api-key'],
    async execute(args, ctx) {
      const r = await ctx.http.request({ method: 'POST', url: `${url}/payments`, json: args, headers });
      const poll = async () =>
        (await ctx.http.request({ url: `${url}/payments/by-key/${encodeURIComponent(ctx.operationId)}`, headers }))
          .body;
      return afterCommit(quirk, r.body as PaymentOut, poll);
    },
    ...(column.lookup
      ? { lookup: (operationId: string, ctx: ToolContext) => lookupPayment(url, operationId, ctx) }
      : {}),
    ...(column.verify ? { verify: (args: PayArgs, ctx: ToolContext) => verifyPayment(url, args, ctx) } : {}),
  });
}

/** The reads of the slot test: one that never settles, one that answers. StartToClose 1.5 s. */
export function slotReads(url: string): AnyTool[] {
  const input = z.object({ invoice: z.string() });
  const output = z.object({ payments: z.array(z.unknown()) });
  const timeouts = { startToCloseMs: 1_500 };
  return [
    defineTool({
      name: 'stuck_read',
      description: 'Reads payments from a replica that never answers.',
      input,
      output,
      effect: 'read',
      timeouts,
      execute: () => new Promise<never>(() => undefined),
    }),
    defineTool({
      name: 'plain_read',
      description: "Reads an invoice's payments.",
      input,
      output,
      effect: 'read',
      timeouts,
      async execute(args, ctx) {
        return (await ctx.http.request({ url: `${url}/payments?invoice=${encodeURIComponent(args.invoice)}` }))
          .body as never;
      },
    }),
  ];
}

export function toolsOf(recipe: PayRecipe): AnyTool[] {
  return recipe.reads ? [payTool(recipe), ...slotReads(recipe.url)] : [payTool(recipe)];
}
