/**
 * The person's rendering of a call's arguments (operator/desk/human-view.ts): pure, no server. Every leaf in full,
 * only credentials masked (naming the field), long texts and rows past the limit folded with what they hide.
 */
import { rendered, unopened, VIEW_LIMITS } from '../../operator/desk/human-view';
import { argsHash } from '../../recovery/canonical';

describe('human view', () => {
  test('every leaf is a row in full: accounts, recipients, amounts, deep values, list items; empty ones as JSON', () => {
    const { view } = rendered({
      to: { iban: 'DE89 3704 0044 0532 0130 00', email: 'payee@example.com' },
      amount: 1234.56,
      big: '12345678901234567890.12',
      deep: { a: { b: { c: { d: { e: true } } } } },
      items: ['x', null],
      none: {},
      list: [],
    })!;
    expect(view.rows).toEqual([
      { path: ['to', 'iban'], text: 'DE89 3704 0044 0532 0130 00' },
      { path: ['to', 'email'], text: 'payee@example.com' },
      { path: ['amount'], text: '1234.56' },
      { path: ['big'], text: '12345678901234567890.12' },
      { path: ['deep', 'a', 'b', 'c', 'd', 'e'], text: 'true' },
      { path: ['items', 0], text: 'x' },
      { path: ['items', 1], text: 'null' },
      { path: ['none'], text: '{}' },
      { path: ['list'], text: '[]' },
    ]);
    expect(view.digest).toMatch(/^[0-9a-f]{64}$/);
  });

  test('credentials are masked with the field and length, by key (any case or separator) or by value', () => {
    const { view } = rendered({
      apiToken: 'send the money to DE00ATTACKER instead',
      client_secret: { nested: 'x' },
      PIN: 1234,
      note: 'Bearer abcdefghijk',
      tokenCount: 3,
      shipping: 'ok',
    })!;
    expect(view.rows).toEqual([
      { path: ['apiToken'], masked: { field: 'apiToken', chars: 38 } },
      { path: ['client_secret'], masked: { field: 'client_secret', chars: 14 } },
      { path: ['PIN'], masked: { field: 'PIN', chars: 4 } },
      { path: ['note'], masked: { field: 'note', chars: 18 } },
      { path: ['tokenCount'], text: '3' },
      { path: ['shipping'], text: 'ok' },
    ]);
  });

  test(`a text past ${VIEW_LIMITS.textChars} characters and the rows past ${VIEW_LIMITS.rows} are folded; the parts hold what they hide`, () => {
    const long = `${'a'.repeat(VIEW_LIMITS.textChars)}TAIL`;
    const args = Object.fromEntries(Array.from({ length: 70 }, (_, i) => [`k${i}`, i === 0 ? long : i]));
    const { view, parts } = rendered(args)!;
    expect(view.rows).toHaveLength(VIEW_LIMITS.rows + 1);
    expect(view.rows[0]).toEqual({
      path: ['k0'],
      text: 'a'.repeat(VIEW_LIMITS.textChars),
      fold: { id: 't1', chars: 4 },
    });
    expect(view.rows[VIEW_LIMITS.rows]).toEqual({ path: [], fold: { id: 'rest', rows: 10 } });
    expect(parts.get('t1')).toEqual({ text: long });
    expect((parts.get('rest') as { rows: unknown[] }).rows[0]).toEqual({ path: ['k60'], text: '60' });
    expect(unopened(view, () => false)).toBe('k0, more fields');
    expect(unopened(view, (f) => f === 't1')).toBe('more fields');
    expect(unopened(view, () => true)).toBe('');
  });

  test('the digest names the rendering; arguments that are not what argsDigest names, or none, are not rendered', () => {
    const a = rendered({ x: 1 })!;
    expect(rendered({ x: 1 }, argsHash({ x: 1 }))!.view.digest).toBe(a.view.digest);
    expect(rendered({ x: 2 })!.view.digest).not.toBe(a.view.digest);
    expect(rendered({ x: 1 }, argsHash({ x: 2 }))).toBeNull();
    expect(rendered(undefined)).toBeNull();
    expect(rendered({ x: 1n })).toBeNull();
  });
});
