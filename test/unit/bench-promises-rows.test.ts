/**
 * Pure unit tests of the promises benchmark's arithmetic (bench/promises/count.ts, bench/promises/rows.ts): the
 * bytes under the promise hook in a heap profile's tree, and a row against its baseline. No workers, no timing.
 */
import { allocatedBytes } from '../../bench/promises/count';
import { formatPromises, promiseRowOf } from '../../bench/promises/rows';

const frame = (functionName: string, url: string) => ({
  functionName,
  url,
  scriptId: '0',
  lineNumber: 0,
  columnNumber: 0,
});
const VM_SHARED = 'file:///app/node_modules/@temporalio/worker/lib/workflow/vm-shared.js';

test('bytes under a hook function count as the hook’s, its children included; the same name elsewhere does not', () => {
  const head = {
    selfSize: 0,
    callFrame: frame('(root)', ''),
    children: [
      {
        selfSize: 100,
        callFrame: frame('activate', VM_SHARED),
        children: [
          {
            selfSize: 1_000,
            callFrame: frame('init', VM_SHARED),
            children: [{ selfSize: 24, callFrame: frame('originalPositionFor', 'file:///source-map.js') }],
          },
          { selfSize: 7, callFrame: frame('agentWorkflow', 'file:///workflow-bundle-1.js') },
        ],
      },
      { selfSize: 50, callFrame: frame('init', 'file:///other.js') },
    ],
  };
  expect(allocatedBytes(head)).toEqual({ total: 1_181, hook: 1_024 });
});

const count = (
  workload: Parameters<typeof promiseRowOf>[0]['workload'],
  promises: number,
  kib: number,
  hook: number,
) => ({
  workload,
  runs: 40,
  promisesPerRun: promises,
  promisesByRun: [promises],
  allocatedKiBPerRun: kib,
  hookKiBPerRun: hook,
  history: { events: 23, bytes: workload === 'agentWorkflow' ? 5_242 : 4_540 },
});

test('a row: the subject against its baseline, rounded, with the promises beyond the baseline’s', () => {
  const row = promiseRowOf(
    count('bareAgentWorkflow', 17, 1_939.4, 500.4),
    count('agentWorkflow', 19.05, 1_975.6, 534.6),
  );
  expect(row).toEqual({
    workflow: 'agentWorkflow',
    baseline: 'bareAgentWorkflow',
    runs: 40,
    promisesPerRun: 19.1,
    basePromisesPerRun: 17,
    extraPromisesPerRun: 2.1,
    allocatedKiBPerRun: 1_976,
    baseAllocatedKiBPerRun: 1_939,
    hookKiBPerRun: 535,
    baseHookKiBPerRun: 500,
    historyEvents: 23,
    baseHistoryEvents: 23,
    historyBytes: 5_242,
    baseHistoryBytes: 4_540,
  });
  const lines = formatPromises([row]).split('\n');
  expect(lines).toHaveLength(4);
  expect(lines[3]).toMatch(
    /^agentWorkflow\s+bareAgentWorkflow\s+19\.1 \(17\)\s+\+2\.1\s+1976 \(1939\)\s+535 \(500\)\s+23 \(23\)\s+5242 \(4540\)$/,
  );
});

test('a row refuses counts that are not a subject and its baseline', () => {
  expect(() => promiseRowOf(count('agentWorkflow', 19, 1, 1), count('bareAgentWorkflow', 17, 1, 1))).toThrow(
    'promises: bareAgentWorkflow is not a subject measured against agentWorkflow',
  );
});
