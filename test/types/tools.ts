/** Tools for the typed-router compile test (test/unit/typed-router.test.ts): Node-side `defineTool` results. */
import { z } from 'zod';
import { defineTool } from '../../activities/define-tool';

export const SERVICE_URL = 'http://127.0.0.1:8787';

export const checkInventory = defineTool({
  name: 'check_inventory',
  description: 'Units in stock for a SKU.',
  input: z.object({ sku: z.string().min(1) }),
  output: z.object({ sku: z.string(), units: z.number().int().min(0) }),
  effect: 'read',
  async execute({ sku }) {
    return { sku, units: 4 };
  },
});

export const bookSlot = defineTool({
  name: 'book_slot',
  description: 'Books a calendar slot for a customer call.',
  input: z.object({ slot: z.string(), customerId: z.string(), note: z.string().optional() }),
  output: z.object({ bookingId: z.string().min(1) }),
  effect: 'write',
  async execute() {
    return { bookingId: 'b-1' };
  },
});
