/**
 * Workflow code on a typed router (test/unit/typed-router.test.ts compiles it with `tsc` under `strict`,
 * `exactOptionalPropertyTypes`, `noUncheckedIndexedAccess`, `module node16`). Each marker comment (ts-expect-error) marks a
 * mistake the types must refuse: the test fails if one of them starts to compile.
 */
import type * as tools from './tools';
import { createToolRouter } from '../../workflow';

export async function typedAgent(): Promise<number> {
  const router = createToolRouter<typeof tools>();
  router.startTurn();
  const stock = await router.callTool('check_inventory', { sku: 'desk-1' });
  const units: number = stock.ok ? stock.value.units : 0;
  const name: 'check_inventory' = stock.tool;
  const booking = await router.callTool('book_slot', { slot: '10:00', customerId: 'cus_7' });
  const id: string = booking.ok ? booking.value.bookingId : booking.feedback.message;

  // @ts-expect-error a tool that does not exist
  await router.callTool('check_inventroy', { sku: 'desk-1' });
  // @ts-expect-error an argument of the wrong type
  await router.callTool('check_inventory', { sku: 42 });
  // @ts-expect-error a missing argument
  await router.callTool('book_slot', { slot: '10:00' });
  // @ts-expect-error another tool's result
  const wrong: string = stock.ok ? stock.value.bookingId : '';
  // @ts-expect-error the value of a failed call
  const unchecked: number = stock.value.units;
  // @ts-expect-error the result's field has its own type
  const notText: string = stock.ok ? stock.value.units : '';

  // A name chosen at run time (a model's, an MCP server's) takes the string-named path.
  const byName = await router.callToolByName(String(units), { any: 'thing' });
  return units + name.length + id.length + wrong.length + unchecked + notText.length + (byName.ok ? 1 : 0);
}
