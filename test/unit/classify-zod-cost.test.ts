/**
 * The cost of field issues on huge input (recovery/classify/zod.ts, suggest.ts): a JSON Schema with 10,000 keys
 * (e.g. from a remote MCP server), thousands of unknown keys, a forged issue with 200,000 allowed values. Key
 * suggestions compare strings by edit distance; their number is bounded per call. Exact values (comparison
 * counts, outputs), no timings.
 */
import { fieldIssuesFromZod } from '../../recovery/classify';
import { closestKey, MAX_KEY_COMPARISONS } from '../../recovery/classify/suggest';
import { entriesOf } from '../../recovery/classify/zod-issues';

const forged = (issues: unknown[]) => ({ name: 'ZodError', issues });

describe('key suggestions have a bounded cost', () => {
  const name = (i: number) => `key_${'x'.repeat(40)}${i}`;

  it('closestKey spends one comparison per candidate, and answers with the best so far when the budget is spent', () => {
    const known = [...Array.from({ length: 99 }, (_, i) => `other${i}_${'q'.repeat(30)}`), 'amountCents'];
    const budget = { left: 10 };
    expect(closestKey('amount', known, budget)).toBeUndefined();
    expect(budget.left).toBe(0);
    const full = { left: 1_000 };
    expect(closestKey('amount', known, full)).toBe('amountCents');
    expect(full.left).toBe(900);
    expect(MAX_KEY_COMPARISONS).toBe(2_000);
  });

  it('a zod error counts at most 4 × MAX_ZOD_FIELD_ISSUES problems, unknown keys included', () => {
    const issues = Array.from({ length: 100 }, (_, i) => ({
      code: 'unrecognized_keys',
      keys: Array.from({ length: 25 }, (_, j) => `k${i}_${j}`),
      path: [],
    }));
    const entries = entriesOf(forged(issues));
    expect(entries.length).toBe(100);
    expect(entries[99]?.path).toEqual(['k3_24']);
  });

  it('10,000 declared keys and 2,500 unknown ones: 25 issues, each "remove …" once the comparisons run out', () => {
    const properties = Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [name(i), { type: 'string' }]));
    const issues = Array.from({ length: 100 }, (_, i) => ({
      code: 'unrecognized_keys',
      keys: Array.from({ length: 25 }, (_, j) => `${name(i * 25 + j)}zz`),
      path: [],
    }));
    const out = fieldIssuesFromZod(forged(issues), { input: {}, jsonSchema: { type: 'object', properties } });
    expect(out.length).toBe(25);
    expect(out.every((i) => i.suggestion.startsWith('remove ') || i.suggestion.startsWith('did you mean'))).toBe(true);
  });

  it('a forged invalid_value with 200,000 values: the suggestion lists 50 at most', () => {
    const values = Array.from({ length: 200_000 }, (_, i) => `v${i}`);
    const [issue] = fieldIssuesFromZod(forged([{ code: 'invalid_value', values, path: ['a'] }]), {
      input: { a: 'zzzzzzzz' },
    });
    expect(issue?.suggestion.length).toBeLessThanOrEqual(200);
    expect(issue?.suggestion.startsWith('use one of v0|v1|v2|')).toBe(true);
  });
});
