/**
 * Every recorded history (test/histories/*.json, `npm run record-histories`) replays against the current workflow
 * code: a non-deterministic change to workflow code fails here, in CI, not in a running workflow.
 */
import { readdirSync } from 'node:fs';
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
