/**
 * Pure tests (no workers, no servers): which refused writes ask for a postcondition read, and which 400/422
 * messages name an input field (recovery/postcondition.ts, recovery/classify/named-fields.ts).
 */
import { classify } from '../../recovery/classify';
import { fieldsNamedIn } from '../../recovery/classify/named-fields';
import { postconditionHint, saysAlready } from '../../recovery/postcondition';
import { routeFor } from '../../recovery/routes';

describe('postconditionHint: which answers ask for the read', () => {
  test.each([
    [409, undefined, 'already'],
    [409, 'A note titled "x" already exists.', 'already'],
    [409, 'version conflict: note 3 is at version 2', 'version_conflict'],
    [409, 'ETag mismatch', 'version_conflict'],
    [412, 'Precondition Failed', 'version_conflict'],
    [412, undefined, 'version_conflict'],
    [422, 'Item 42 is already in the list.', 'already'],
    [422, 'user is already a member of the team', 'already'],
    [422, 'duplicate entry', 'already'],
    [422, 'item_id must be positive', undefined],
    [422, undefined, undefined],
    [422, 'alreadyexists', undefined],
    // Any other refusal asks for the read when its words say "already" (a false positive costs one read).
    [400, 'already exists', 'already'],
    [400, 'ada@example.org is already a list member.', 'already'],
    [422, 'The song is already in the playlist.', 'already'],
    [404, 'already exists', 'already'],
    [undefined, 'already exists', 'already'],
    [undefined, 'Label already_exists', 'already'],
    [400, 'message is not modified', 'already'],
    [400, 'chat not found', undefined],
  ] as const)('HTTP %s %j → %s', (status, message, hint) => {
    expect(postconditionHint(status, message)).toBe(hint);
  });
  test('a tool extends the phrasings: 422 "is on the roster" → already only with the extra phrase', () => {
    expect(postconditionHint(422, 'Sam is on the roster')).toBeUndefined();
    expect(postconditionHint(422, 'Sam is on the roster', ['On The Roster'])).toBe('already');
  });
  test('words are tokens, case-insensitive, across whitespace and code spellings; a word inside another is none', () => {
    expect(saysAlready('ALREADY\n  EXISTS')).toBe(true);
    expect(saysAlready('ALREADY_EXISTS')).toBe(true);
    expect(saysAlready('alreadyExists')).toBe(true);
    expect(saysAlready('xalready exists')).toBe(false);
    expect(saysAlready('alreadyexists')).toBe(false);
  });
});

describe('fieldsNamedIn: a plain message that names an input field', () => {
  test.each([
    ['item_id must be positive', ['itemId', 'listId'], ['itemId']],
    ['ItemId is required', ['item_id'], ['item_id']],
    ['item-id is not a number', ['itemId'], ['itemId']],
    ['amount and currency are invalid', ['amount', 'currency', 'note'], ['amount', 'currency']],
    ['the list is full', ['listId'], []],
    ['must be positive', ['itemId'], []],
  ] as const)('%j with %j → %j', (message, fields, named) => {
    expect(fieldsNamedIn(message, fields)).toEqual(named);
  });
});

describe('classify: 400/422 messages that name a field become invalid_arguments → repair', () => {
  const ctx = {
    tool: 'add_list_item',
    callId: 'c1',
    effect: 'write' as const,
    deduplicates: false,
    approvalCanLift: false,
    nowMs: 0,
    diagnosticRef: 'd',
    inputFields: ['listId', 'itemId'],
  };
  test('422 {"message":"item_id must be positive"} → invalid_arguments/schema, issue at itemId, repair', () => {
    const f = classify({ kind: 'http', status: 422, headers: {}, body: { message: 'item_id must be positive' } }, ctx);
    expect(f).toMatchObject({
      class: 'invalid_arguments',
      reason: 'schema',
      publicMessage: 'add_list_item: HTTP 422, 1 invalid argument: itemId: the server refused this value.',
      issues: [{ path: ['itemId'], expected: 'a value the server accepts', serverSaid: 'item_id must be positive' }],
    });
    expect(routeFor(f).action).toBe('repair');
  });
  test('422 "already in the list" names no field to repair: it stays a semantic rejection (replan)', () => {
    const f = classify(
      { kind: 'http', status: 422, headers: {}, body: { message: 'Item itemId 42 is already in the list.' } },
      ctx,
    );
    expect(f).toMatchObject({ class: 'semantic_rejection', reason: 'business_rule' });
  });
  test('400 naming a field → invalid_arguments; without inputFields in the context, as before', () => {
    const answer = { kind: 'http' as const, status: 400, headers: {}, body: { message: 'listId is unknown' } };
    expect(classify(answer, ctx).issues).toEqual([expect.objectContaining({ path: ['listId'] })]);
    const { inputFields: _omit, ...without } = ctx;
    expect(classify(answer, without).issues).toBeUndefined();
  });
});
