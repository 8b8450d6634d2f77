/**
 * Every recorded history (test/histories/*.json, `npm run record-histories`) replays against the current workflow
 * code: a non-deterministic change to workflow code fails here, in CI, not in a running workflow.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { replayHistoryFiles } from '../../plugin/replay';

const DIR = join(__dirname, '..', 'histories');
const files = readdirSync(DIR)
  .filter((f) => f.endsWith('.json'))
  .sort();

test('there are recorded histories to replay: the tool plans, and one per agent scenario of the main job', () => {
  expect(files.length).toBeGreaterThanOrEqual(15);
  expect(files.filter((f) => /^agent-[^.]+\.json$/.test(f))).toHaveLength(10);
});

test('every recorded history replays without a determinism error', async () => {
  const outcomes = await replayHistoryFiles(files.map((f) => join(DIR, f)));
  expect(outcomes.map((o) => o.workflowId)).toEqual(files.map((f) => f.replace(/\.json$/, '')));
  expect(outcomes.filter((o) => o.error).map((o) => `${o.workflowId}: ${o.error?.message}`)).toEqual([]);
});

test('the replay test can fail: a timer added before the first call breaks the recorded histories', async () => {
  const [outcome] = await replayHistoryFiles([join(DIR, 'transient-then-ok.json')], {
    workflowsPath: require.resolve('./fixtures/changed-tool-plan'),
  });
  expect(outcome?.error?.name).toBe('DeterminismViolationError');
});

test('the replay test can fail for the agent too: a timer before the first planner step breaks its histories', async () => {
  const [outcome] = await replayHistoryFiles([join(DIR, 'agent-calendar-race.json')], {
    workflowsPath: require.resolve('./fixtures/changed-agent'),
  });
  expect(outcome?.error?.name).toBe('DeterminismViolationError');
});

/** The JSON payload `i` of the event attributes `attrs` (a history file's payload data is base64). */
function payload(attrs: { input?: { payloads?: { data?: string }[] } } | undefined, i: number): unknown {
  const data = attrs?.input?.payloads?.[i]?.data;
  return data === undefined ? undefined : JSON.parse(Buffer.from(data, 'base64').toString('utf8'));
}

test('a chain that crosses the bounded-carry patch (notes/attack-probes/record-cross-patch.ts): old carry taken, budgets kept', () => {
  type Event = { eventType: string; workflowExecutionStartedEventAttributes?: Parameters<typeof payload>[0] };
  const runs = [1, 2, 3].map(
    (n) =>
      (JSON.parse(readFileSync(join(DIR, `cross-patch-agent.run${n}.json`), 'utf8')) as { events: Event[] }).events,
  );
  const markers = runs.map((events) =>
    events.flatMap((e, i) => (e.eventType === 'EVENT_TYPE_MARKER_RECORDED' ? [i] : [])),
  );
  // Run 1 on the old code: no marker. Run 2 started there and ended on the current code: its marker comes last.
  expect(markers[0]).toEqual([]);
  expect(markers[1]).toHaveLength(1);
  expect(markers[1]![0]).toBeGreaterThan(runs[1]!.length - 5);
  const carry = (n: number) =>
    payload(runs[n]![0]!.workflowExecutionStartedEventAttributes, 2) as {
      router: { budgets: { calls: { key: string; repairs: number }[] } };
      observations: unknown[];
      omittedObservations?: number;
    };
  // The old code carried every step; the current one only the open step, its 2 repairs spent.
  expect(carry(1).router.budgets.calls.length).toBeGreaterThan(100);
  expect(carry(2).router.budgets.calls).toEqual([{ key: 'strict_tool#0', retries: 0, repairs: 2 }]);
  expect(carry(2).observations).toHaveLength(200);
  expect(carry(2).omittedObservations).toBe(82);
  const ended = runs[2]!.at(-1) as { workflowExecutionCompletedEventAttributes?: Parameters<typeof payload>[0] };
  const attrs = ended.workflowExecutionCompletedEventAttributes as { result?: { payloads?: { data?: string }[] } };
  expect(payload({ input: attrs.result }, 0)).toMatchObject({
    status: 'stopped',
    turns: 5,
    endedBy: { tool: 'strict_tool', exhausted: 'per_call_repairs' },
  });
});
