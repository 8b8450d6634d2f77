/**
 * The example tools of the main job and the tests: a small support desk behind a loopback HTTP service.
 * They are ordinary `defineTool` declarations: what a user of the plugin writes.
 */
import { z } from 'zod';
import { defineTool } from '../activities/define-tool';

/** The example tools, calling the service at `baseUrl`. */
export function supportTools(baseUrl: string) {
  const checkInventory = defineTool({
    name: 'check_inventory',
    description: 'Items in stock for a SKU.',
    input: z.object({ sku: z.string().min(1) }).strict(),
    output: z.object({ items: z.array(z.object({ id: z.string() })) }),
    effect: 'read',
    timeouts: { startToCloseMs: 5_000 },
    async execute(args, ctx) {
      return (await ctx.http.request({ url: `${baseUrl}/inventory?sku=${encodeURIComponent(args.sku)}` }))
        .body as never;
    },
  });

  const bookSlot = defineTool({
    name: 'book_slot',
    description: 'Books a calendar slot for a customer call.',
    input: z.object({ slot: z.string().regex(/^\d{2}:\d{2}$/), customerId: z.string().regex(/^cus_/) }).strict(),
    output: z.object({ bookingId: z.string().min(1) }),
    effect: 'write',
    idempotency: { carrier: 'header', name: 'Idempotency-Key', deduplicates: true },
    timeouts: { startToCloseMs: 5_000 },
    async execute(args, ctx) {
      return (await ctx.http.request({ method: 'POST', url: `${baseUrl}/calendar/book`, json: args })).body as never;
    },
  });

  const createInvoice = defineTool({
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
    output: z.object({ id: z.string().min(1) }),
    effect: 'write',
    idempotency: { carrier: 'header', name: 'Idempotency-Key', deduplicates: true },
    timeouts: { startToCloseMs: 5_000 },
    async execute(args, ctx) {
      return (await ctx.http.request({ method: 'POST', url: `${baseUrl}/invoices`, json: args })).body as never;
    },
  });

  return { checkInventory, bookSlot, createInvoice, all: [checkInventory, bookSlot, createInvoice] };
}
