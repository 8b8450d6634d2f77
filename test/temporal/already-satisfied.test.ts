/**
 * Already done is done, on the dev server with the SQLite lists service (examples/lists-service.ts):
 * - a 422 "already in the list" or a 409 "already exists" to a write whose postcondition holds is a success,
 *   `reconciled: 'already_satisfied'`: 1 write + 1 read, never re-executed;
 * - a 409 whose postcondition does not hold is replanned with the state the read found;
 * - a version conflict is replanned with the current version;
 * - a 422 whose message names an input field is repaired, with that field as the issue; no read;
 * - an unknown outcome is verified before any lookup;
 * - a tool without `verify` routes such answers exactly as before: same route, one dispatch, no read.
 */
import fc from 'fast-check';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { z } from 'zod';
import { defineTool } from '../../activities/define-tool';
import { listsTools } from '../../examples/lists-tools';
import { startListsService, type ListsService } from '../../examples/lists-service';
import { startScriptedService, type ScriptedService } from '../../examples/scripted-service';
import { classify } from '../../recovery/classify';
import { routeFor } from '../../recovery/routes';
import { testEnv } from '../setup/env';
import { failedOutcome, harness, okOutcome } from './harness';

let env: TestWorkflowEnvironment;
let lists: ListsService;
let scripted: ScriptedService;
beforeAll(async () => {
  env = await testEnv();
  lists = await startListsService();
  scripted = await startScriptedService({});
});
beforeEach(() => lists.reset());
afterAll(async () => {
  await lists?.close();
  await scripted?.close();
  await env?.teardown();
});

const add = (itemId: number, stepId: string) => ({ tool: 'add_list_item', args: { listId: 7, itemId }, stepId });

test('422 "already in the list" with a holding postcondition: a success, already_satisfied; 1 write + 1 read', async () => {
  const h = await harness(env, listsTools(lists.url).all);
  const r = await h.run(() => h.runPlan({ calls: [add(42, 'first'), add(42, 'again')] }));
  okOutcome(r.outcomes[0]);
  expect(okOutcome(r.outcomes[1])).toMatchObject({
    reconciled: 'already_satisfied',
    value: { alreadySatisfied: true, state: { listId: 7, items: [42] } },
    attempts: 1,
    activities: 2,
  });
  expect(lists.hits('POST /lists/:id/items')).toBe(2);
  expect(lists.hits('GET /lists/:id/items')).toBe(1);
  expect(lists.rows('items')).toBe(1);
  expect(r.records[1]).toMatchObject({
    tool: 'add_list_item',
    terminal: 'succeeded',
    class: 'semantic_rejection',
    action: 'reconcile',
    evidence: 'state_verified',
    reconciled: 'already_satisfied',
  });
});

test('409 "already exists" for the same note: already_satisfied; for another body under the title: replan with the note', async () => {
  const h = await harness(env, listsTools(lists.url).all);
  const note = (body: string, stepId: string) => ({ tool: 'create_note', args: { title: 'Groceries', body }, stepId });
  const r = await h.run(() =>
    h.runPlan({ calls: [note('milk', 'n1'), note('milk', 'n2'), note('eggs', 'n3')], stopOnTerminal: false }),
  );
  okOutcome(r.outcomes[0]);
  expect(okOutcome(r.outcomes[1]).reconciled).toBe('already_satisfied');
  expect(failedOutcome(r.outcomes[2])).toMatchObject({
    action: 'replan',
    failure: { class: 'semantic_rejection', reason: 'conflict', status: 409 },
    feedback: { observedState: { noteId: 1, title: 'Groceries', body: 'milk', version: 1 } },
  });
  expect(lists.hits('POST /notes')).toBe(3);
  expect(lists.hits('GET /notes')).toBe(2);
  expect(lists.rows('notes')).toBe(1);
});

test('a version conflict is replanned with the current version the read found', async () => {
  const h = await harness(env, listsTools(lists.url).all);
  const r = await h.run(() =>
    h.runPlan({
      calls: [
        { tool: 'create_note', args: { title: 'Plan', body: 'v1' }, stepId: 'c' },
        { tool: 'update_note', args: { noteId: 1, body: 'v2', version: 1 }, stepId: 'u1' },
        { tool: 'update_note', args: { noteId: 1, body: 'v3', version: 1 }, stepId: 'u2' },
      ],
    }),
  );
  okOutcome(r.outcomes[1]);
  expect(failedOutcome(r.outcomes[2])).toMatchObject({
    action: 'replan',
    failure: { status: 409 },
    feedback: { observedState: { noteId: 1, body: 'v2', version: 2 } },
  });
  expect(lists.hits('GET /notes/:id')).toBe(1);
});

test('422 "item_id must be positive" names the field itemId: repair with that issue, and nothing is read', async () => {
  const h = await harness(env, listsTools(lists.url).all);
  const r = await h.run(() => h.runPlan({ calls: [add(-3, 'bad')] }));
  expect(failedOutcome(r.outcomes[0])).toMatchObject({
    action: 'repair',
    failure: {
      class: 'invalid_arguments',
      status: 422,
      issues: [
        {
          path: ['itemId'],
          expected: 'a value the server accepts',
          received: 'not reported',
          serverSaid: 'item_id must be positive',
        },
      ],
    },
  });
  expect(lists.hits('GET /lists/:id/items')).toBe(0);
});

test('an unknown outcome is verified before any lookup: the lost answer of a committed add is already_satisfied', async () => {
  const h = await harness(env, listsTools(lists.url).all);
  lists.loseNextResponse();
  const r = await h.run(() => h.runPlan({ calls: [add(5, 'lost')], reconcile: { searchAttributes: false } }));
  expect(okOutcome(r.outcomes[0])).toMatchObject({ reconciled: 'already_satisfied' });
  expect(lists.hits('POST /lists/:id/items')).toBe(1);
  expect(lists.hits('GET /lists/:id/items')).toBe(1);
  expect(lists.rows('items')).toBe(1);
});

test('property: without verify, 409/412/422 answers route exactly as the classifier says, one dispatch, no read', async () => {
  const tool = defineTool({
    name: 'plain_write',
    description: 'A write without a postcondition.',
    input: z.object({ itemId: z.number().int() }).strict(),
    output: z.object({ ok: z.boolean() }),
    effect: 'write',
    async execute(_args, ctx) {
      return (await ctx.http.request({ method: 'POST', url: `${scripted.url}/write` })).body as never;
    },
  });
  const message = fc.oneof(
    fc.constantFrom('Item 4 is already in the list.', 'already exists', 'duplicate key', 'version conflict', 'nope'),
    fc.string({ maxLength: 40 }),
  );
  const answer = fc.record({ status: fc.constantFrom(409, 412, 422), message });
  const h = await harness(env, [tool]);
  await h.run(() =>
    fc.assert(
      fc.asyncProperty(answer, async ({ status, message: text }) => {
        scripted.reset({ 'POST /write': [{ status, body: { message: text } }] });
        const r = await h.runPlan({ calls: [{ tool: 'plain_write', args: { itemId: 4 } }] });
        const expected = classify(
          { kind: 'http', status, headers: {}, body: { message: text } },
          {
            tool: 'plain_write',
            callId: 'x',
            effect: 'write',
            deduplicates: false,
            approvalCanLift: false,
            nowMs: 0,
            diagnosticRef: 'x',
            inputFields: ['itemId'],
          },
        );
        const out = failedOutcome(r.outcomes[0]);
        expect({
          cls: out.failure.class,
          reason: out.failure.reason,
          action: out.action,
          activities: out.activities,
        }).toEqual({
          cls: expected.class,
          reason: expected.reason,
          action: routeFor(expected).action,
          activities: 1,
        });
        expect(scripted.hits('POST /write')).toBe(1);
      }),
      { numRuns: 12 },
    ),
  );
});
