/**
 * The eval's tools: ordinary `defineTool` declarations on the world service (bench/eval/world-service.ts), the
 * examples' calendar and ledger, the OAuth loopback and PostgreSQL — what a user of the plugin writes. The same
 * declarations run under the router and, through their `execute`, under the baselines.
 */
import { z } from 'zod';
import { defineTool, type AnyTool, type LookupResult } from '../../activities/define-tool';
import { HttpOutcomeError } from '../../activities/http';
import type { ToolContext } from '../../activities/tool-context';

export const RecordShape = z.object({
  recordId: z.string(),
  title: z.string(),
  owner: z.string().optional(),
  updatedAt: z.string().optional(),
});
export const RecordArgs = z.object({
  recordId: z.string().regex(/^R-\d+$/),
  fields: z
    .array(z.enum(['title', 'owner', 'updatedAt']))
    .min(1)
    .optional(),
  format: z.string().optional(),
  page: z.number().int().min(1).optional(),
});
const quiet = { startToCloseMs: 5_000 };

/** GET `url` through `ctx.http` and return the body (a non-2xx throws `HttpOutcomeError`). */
async function get(ctx: ToolContext, url: string, timeoutMs = 2_000): Promise<never> {
  return (await ctx.http.request({ url, timeoutMs })).body as never;
}

/** 200 → applied; 404 → not_applied; anything else throws (the lookup is retried). */
async function lookupBy<T>(ctx: ToolContext, url: string): Promise<LookupResult<T>> {
  try {
    return { state: 'applied', result: (await ctx.http.request({ url, timeoutMs: 2_000 })).body as T };
  } catch (err) {
    if (HttpOutcomeError.is(err) && err.outcome.status === 404) return { state: 'not_applied' };
    throw err;
  }
}

function recordQuery(args: z.output<typeof RecordArgs>): string {
  const q = new URLSearchParams();
  if (args.fields) q.set('fields', args.fields.join(','));
  if (args.format) q.set('format', args.format);
  if (args.page) q.set('page', String(args.page));
  const s = q.toString();
  return s ? `?${s}` : '';
}

/** A read of a record from `path` (`/records`, `/replica/records`). */
function recordTool(name: string, description: string, base: string, path: string, more: object = {}): AnyTool {
  return defineTool({
    name,
    description,
    input: RecordArgs,
    output: RecordShape,
    effect: 'read',
    downstream: 'world',
    timeouts: quiet,
    ...more,
    execute: (args, ctx) => get(ctx, `${base}${path}/${encodeURIComponent(args.recordId)}${recordQuery(args)}`),
  });
}

/** Reads: records, stock, documents, quotes. */
export function worldReadTools(base: string): AnyTool[] {
  const docArgs = z.object({ docId: z.string().min(1) }).strict();
  const Doc = z.object({ docId: z.string(), text: z.string() });
  const read = <I extends z.ZodType, O extends z.ZodType>(
    name: string,
    description: string,
    input: I,
    output: O,
    url: (args: z.output<I>) => string,
  ) =>
    defineTool({
      name,
      description,
      input,
      output,
      effect: 'read',
      downstream: 'world',
      timeouts: quiet,
      execute: (args, ctx) => get(ctx, `${base}${url(args)}`),
    });
  return [
    recordTool('get_record', 'Reads a record from the primary store.', base, '/records'),
    recordTool('get_record_replica', 'Reads a record from the read replica.', base, '/replica/records'),
    read(
      'get_stock',
      'Units in stock for a SKU.',
      z.object({ sku: z.string().min(1) }).strict(),
      z.object({ sku: z.string(), units: z.number().int() }),
      (a) => `/inventory/${encodeURIComponent(a.sku)}`,
    ),
    read(
      'list_documents',
      'Lists the documents of a folder.',
      z.object({ folder: z.string().min(1) }).strict(),
      z.object({ docs: z.array(z.string()) }),
      (a) => `/docs?folder=${encodeURIComponent(a.folder)}`,
    ),
    read('read_document', 'Reads a document.', docArgs, Doc, (a) => `/docs/${encodeURIComponent(a.docId)}`),
    read(
      'read_deleted_document',
      'Reads a document from the trash.',
      docArgs,
      Doc,
      (a) => `/trash/docs/${encodeURIComponent(a.docId)}`,
    ),
    read(
      'get_quote',
      'The current price of a SKU, in cents.',
      z.object({ sku: z.string().min(1) }).strict(),
      z.object({ sku: z.string(), priceCents: z.number().int() }),
      (a) => `/quotes/${encodeURIComponent(a.sku)}`,
    ),
  ];
}

/** A POST of `args` to `base + path` with the operation_id as `Idempotency-Key` (ctx.http sends it). */
const post = (base: string, path: string) => async (args: unknown, ctx: ToolContext) =>
  (await ctx.http.request({ method: 'POST', url: `${base}${path}`, json: args, timeoutMs: 2_000 })).body as never;

/** Writes: orders, invoices, summaries, exports, subscriptions, e-mails. */
export function worldWriteTools(base: string): AnyTool[] {
  const keyed = { carrier: 'header', name: 'Idempotency-Key', deduplicates: true } as const;
  const write = { effect: 'write', downstream: 'world', timeouts: quiet } as const;
  return [
    defineTool({
      name: 'place_order',
      description: 'Orders a SKU at the quoted price (cents); refused with the current price if it changed.',
      input: z.object({ sku: z.string().min(1), priceCents: z.number().int().positive() }).strict(),
      output: z.object({ orderId: z.string(), sku: z.string(), priceCents: z.number().int() }),
      idempotency: keyed,
      ...write,
      execute: post(base, '/orders'),
    }),
    defineTool({
      name: 'create_invoice',
      description: 'Creates an invoice for a customer.',
      input: z
        .object({
          customerId: z.string().regex(/^cus_/),
          amountCents: z.number().int().positive(),
          currency: z.enum(['usd', 'eur']),
          dueDate: z.iso.date(),
        })
        .strict(),
      output: z.object({ invoiceId: z.string() }),
      idempotency: keyed,
      ...write,
      execute: post(base, '/invoices'),
    }),
    defineTool({
      name: 'save_summary',
      description: "Saves a record's summary for the weekly report.",
      input: z.object({ recordId: z.string(), title: z.string().min(1) }).strict(),
      output: z.object({ summaryId: z.string(), recordId: z.string(), title: z.string() }),
      idempotency: { carrier: 'header', name: 'Idempotency-Key', deduplicates: false },
      ...write,
      // The world commits a summary before it answers and its lookup reads the same store: a "not found" is final at
      // once (docs/tools.md, `commit`), as the ledger's (examples/ledger-tools.ts).
      commit: { settleMs: 0, lookupLagMs: 0 },
      execute: post(base, '/summaries'),
      lookup: (operationId, ctx) => lookupBy(ctx, `${base}/summaries?op_key=${encodeURIComponent(operationId)}`),
    }),
    defineTool({
      name: 'export_report',
      description: 'Exports a report to the shared drive.',
      input: z.object({ reportId: z.string().min(1) }).strict(),
      output: z.object({ exportId: z.string() }),
      idempotency: keyed,
      ...write,
      execute: post(base, '/exports'),
    }),
    defineTool({
      name: 'subscribe_to_list',
      description: 'Subscribes an e-mail address to a mailing list.',
      input: z.object({ email: z.email(), list: z.string().min(1) }).strict(),
      output: z.object({ subscriptionId: z.string() }),
      ...write,
      execute: post(base, '/subscriptions'),
      // The postcondition: the address is on the list (docs/DESIGN.md, "Already done is done").
      async verify(args, ctx) {
        const q = `email=${encodeURIComponent(args.email)}&list=${encodeURIComponent(args.list)}`;
        const r = (await get(ctx, `${base}/subscriptions?${q}`)) as { subscribed: boolean };
        return r.subscribed ? 'holds' : 'does_not_hold';
      },
    }),
    defineTool({
      name: 'send_email',
      description: 'Sends one e-mail through a provider without idempotency keys.',
      input: z.object({ recipient: z.email(), issue: z.string().min(1) }).strict(),
      output: z.object({ messageId: z.string(), recipient: z.string(), issue: z.string() }),
      ...write,
      // The provider keeps the sender's reference (`dedupeKey`) but does not deduplicate on it.
      execute: async (args, ctx) => post(base, '/emails')({ ...args, dedupeKey: ctx.operationId }, ctx),
      lookup: (operationId, ctx) => lookupBy(ctx, `${base}/emails?dedupe_key=${encodeURIComponent(operationId)}`),
    }),
    defineTool({
      name: 'render_invoice_pdf',
      description: 'Renders an invoice as a PDF.',
      input: z.object({ invoiceId: z.string().min(1) }).strict(),
      output: z.object({ url: z.string() }),
      effect: 'read',
      timeouts: quiet,
      async execute(args) {
        // A bug: the renderer reads line items the invoice object does not carry.
        const invoice = { id: args.invoiceId } as { id: string; lines?: { cents: number }[] };
        const total = invoice.lines!.map((l) => l.cents).reduce((a, b) => a + b, 0);
        return { url: `/pdf/${args.invoiceId}?total=${total}` };
      },
    }),
  ];
}
