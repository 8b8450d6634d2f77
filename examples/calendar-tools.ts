/**
 * Tools on the calendar service (examples/calendar-service.ts): list a day's free slots, then book one. Between
 * the two a slot can be taken by someone else; the booking then answers `409 slot_taken` with the day's free
 * slots, which the router classifies `semantic_rejection/conflict` and routes to `replan`, the free slots reaching
 * the model as `feedback.observedState`. The calendar deduplicates by `Idempotency-Key`, so a booking is
 * replay-safe; it also has a terminal-state lookup by operation_id.
 */
import { z } from 'zod';
import { defineTool, type LookupResult } from '../activities/define-tool';
import { HttpOutcomeError } from '../activities/http';

const Day = z.iso.date().describe('the day, YYYY-MM-DD');
const Slot = z
  .string()
  .regex(/^\d{2}:\d{2}$/)
  .describe('a start time HH:MM from list_free_slots');

const Booking = z.object({
  bookingId: z.string().min(1),
  day: z.string(),
  slot: z.string(),
  customerId: z.string(),
});
const FreeSlots = z.object({ day: z.string(), free: z.array(z.string()) });

export interface CalendarToolOptions {
  /** Client timeout of each request, in ms. @default 2_000 */
  requestTimeoutMs?: number;
  /** Activity StartToClose timeout, in ms. @default 5_000 */
  startToCloseMs?: number;
}

/** The calendar tools, calling the service at `baseUrl` (`http://host:port`, no trailing slash). */
export function calendarTools(baseUrl: string, options: CalendarToolOptions = {}) {
  const timeoutMs = options.requestTimeoutMs ?? 2_000;
  const timeouts = { startToCloseMs: options.startToCloseMs ?? 5_000 };

  const listSlots = defineTool({
    name: 'list_free_slots',
    description: 'Lists the free one-hour slots of a day in the calendar.',
    input: z.object({ day: Day }).strict(),
    output: FreeSlots,
    effect: 'read',
    downstream: 'calendar',
    timeouts,
    async execute(args, ctx) {
      return (
        await ctx.http.request({ url: `${baseUrl}/calendar/slots?day=${encodeURIComponent(args.day)}`, timeoutMs })
      ).body as never;
    },
  });

  const bookSlot = defineTool({
    name: 'book_calendar_slot',
    description: 'Books a free one-hour calendar slot for a customer call.',
    input: z.object({ day: Day, slot: Slot, customerId: z.string().regex(/^cus_/) }).strict(),
    output: Booking,
    effect: 'write',
    idempotency: { carrier: 'header', name: 'Idempotency-Key', deduplicates: true },
    downstream: 'calendar',
    timeouts,
    async execute(args, ctx) {
      return (await ctx.http.request({ method: 'POST', url: `${baseUrl}/calendar/bookings`, json: args, timeoutMs }))
        .body as never;
    },
    /** 200 → applied; 404 → not_applied (the calendar commits before it answers); anything else throws. */
    async lookup(operationId, ctx): Promise<LookupResult<z.output<typeof Booking>>> {
      try {
        const url = `${baseUrl}/calendar/bookings?op_key=${encodeURIComponent(operationId)}`;
        return { state: 'applied', result: (await ctx.http.request({ url, timeoutMs })).body as never };
      } catch (err) {
        if (HttpOutcomeError.is(err) && err.outcome.status === 404) return { state: 'not_applied' };
        throw err;
      }
    },
  });

  return { listSlots, bookSlot, all: [listSlots, bookSlot] };
}
