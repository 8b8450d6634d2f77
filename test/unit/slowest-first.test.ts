/**
 * test/setup/slowest-first.js, jest's test sequencer here: the longest files first by jest's own timings when it has
 * them, else by test/setup/suite-times.json (a fresh clone has none of its own), then the files without a time by
 * size; a file that failed last time first of all. Pure: fake test entries, no jest run.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const SlowestFirst = require('../setup/slowest-first.js') as new (o: unknown) => {
  sort(tests: FakeTest[]): FakeTest[];
  _cache: Map<unknown, Record<string, [number, number]>>;
};
// eslint-disable-next-line @typescript-eslint/no-require-imports
const SUITE_SECONDS = require('../setup/suite-times.json') as Record<string, number>;

interface FakeTest {
  path: string;
  duration?: number;
  context: typeof context;
}

const ROOT = '/repo';
const sizes: Record<string, number> = {};
const context = {
  config: { rootDir: ROOT, cache: false, cacheDirectory: '/nowhere', id: 'fake' },
  hasteFS: { getSize: (p: string) => sizes[p] ?? 0 },
};
const file = (rel: string, size = 0): FakeTest => {
  sizes[join(ROOT, rel)] = size;
  return { path: join(ROOT, rel), context };
};
const names = (tests: FakeTest[]) => tests.map((t) => t.path.slice(ROOT.length + 1));

test('suite-times.json: seconds by repository path, every path a test file of this repository', () => {
  const entries = Object.entries(SUITE_SECONDS);
  expect(entries.length).toBeGreaterThanOrEqual(10);
  for (const [path, seconds] of entries) {
    expect(path).toMatch(/^(test|workflows|activities)\/.+\.test\.ts$/);
    expect(existsSync(join(__dirname, '..', '..', path))).toBe(true);
    expect(seconds).toBeGreaterThan(0);
  }
});

test('slowest first: without jest timings the committed seconds order the files, the rest follow by size', () => {
  const [slow, slower] = Object.entries(SUITE_SECONDS)
    .sort((a, b) => a[1] - b[1])
    .slice(-2)
    .map(([p]) => p);
  const tests = [file('test/unit/small.test.ts', 10), file(slow!), file('test/unit/big.test.ts', 5_000), file(slower!)];
  const sorted = new SlowestFirst({}).sort(tests);
  expect(names(sorted)).toEqual([slower, slow, 'test/unit/big.test.ts', 'test/unit/small.test.ts']);
  expect(sorted.map((t) => t.duration)).toEqual([
    SUITE_SECONDS[slower!]! * 1000,
    SUITE_SECONDS[slow!]! * 1000,
    undefined,
    undefined,
  ]);
});

test("jest's own timings win over the committed ones, and a file that failed last time runs first", () => {
  const [slowest] = Object.entries(SUITE_SECONDS).sort((a, b) => b[1] - a[1])[0]!;
  const tests = [file(slowest), file('test/unit/a.test.ts'), file('test/unit/b.test.ts')];
  const sequencer = new SlowestFirst({});
  // jest's cache: [0 failed | 1 passed, ms]
  sequencer._cache.set(context, {
    [join(ROOT, slowest)]: [1, 1_000],
    [join(ROOT, 'test/unit/a.test.ts')]: [1, 2_000],
    [join(ROOT, 'test/unit/b.test.ts')]: [0, 10],
  });
  expect(names(sequencer.sort(tests))).toEqual(['test/unit/b.test.ts', 'test/unit/a.test.ts', slowest]);
});
