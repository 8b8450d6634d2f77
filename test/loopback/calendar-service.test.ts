/**
 * Loopback tests of the calendar fixture (examples/calendar-service.ts) and its tools (examples/calendar-tools.ts):
 * real HTTP on 127.0.0.1 against SQLite, no Temporal server. The tools run through the real activity edge
 * (`createToolActivities` under `MockActivityEnvironment`), so a 409 leaves as the `ApplicationFailure` a worker
 * would send, and `routeFor` / `feedbackFor` get exactly what the workflow-side router gets.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApplicationFailure } from '@temporalio/common';
import { activityEnv } from '../fixtures/activity-env';
import {
  CalendarServiceError,
  startCalendarService,
  WORKING_SLOTS,
  type CalendarService,
} from '../../examples/calendar-service';
import { calendarTools } from '../../examples/calendar-tools';
import { createToolActivities, type ToolInvocation } from '../../activities/invoke-tool';
import { DEFAULT_BACKOFF_POLICY } from '../../recovery/backoff';
import { classify, type CallContext } from '../../recovery/classify';
import type { FailureMeta, ToolFailure } from '../../recovery/failure';
import { feedbackFor } from '../../recovery/feedback';
import { routeFor } from '../../recovery/routes';

const DAY = '2026-12-01';
const ALL_FREE = ['09:00', '10:00', '11:00', '12:00', '13:00', '14:00', '15:00', '16:00'];

let service: CalendarService;
beforeAll(async () => {
  service = await startCalendarService();
});
beforeEach(() => service.reset());
afterAll(() => service?.close());

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** One real HTTP exchange with the service. `key` is sent as `Idempotency-Key`; `raw` is sent as the body text. */
async function call(
  method: 'GET' | 'POST',
  path: string,
  opts: { json?: unknown; raw?: string; key?: string } = {},
): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (opts.key !== undefined) headers['idempotency-key'] = opts.key;
  if (opts.json !== undefined || opts.raw !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${service.url}${path}`, {
    method,
    headers,
    body: opts.raw ?? (opts.json === undefined ? undefined : JSON.stringify(opts.json)),
  });
  const text = await res.text();
  return { status: res.status, headers: Object.fromEntries(res.headers.entries()), body: JSON.parse(text) as unknown };
}
const book = (key: string, json: unknown) => call('POST', '/calendar/bookings', { key, json });
const slots = (day: string) => call('GET', `/calendar/slots?day=${day}`);

describe('calendar service over HTTP', () => {
  test('GET /calendar/slots → 200 with the 8 working slots of an empty day, 1 hit', async () => {
    expect(WORKING_SLOTS).toEqual(ALL_FREE);
    const r = await slots(DAY);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ day: DAY, free: ALL_FREE });
    expect(service.hits('GET /calendar/slots')).toBe(1);
    expect(service.hits('POST /calendar/bookings')).toBe(0);
  });

  test('POST /calendar/bookings → 201 with the booking, 1 row under the key; the slot leaves the free list', async () => {
    const r = await book('op-a', { day: DAY, slot: '10:00', customerId: 'cus_7' });
    expect(r.status).toBe(201);
    expect(r.body).toEqual({ bookingId: 'bk_1', day: DAY, slot: '10:00', customerId: 'cus_7' });
    expect(r.headers['idempotent-replayed']).toBeUndefined();
    expect(service.rows()).toBe(1);
    expect(service.rows({ opKey: 'op-a', customerId: 'cus_7' })).toBe(1);
    expect(service.bookings()).toEqual([
      {
        bookingId: 'bk_1',
        day: DAY,
        slot: '10:00',
        customerId: 'cus_7',
        opKey: 'op-a',
        createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      },
    ]);
    expect((await slots(DAY)).body).toEqual({ day: DAY, free: ALL_FREE.filter((s) => s !== '10:00') });
    expect((await slots('2026-12-02')).body).toEqual({ day: '2026-12-02', free: ALL_FREE });
  });

  test('a taken slot → 409 slot_taken with the free slots, row count unchanged', async () => {
    await book('op-a', { day: DAY, slot: '10:00', customerId: 'cus_7' });
    const r = await book('op-b', { day: DAY, slot: '10:00', customerId: 'cus_8' });
    expect(r.status).toBe(409);
    expect(r.body).toEqual({
      code: 'slot_taken',
      message: 'slot 10:00 on 2026-12-01 is taken',
      free: ['09:00', '11:00', '12:00', '13:00', '14:00', '15:00', '16:00'],
    });
    expect(service.rows()).toBe(1);
    expect(service.rows({ opKey: 'op-b' })).toBe(0);
    expect(service.hits('POST /calendar/bookings')).toBe(2);
  });

  test('the same Idempotency-Key again → 200 with the original bookingId, Idempotent-Replayed, no new row', async () => {
    const first = await book('op-a', { day: DAY, slot: '10:00', customerId: 'cus_7' });
    const again = await book('op-a', { day: DAY, slot: '10:00', customerId: 'cus_7' });
    expect(first.status).toBe(201);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(service.rows()).toBe(1);
    expect(service.hits('POST /calendar/bookings')).toBe(2);
  });

  test('the same Idempotency-Key with another body → 422 idempotency_key_reused, no new row', async () => {
    await book('op-a', { day: DAY, slot: '10:00', customerId: 'cus_7' });
    const r = await book('op-a', { day: DAY, slot: '11:00', customerId: 'cus_7' });
    expect(r.status).toBe(422);
    expect(r.body).toEqual({
      code: 'idempotency_key_reused',
      message: 'this Idempotency-Key was already used with another request body',
    });
    expect(service.rows()).toBe(1);
  });

  test('GET /calendar/bookings?op_key → 200 with the booking; an unknown key → 404 not_found', async () => {
    await book('op-a', { day: DAY, slot: '13:00', customerId: 'cus_7' });
    const found = await call('GET', '/calendar/bookings?op_key=op-a');
    expect(found.status).toBe(200);
    expect(found.body).toEqual({ bookingId: 'bk_1', day: DAY, slot: '13:00', customerId: 'cus_7' });
    const missing = await call('GET', '/calendar/bookings?op_key=op-z');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ code: 'not_found', message: 'no booking under this key' });
    expect(service.hits('GET /calendar/bookings')).toBe(2);
  });

  test('takeAfterListing: the listing still shows the slot free, the next booking of it → 409, the row is the other customer’s', async () => {
    service.takeAfterListing(DAY, '10:00', 'cus_other');
    const listed = await slots(DAY);
    expect(listed.body).toEqual({ day: DAY, free: ALL_FREE });
    const r = await book('op-a', { day: DAY, slot: '10:00', customerId: 'cus_7' });
    expect(r.status).toBe(409);
    expect(r.body).toEqual({
      code: 'slot_taken',
      message: 'slot 10:00 on 2026-12-01 is taken',
      free: ['09:00', '11:00', '12:00', '13:00', '14:00', '15:00', '16:00'],
    });
    expect(service.rows()).toBe(1);
    expect(service.bookings()).toEqual([
      expect.objectContaining({ bookingId: 'bk_1', day: DAY, slot: '10:00', customerId: 'cus_other', opKey: null }),
    ]);
    expect(service.rows({ customerId: 'cus_7' })).toBe(0);
  });

  test('takeAfterListing fires once, only on a listing of its day', async () => {
    service.takeAfterListing(DAY, '10:00', 'cus_other');
    await slots('2026-12-02');
    expect(service.rows()).toBe(0);
    await slots(DAY);
    await slots(DAY);
    expect(service.rows()).toBe(1);
    expect((await book('op-a', { day: '2026-12-02', slot: '10:00', customerId: 'cus_7' })).status).toBe(201);
    expect(service.rows()).toBe(2);
    expect(service.hits('GET /calendar/slots')).toBe(3);
  });

  test('takeAfterListing on a slot already booked leaves the booking as it is', async () => {
    await book('op-a', { day: DAY, slot: '10:00', customerId: 'cus_7' });
    service.takeAfterListing(DAY, '10:00', 'cus_other');
    expect((await slots(DAY)).status).toBe(200);
    expect(service.rows()).toBe(1);
    expect(service.rows({ customerId: 'cus_7' })).toBe(1);
  });

  test('takeAfterListing with a bad day, slot or customer → CalendarServiceError naming it', () => {
    const codeOf = (f: () => void) => {
      try {
        f();
      } catch (err) {
        return err instanceof CalendarServiceError ? err.code : 'other';
      }
      return 'none';
    };
    expect(codeOf(() => service.takeAfterListing('2026-02-30', '10:00', 'cus_x'))).toBe('invalid_day');
    expect(codeOf(() => service.takeAfterListing(DAY, '10:30', 'cus_x'))).toBe('invalid_slot');
    expect(codeOf(() => service.takeAfterListing(DAY, '10:00', ''))).toBe('invalid_customer');
    expect(() => service.takeAfterListing(DAY, '18:00', 'cus_x')).toThrow(
      'takeAfterListing: slot "18:00" is not one of 09:00, 10:00, 11:00, 12:00, 13:00, 14:00, 15:00, 16:00',
    );
  });

  test('a bad body → 422 with one field error per bad field, no row', async () => {
    const r = await book('op-a', { day: '2026-13-01', slot: '18:00', customerId: 'bob', note: 'x' });
    expect(r.status).toBe(422);
    expect(r.body).toEqual({
      code: 'invalid_request',
      message:
        'day must be a date YYYY-MM-DD; slot must be one of 09:00, 10:00, 11:00, 12:00, 13:00, 14:00, 15:00, 16:00; customerId must look like cus_<id>; note is not a known field',
      errors: [
        { field: 'day', message: 'must be a date YYYY-MM-DD', value: '2026-13-01' },
        {
          field: 'slot',
          message: 'must be one of 09:00, 10:00, 11:00, 12:00, 13:00, 14:00, 15:00, 16:00',
          value: '18:00',
        },
        { field: 'customerId', message: 'must look like cus_<id>', value: 'bob' },
        { field: 'note', message: 'is not a known field' },
      ],
    });
    expect(service.rows()).toBe(0);
  });

  test('classify reads the 422 as invalid_arguments with field-level issues → repair', async () => {
    const r = await book('op-a', { day: DAY, slot: '10:30', customerId: 'cus_7' });
    const ctx: CallContext = {
      tool: 'book_calendar_slot',
      callId: 'call-1',
      effect: 'write',
      deduplicates: true,
      approvalCanLift: false,
      nowMs: Date.UTC(2026, 10, 30),
      diagnosticRef: 'diag-1',
    };
    const failure = classify({ kind: 'http', status: r.status, headers: r.headers, body: r.body }, ctx);
    expect(failure.class).toBe('invalid_arguments');
    expect(failure.reason).toBe('schema');
    expect(failure.issues).toEqual([
      {
        path: ['slot'],
        expected: 'a value the server accepts',
        received: '"10:30"',
        suggestion: 'fix slot and call again',
        serverSaid: 'must be one of 09:00, 10:00, 11:00, 12:00, 13:00, 14:00, 15:00, 16:00',
      },
    ]);
    expect(routeFor(failure).action).toBe('repair');
  });

  test('no Idempotency-Key → 400; malformed JSON → 400; a bad day in the listing → 422; no row', async () => {
    const noKey = await call('POST', '/calendar/bookings', { json: { day: DAY, slot: '10:00', customerId: 'cus_7' } });
    expect(noKey.status).toBe(400);
    expect(noKey.body).toEqual({ code: 'missing_idempotency_key', message: 'the Idempotency-Key header is required' });
    const badJson = await call('POST', '/calendar/bookings', { key: 'op-a', raw: '{"day":' });
    expect(badJson.status).toBe(400);
    expect(badJson.body).toEqual({ code: 'invalid_json', message: 'the body is not JSON' });
    const badDay = await slots('tomorrow');
    expect(badDay.status).toBe(422);
    expect(badDay.body).toEqual({
      code: 'invalid_request',
      message: 'day must be a date YYYY-MM-DD',
      errors: [{ field: 'day', message: 'must be a date YYYY-MM-DD', value: 'tomorrow' }],
    });
    expect(service.rows()).toBe(0);
    expect(service.hits('POST /calendar/bookings')).toBe(2);
  });

  test('a file database keeps bookings and their numbering across a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'calendar-'));
    try {
      const dbFile = join(dir, 'calendar.db');
      const first = await startCalendarService({ dbFile });
      await fetch(`${first.url}/calendar/bookings`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': 'op-a' },
        body: JSON.stringify({ day: DAY, slot: '09:00', customerId: 'cus_7' }),
      });
      await first.close();
      const second = await startCalendarService({ dbFile });
      try {
        const res = await fetch(`${second.url}/calendar/bookings`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'idempotency-key': 'op-b' },
          body: JSON.stringify({ day: DAY, slot: '10:00', customerId: 'cus_7' }),
        });
        expect(res.status).toBe(201);
        expect(((await res.json()) as { bookingId: string }).bookingId).toBe('bk_2');
        expect(second.bookings().map((b) => [b.bookingId, b.slot, b.opKey])).toEqual([
          ['bk_1', '09:00', 'op-a'],
          ['bk_2', '10:00', 'op-b'],
        ]);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('calendar tools through the activity edge (MockActivityEnvironment, no server)', () => {
  const silent = { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error() {} };
  let run: (inv: ToolInvocation) => Promise<unknown>;
  let lookup: (operationId: string) => Promise<unknown>;
  beforeEach(() => {
    const activities = createToolActivities({ tools: calendarTools(service.url).all, backoff: DEFAULT_BACKOFF_POLICY });
    const env = activityEnv({ activityId: 'act-1' }, { logger: silent });
    run = (inv) => env.run(activities.invokeTool, inv);
    lookup = (operationId) =>
      env.run(activities.lookupOperation, { tool: 'book_calendar_slot', operationId, callId: 'call-9' });
  });

  /** What the activity threw, as an ApplicationFailure with [ToolFailure, FailureMeta] details. */
  async function failureOf(
    p: Promise<unknown>,
  ): Promise<{ thrown: ApplicationFailure; failure: ToolFailure; meta: FailureMeta }> {
    const err = await p.then(
      () => undefined,
      (e: unknown) => e,
    );
    if (!(err instanceof ApplicationFailure)) throw new Error(`expected an ApplicationFailure, got ${String(err)}`);
    const [failure, meta] = err.details as [ToolFailure, FailureMeta];
    return { thrown: err, failure, meta };
  }

  const bookArgs = { day: DAY, slot: '10:00', customerId: 'cus_7' };

  test('list_free_slots → the free slots; book_calendar_slot sends the operation_id as Idempotency-Key', async () => {
    await expect(
      run({ tool: 'list_free_slots', args: { day: DAY }, callId: 'call-1', operationId: 'wf-1/list' }),
    ).resolves.toEqual({ value: { day: DAY, free: ALL_FREE }, attempt: 1 });
    await expect(
      run({ tool: 'book_calendar_slot', args: bookArgs, callId: 'call-2', operationId: 'wf-1/book' }),
    ).resolves.toEqual({
      value: { bookingId: 'bk_1', ...bookArgs },
      attempt: 1,
    });
    expect(service.rows({ opKey: 'wf-1/book' })).toBe(1);
  });

  test('taken between plan and execution: 409 slot_taken → semantic_rejection/conflict, non-retryable, replan; the free slots reach observedState and the feedback', async () => {
    service.takeAfterListing(DAY, '10:00', 'cus_other');
    await run({ tool: 'list_free_slots', args: { day: DAY }, callId: 'call-1', operationId: 'wf-1/list' });
    const { thrown, failure, meta } = await failureOf(
      run({ tool: 'book_calendar_slot', args: bookArgs, callId: 'call-2', operationId: 'wf-1/book' }),
    );
    expect(thrown.type).toBe('SlotTakenError');
    expect(thrown.nonRetryable).toBe(true);
    expect(failure).toEqual({
      tool: 'book_calendar_slot',
      callId: 'call-2',
      class: 'semantic_rejection',
      reason: 'conflict',
      phase: 'dispatch',
      retryable: false,
      replaySafe: true,
      status: 409,
      code: 'slot_taken',
      publicMessage: 'book_calendar_slot: HTTP 409, the call conflicts with the current state of the resource.',
      serverSaid: 'slot_taken: slot 10:00 on 2026-12-01 is taken',
      diagnosticRef: 'test/act-1/1',
    });
    const free = ['09:00', '11:00', '12:00', '13:00', '14:00', '15:00', '16:00'];
    expect(meta).toEqual({
      observedState: { code: 'slot_taken', message: 'slot 10:00 on 2026-12-01 is taken', free },
      attempt: 1,
    });
    const route = routeFor(failure);
    expect(route.action).toBe('replan');
    expect(route.id).toBe('semantic-rejection');
    const feedback = feedbackFor(failure, route.action, { observedState: meta.observedState });
    expect(feedback.errorClass).toBe('semantic_rejection');
    expect((feedback.observedState as { free: string[] }).free).toEqual(free);
    expect(service.rows()).toBe(1);
    expect(service.rows({ customerId: 'cus_7' })).toBe(0);
    expect(service.hits('POST /calendar/bookings')).toBe(1);
  });

  test('the same operation_id again (a Temporal retry) → the same bookingId, no second row', async () => {
    const inv = { tool: 'book_calendar_slot', args: bookArgs, callId: 'call-2', operationId: 'wf-1/book' };
    const first = await run(inv);
    const second = await run(inv);
    expect(second).toEqual(first);
    expect(service.rows()).toBe(1);
    expect(service.hits('POST /calendar/bookings')).toBe(2);
  });

  test('a slot outside working hours passes the tool schema, the calendar answers 422 → invalid_arguments on slot, repair', async () => {
    const { failure } = await failureOf(
      run({
        tool: 'book_calendar_slot',
        args: { ...bookArgs, slot: '18:00' },
        callId: 'call-3',
        operationId: 'wf-1/b3',
      }),
    );
    expect(failure.class).toBe('invalid_arguments');
    expect(failure.status).toBe(422);
    expect(failure.issues?.map((i) => i.path)).toEqual([['slot']]);
    expect(routeFor(failure).action).toBe('repair');
    expect(service.hits('POST /calendar/bookings')).toBe(1);
  });

  test('arguments failing the tool schema → invalid_arguments in preflight, nothing dispatched', async () => {
    const { failure } = await failureOf(
      run({ tool: 'book_calendar_slot', args: { ...bookArgs, extra: 1 }, callId: 'call-4', operationId: 'wf-1/b4' }),
    );
    expect(failure.class).toBe('invalid_arguments');
    expect(failure.phase).toBe('preflight');
    expect(service.hits('POST /calendar/bookings')).toBe(0);
  });

  test('lookup by operation_id: applied with the booking, not_applied for an unknown key', async () => {
    await run({ tool: 'book_calendar_slot', args: bookArgs, callId: 'call-2', operationId: 'wf-1/book' });
    await expect(lookup('wf-1/book')).resolves.toEqual({
      state: 'applied',
      result: { bookingId: 'bk_1', ...bookArgs },
    });
    await expect(lookup('wf-1/other')).resolves.toEqual({ state: 'not_applied' });
    expect(service.hits('GET /calendar/bookings')).toBe(2);
  });
});
