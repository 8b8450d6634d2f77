/**
 * The write-safety matrix's judge (bench/write-safety/verdict.ts, leaks.ts): pure tests, no server.
 */
import { scanHistory, scanText, describeLeaks } from '../../bench/write-safety/leaks';
import { cellVerdict, opVerdict, worst } from '../../bench/write-safety/verdict';

describe('opVerdict: rows in the store against what the run said', () => {
  test.each([
    [1, 'applied', 'ok'],
    [1, 'unknown', 'ok'],
    [1, 'review', 'ok'],
    [0, 'failed', 'ok'],
    [0, 'unknown', 'ok'],
    [0, 'review', 'ok'],
    [0, 'not_reached', 'ok'],
    [2, 'applied', 'DUP'],
    [3, 'review', 'DUP'],
    [2, 'open', 'DUP'],
    [1, 'failed', 'LOST'],
    [1, 'not_reached', 'LOST'],
    [0, 'applied', 'LOST'],
    [0, 'open', 'WEDGED'],
    [1, 'open', 'WEDGED'],
  ] as const)('%i row(s), run says %s → %s', (rows, claim, verdict) => {
    expect(opVerdict({ rows, claim })).toBe(verdict);
  });
});

test('worst: DUP > LOST > WEDGED > LEAK > ERR > ok > n/a', () => {
  expect(worst(['ok', 'LEAK', 'LOST', 'WEDGED'])).toBe('LOST');
  expect(worst(['LEAK', 'DUP'])).toBe('DUP');
  expect(worst(['ok', 'ERR'])).toBe('ERR');
  expect(worst(['ok', 'n/a'])).toBe('ok');
  expect(worst([])).toBe('ok');
});

test('cellVerdict: the worst operation, a hung shutdown and leaks, each named in the problems, worst first', () => {
  const r = cellVerdict({
    ops: [
      { operationId: 'a', rows: 1, posts: 1, claim: 'applied', said: 'ok (lookup)' },
      { operationId: 'b', rows: 1, posts: 1, claim: 'failed', said: 'unrecoverable/tool_bug → escalate' },
    ],
    leaks: ['stack in ACTIVITY_TASK_FAILED: at x (/w/a.ts:1:2)'],
    shutdownHung: true,
  });
  expect(r.verdict).toBe('LOST');
  expect(r.problems).toEqual([
    'LOST: 1 row(s), run said unrecoverable/tool_bug → escalate',
    'WEDGED: worker shutdown outlived its grace time',
    'LEAK: stack in ACTIVITY_TASK_FAILED: at x (/w/a.ts:1:2)',
  ]);
  expect(
    cellVerdict({ ops: [{ operationId: 'a', rows: 0, posts: 1, claim: 'failed', said: 'x' }], leaks: [] }),
  ).toEqual({
    verdict: 'ok',
    problems: [],
  });
  expect(cellVerdict({ ops: [], leaks: [], harnessError: 'boom' }).verdict).toBe('ERR');
});

describe('leaks: secrets, stacks, paths and hosts in a history', () => {
  test('a planted secret is named by its index, never quoted', () => {
    expect(scanText('the passphrase is: correct-horse', 'E', ['nope', 'correct-horse'])).toEqual([
      { kind: 'secret', event: 'E', what: 'secret #1' },
    ]);
  });

  test('a stack line, a source path and a loopback host each count; plain prose does not', () => {
    const kinds = (t: string) => scanText(t, 'E', []).map((l) => l.kind);
    expect(kinds('Error: x\n    at convert (/srv/app/node_modules/@temporalio/common/lib/x.js:316:11)')).toEqual([
      'stack',
      'path',
    ]);
    expect(kinds('see payload-converter.ts:316')).toEqual(['path']);
    expect(kinds('connect ECONNREFUSED 127.0.0.1:4567')).toEqual(['host']);
    expect(kinds('The write "pay" timed out after it was sent; it may or may not have been applied.')).toEqual([]);
    expect(kinds('at least one of the 3 attempts')).toEqual([]);
  });

  test('scanHistory reads payload data and failure messages and stack traces, not identities', () => {
    const utf8 = (s: string) => new Uint8Array(Buffer.from(s, 'utf8'));
    const events = [
      {
        workflowExecutionStartedEventAttributes: {
          identity: '123@127.0.0.1',
          input: { payloads: [{ data: utf8('{"a":1}') }] },
        },
      },
      {
        activityTaskFailedEventAttributes: {
          failure: { message: 'HTTP 503', stackTrace: 'Error\n    at f (x.js:1:1)', cause: { message: 'key SG.abc' } },
        },
      },
      {
        workflowExecutionCompletedEventAttributes: { result: { payloads: [{ data: utf8('{"feedback":"SG.abc"}') }] } },
      },
      { workflowExecutionTerminatedEventAttributes: { reason: 'at /work/x.ts:1:1' } },
    ];
    expect(describeLeaks(scanHistory(events, ['SG.abc']))).toEqual([
      'stack in ACTIVITY_TASK_FAILED: Error\n    at f (x.js:1:1)',
      'path in ACTIVITY_TASK_FAILED: x.js:1',
      'secret in ACTIVITY_TASK_FAILED: secret #0',
      'secret in WORKFLOW_EXECUTION_COMPLETED: secret #0',
    ]);
  });
});
