/**
 * Workflow code on a typed router (test/unit/typed-router.test.ts compiles it with `tsc` under `strict`,
 * `exactOptionalPropertyTypes`, `noUncheckedIndexedAccess`, `module node16`). Each marker comment (ts-expect-error) marks a
 * mistake the types must refuse: the test fails if one of them starts to compile. A success says how the call ended
 * (`ended`): a read only runs; a write may also be marked applied by a person, be already satisfied, or have its
 * value omitted, each with a value of its own.
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
  // A write ends in one of four ways when it succeeds; each has its own value.
  let id = '';
  if (!booking.ok) id = booking.feedback.message;
  else if (booking.ended === 'ran') id = booking.value.bookingId;
  else if (booking.ended === 'marked_applied') id = booking.value.resultRef;
  else if (booking.ended === 'already_satisfied') id = String(booking.value.alreadySatisfied);
  else id = booking.value.why; // 'value_omitted': applied, its result could not be carried

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
  // @ts-expect-error a write that succeeded may not have run: marked applied by a person, its value is { resultRef }
  const unchecked2: string = booking.ok ? booking.value.bookingId : '';
  // @ts-expect-error a write already satisfied has no output of the tool
  const satisfied: string = booking.ok && booking.ended === 'already_satisfied' ? booking.value.bookingId : '';
  // @ts-expect-error a read only runs: it is never marked applied
  const readMarked = stock.ok && stock.ended === 'marked_applied';

  // A name chosen at run time (a model's, an MCP server's) takes the string-named path.
  const byName = await router.callToolByName(String(units), { any: 'thing' });
  const ends = [unchecked2, satisfied, readMarked];
  return (
    units + name.length + id.length + wrong.length + unchecked + notText.length + ends.length + (byName.ok ? 1 : 0)
  );
}
