/** bench/write-safety/intents.ts: the lifecycle cells' intents counted by their own keys. */
import { byKey, type Watched } from '../../bench/write-safety/intents';

/** A service that committed and received what `rows` and `posts` name, per key. */
const service = (rows: Record<string, number>, posts: Record<string, number>) => ({
  rows: (k?: string) => (k === undefined ? Object.values(rows).reduce((a, b) => a + b, 0) : (rows[k] ?? 0)),
  posts: (k?: string) => (k === undefined ? Object.values(posts).reduce((a, b) => a + b, 0) : (posts[k] ?? 0)),
});
const applied = (...opIds: string[]): Watched => ({ claim: 'applied', said: 'ok', opIds });

test('each run counts the rows and POSTs of its own keys, whenever they arrived', () => {
  const s = service({ 'wf@r1:pay': 1, 'wf@r2:pay': 1 }, { 'wf@r1:pay': 1, 'wf@r2:pay': 2 });
  expect(
    byKey(s, [
      ['cron run 1', applied('wf@r1:pay')],
      ['cron run 2', applied('wf@r2:pay')],
    ]),
  ).toEqual([
    { label: 'cron run 1', claim: 'applied', said: 'ok', opIds: ['wf@r1:pay'], rows: 1, posts: 1 },
    { label: 'cron run 2', claim: 'applied', said: 'ok', opIds: ['wf@r2:pay'], rows: 1, posts: 2 },
  ]);
});

test("a run that names an earlier run's key gets none of its rows: applied with no row of its own shows", () => {
  const s = service({ 'wf:pay': 1 }, { 'wf:pay': 1 });
  const [first, second] = byKey(s, [
    ['run 1', applied('wf:pay')],
    ['run 2', applied('wf:pay')],
  ]);
  expect([first!.rows, first!.posts, second!.rows, second!.posts]).toEqual([1, 1, 0, 0]);
});

test('a run that named no key has no rows; a key it shares is counted once, for the first run', () => {
  const s = service({ a: 1, b: 1 }, { a: 1, b: 1 });
  const counted = byKey(s, [
    ['one', applied('a')],
    ['two', { claim: 'not_reached', said: 'no outcome', opIds: [] }],
    ['three', applied('a', 'b')],
  ]);
  expect(counted.map((i) => [i.label, i.rows, i.posts])).toEqual([
    ['one', 1, 1],
    ['two', 0, 0],
    ['three', 1, 1],
  ]);
});
