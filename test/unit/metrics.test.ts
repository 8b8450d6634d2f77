/**
 * RecoveryMetrics (plugin/metrics.ts) fed directly through its sinks: no workers, no Temporal server. The /metrics
 * endpoint is served on loopback.
 */
import type { WorkflowInfo } from '@temporalio/workflow';
import { register as globalRegister } from 'prom-client';
import { RecoveryMetrics, RecoveryMetricsOptionsError } from '../../plugin/metrics';
import { summarizeRecords } from '../../recovery/telemetry';
import { rec, RUN } from './telemetry-records';
import { sample, samples } from '../fixtures/metric-samples';

const TOOLS = ['check_inventory', 'book_slot', 'get_quote'];
const info = (firstExecutionRunId: string) => ({ namespace: 'default', firstExecutionRunId }) as WorkflowInfo;

function fed(records = RUN, run = 'run-1', options = {}): RecoveryMetrics {
  const m = new RecoveryMetrics({ tools: TOOLS, ...options });
  const sink = m.sinks().recoveryTelemetry.record;
  for (const r of records) void sink.fn(info(run), r);
  return m;
}

describe('RecoveryMetrics from records', () => {
  test('the three-turn run: each metric, exact', async () => {
    const m = fed();
    expect(await sample(m, 'recovery_turns_total')).toBe(3);
    expect(await samples(m, 'recovery_records_total')).toEqual({
      'tool=check_inventory,class=none,action=none,terminal=succeeded': 1,
      'tool=book_slot,class=semantic_rejection,action=replan,terminal=fed_back': 1,
      'tool=book_slot,class=none,action=none,terminal=succeeded': 1,
      'tool=(unknown),class=capability_missing,action=replan,terminal=fed_back': 1,
      'tool=get_quote,class=transient,action=replan,terminal=fed_back': 1,
      'tool=book_slot,class=authentication,action=escalate,terminal=escalated': 1,
      'tool=check_inventory,class=invalid_result,action=reject,terminal=fed_back': 1,
    });
    expect(await samples(m, 'recovery_replans_total')).toEqual({
      'tool=book_slot,class=semantic_rejection': 1,
      'tool=(unknown),class=capability_missing': 1,
      'tool=get_quote,class=transient': 1,
      'tool=check_inventory,class=invalid_result': 1,
    });
    expect(await sample(m, 'recovery_time_to_replan_ms_sum', { class: 'semantic_rejection' })).toBe(1_200);
    expect(await sample(m, 'recovery_time_to_replan_ms_count', { class: 'semantic_rejection' })).toBe(1);
    expect(await sample(m, 'recovery_time_to_replan_ms_bucket', { class: 'semantic_rejection', le: 1_000 })).toBe(0);
    expect(await sample(m, 'recovery_time_to_replan_ms_bucket', { class: 'semantic_rejection', le: 2_500 })).toBe(1);
    expect(await samples(m, 'recovery_time_to_replan_ms')).toEqual({
      'class=semantic_rejection': 1,
      'class=capability_missing': 1,
      'class=transient': 1,
    });
    expect(await sample(m, 'recovery_retries_used_sum', { tool: 'check_inventory' })).toBe(2);
    expect(await sample(m, 'recovery_retries_used_count', { tool: 'check_inventory' })).toBe(2);
    expect(await sample(m, 'recovery_retries_used_sum', { tool: 'book_slot' })).toBe(2);
    expect(await sample(m, 'recovery_retries_used_count', { tool: 'book_slot' })).toBe(3);
    expect(await sample(m, 'recovery_retries_used_sum', { tool: 'get_quote' })).toBe(3);
    expect(await sample(m, 'recovery_retries_used_bucket', { tool: 'get_quote', le: 2 })).toBe(0);
    expect(await sample(m, 'recovery_retries_used_bucket', { tool: 'get_quote', le: 3 })).toBe(1);
    expect(await samples(m, 'recovery_retries_used')).toEqual({
      'tool=check_inventory': 2,
      'tool=book_slot': 3,
      'tool=get_quote': 1,
    }); // ghost_tool dispatched nothing: no observation
    expect(await samples(m, 'recovery_retry_budget_exhausted_total')).toEqual({ 'tool=get_quote': 1 });
    expect(await samples(m, 'recovery_retry_needed_total')).toEqual({
      'tool=check_inventory': 1,
      'tool=get_quote': 1,
      'tool=book_slot': 1,
    });
    expect(await samples(m, 'recovery_retry_then_succeed_total')).toEqual({ 'tool=check_inventory': 1 });
    expect(await samples(m, 'recovery_escalations_total')).toEqual({ 'tool=book_slot,class=authentication': 1 });
    expect(await sample(m, 'recovery_call_duration_ms_sum', { tool: 'get_quote', terminal: 'fed_back' })).toBe(700);
  });

  test('the metrics agree with summarizeRecords on the same records', async () => {
    const m = fed();
    const s = summarizeRecords(RUN);
    const total = async (name: string) => Object.values(await samples(m, name)).reduce((a, b) => a + b, 0);
    expect(await total('recovery_replans_total')).toBe(s.replans.total);
    expect(await total('recovery_escalations_total')).toBe(s.escalations.count);
    expect(await total('recovery_retry_needed_total')).toBe(s.retryThenSucceed.needed);
    expect(await total('recovery_retry_then_succeed_total')).toBe(s.retryThenSucceed.succeeded);
    expect(await total('recovery_records_total')).toBe(s.calls);
    expect(await sample(m, 'recovery_turns_total')).toBe(s.turns);
    for (const tool of TOOLS) {
      expect(await sample(m, 'recovery_retries_used_sum', { tool })).toBe(s.retryBudget[tool]?.retriesUsed);
    }
  });

  test('turns: each counted once per workflow; an earlier turn adds none; another workflow counts its own', async () => {
    const m = fed();
    const sink = m.sinks().recoveryTelemetry.record;
    void sink.fn(info('run-1'), rec({ callId: 'x', tool: 'book_slot', turn: 2 })); // an earlier turn: not new
    expect(await sample(m, 'recovery_turns_total')).toBe(3);
    void sink.fn(info('run-2'), rec({ callId: 'x', tool: 'book_slot', turn: 1 }));
    void sink.fn(info('run-2'), rec({ callId: 'y', tool: 'book_slot', turn: 1 }));
    expect(await sample(m, 'recovery_turns_total')).toBe(4);
  });

  test('turns: a record that skips turns counts one (turns with a tool call), unlike summarizeRecords (the highest turn)', async () => {
    const records = [
      rec({ callId: 'a', tool: 'book_slot', turn: 1 }),
      rec({ callId: 'b', tool: 'book_slot', turn: 4 }),
    ];
    expect(await sample(fed(records), 'recovery_turns_total')).toBe(2);
    expect(summarizeRecords(records).turns).toBe(4);
  });

  test('turn memory is bounded: beyond maxTrackedWorkflows the least recently seen workflow is forgotten', async () => {
    const m = new RecoveryMetrics({ tools: TOOLS, maxTrackedWorkflows: 2 });
    const sink = m.sinks().recoveryTelemetry.record;
    const at = (run: string, turn: number) => void sink.fn(info(run), rec({ callId: 'c', tool: 'book_slot', turn }));
    at('a', 1);
    at('b', 1);
    at('a', 1); // a is now the most recent
    at('c', 1); // forgets b
    expect(await sample(m, 'recovery_turns_total')).toBe(3);
    at('a', 1); // still remembered
    expect(await sample(m, 'recovery_turns_total')).toBe(3);
    at('b', 1); // forgotten: counted again
    expect(await sample(m, 'recovery_turns_total')).toBe(4);
  });

  test('runEnded counts runs by status, observes their turns, and forgets the workflow; unknown statuses are bounded', async () => {
    const m = fed();
    const { runEnded, record } = m.sinks().recoveryTelemetry;
    void runEnded.fn(info('run-1'), { status: 'submitted', turns: 3 });
    void runEnded.fn(info('run-9'), { status: 'model said: give up', turns: 1 });
    expect(await samples(m, 'recovery_runs_total')).toEqual({ 'status=submitted': 1, 'status=(unknown)': 1 });
    expect(await sample(m, 'recovery_run_turns_sum', { status: 'submitted' })).toBe(3);
    void record.fn(info('run-1'), rec({ callId: 'z', tool: 'book_slot', turn: 3 }));
    expect(await sample(m, 'recovery_turns_total')).toBe(4); // forgotten after runEnded
  });

  test('label values stay bounded: unregistered tools and values outside their sets become (unknown)', async () => {
    const m = fed([
      rec({ callId: 'a', tool: 'x'.repeat(500), turn: 1 }),
      { ...rec({ callId: 'b', tool: 'book_slot', turn: 1 }), class: 'made_up' as never, action: 'pray' as never },
    ]);
    expect(await samples(m, 'recovery_records_total')).toEqual({
      'tool=(unknown),class=none,action=none,terminal=succeeded': 1,
      'tool=book_slot,class=(unknown),action=(unknown),terminal=succeeded': 1,
    });
    expect(await m.text()).not.toContain('xxxx');
  });

  test('a malformed record never throws and skips the numbers it lacks', async () => {
    const m = new RecoveryMetrics({ tools: TOOLS });
    const sink = m.sinks().recoveryTelemetry.record;
    expect(() => sink.fn(info('r'), null as never)).not.toThrow();
    expect(() =>
      sink.fn(info('r'), { tool: 'book_slot', turn: 'one', attempts: NaN, activities: 1, durationMs: -5 } as never),
    ).not.toThrow();
    expect(await samples(m, 'recovery_records_total')).toEqual({
      'tool=book_slot,class=none,action=none,terminal=none': 1,
    });
    expect(await sample(m, 'recovery_turns_total')).toBe(0);
    expect(await samples(m, 'recovery_retries_used')).toEqual({});
  });

  test('sinks run only outside replay, and the same object is returned each time', () => {
    const m = new RecoveryMetrics();
    const s = m.sinks();
    expect(s.recoveryTelemetry.record.callDuringReplay).toBe(false);
    expect(s.recoveryTelemetry.runEnded.callDuringReplay).toBe(false);
    expect(m.sinks()).toBe(s);
  });

  test('each instance has its own registry; nothing reaches prom-client’s global one', async () => {
    const a = fed();
    const b = fed();
    expect(a.registry).not.toBe(b.registry);
    expect(await sample(b, 'recovery_turns_total')).toBe(3);
    expect(globalRegister.getSingleMetric('recovery_turns_total')).toBeUndefined();
  });

  test('reconciled writes are counted by how they settled; a value outside the set is (unknown)', async () => {
    const base = RUN[0]!;
    const m = fed([
      { ...base, tool: 'book_slot', reconciled: 'already_satisfied' },
      { ...base, tool: 'book_slot', reconciled: 'already_satisfied' },
      { ...base, tool: 'book_slot', reconciled: 'lookup' },
      { ...base, tool: 'book_slot', reconciled: 'guessed' as never },
    ]);
    expect(await samples(m, 'recovery_reconciled_total')).toEqual({
      'tool=book_slot,how=already_satisfied': 2,
      'tool=book_slot,how=lookup': 1,
      'tool=book_slot,how=(unknown)': 1,
    });
  });

  test('text() is Prometheus exposition text with every metric name', async () => {
    const text = await fed().text();
    expect(text).toContain('# TYPE recovery_records_total counter');
    expect(text).toContain('# TYPE recovery_time_to_replan_ms histogram');
    expect(text).toContain('recovery_turns_total 3');
    expect(text).toContain('recovery_escalations_total{tool="book_slot",class="authentication"} 1');
    const names = [...text.matchAll(/^# TYPE (\S+) /gm)].map((x) => x[1]);
    expect(names).toEqual([
      'recovery_records_total',
      'recovery_turns_total',
      'recovery_replans_total',
      'recovery_time_to_replan_ms',
      'recovery_retries_used',
      'recovery_retry_budget_exhausted_total',
      'recovery_retry_needed_total',
      'recovery_retry_then_succeed_total',
      'recovery_escalations_total',
      'recovery_reconciled_total',
      'recovery_call_duration_ms',
      'recovery_runs_total',
      'recovery_run_turns',
    ]);
  });
});

describe('RecoveryMetrics.serve', () => {
  test('GET /metrics → 200 exposition text; other paths 404; POST 405; close() stops it', async () => {
    const m = fed();
    const server = await m.serve(0);
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
      const ok = await fetch(server.url);
      expect(ok.status).toBe(200);
      expect(ok.headers.get('content-type')).toBe(m.contentType);
      expect(await ok.text()).toContain('recovery_turns_total 3');
      expect((await fetch(server.url.replace('/metrics', '/'))).status).toBe(404);
      expect((await fetch(server.url, { method: 'POST' })).status).toBe(405);
    } finally {
      await server.close();
    }
    await expect(fetch(server.url)).rejects.toThrow();
  });

  test('a port in use rejects with the listen error; a bad port is refused', async () => {
    const m = new RecoveryMetrics();
    const first = await m.serve(0);
    try {
      const port = Number(new URL(first.url).port);
      await expect(m.serve(port)).rejects.toMatchObject({ code: 'EADDRINUSE' });
    } finally {
      await first.close();
    }
    await expect(m.serve(70_000)).rejects.toThrow(
      new RecoveryMetricsOptionsError('RecoveryMetrics.serve: port must be an integer in 0–65535 (got 70000)'),
    );
  });
});

describe('RecoveryMetrics options', () => {
  test('maxTrackedWorkflows must be a positive integer', () => {
    expect(() => new RecoveryMetrics({ maxTrackedWorkflows: 0 })).toThrow(
      new RecoveryMetricsOptionsError('RecoveryMetrics: maxTrackedWorkflows must be a positive integer (got 0)'),
    );
  });
  test('buckets must ascend', () => {
    expect(() => new RecoveryMetrics({ timeToReplanBucketsMs: [100, 50] })).toThrow(
      new RecoveryMetricsOptionsError(
        'RecoveryMetrics: timeToReplanBucketsMs must be a non-empty list of finite numbers ≥ 0 ms in ascending order',
      ),
    );
  });
  test.each([
    [null, 'RecoveryMetrics: options must be an object'],
    [
      { maxTrackedWorkflow: 3 },
      'RecoveryMetrics: maxTrackedWorkflow is not an option (known: tools, maxTrackedWorkflows, timeToReplanBucketsMs, callDurationBucketsMs)',
    ],
    [{ maxTrackedWorkflows: '5' }, 'RecoveryMetrics: maxTrackedWorkflows must be a positive integer (got "5")'],
    [{ maxTrackedWorkflows: 1.5 }, 'RecoveryMetrics: maxTrackedWorkflows must be a positive integer (got 1.5)'],
    [
      { callDurationBucketsMs: [1, Infinity] },
      'RecoveryMetrics: callDurationBucketsMs must be a non-empty list of finite numbers ≥ 0 ms in ascending order',
    ],
    [
      { callDurationBucketsMs: [] },
      'RecoveryMetrics: callDurationBucketsMs must be a non-empty list of finite numbers ≥ 0 ms in ascending order',
    ],
    [{ tools: 'search' }, 'RecoveryMetrics: tools must be a list of tool names'],
  ])('options %j are refused: %s', (options, message) => {
    expect(() => new RecoveryMetrics(options as never)).toThrow(new RecoveryMetricsOptionsError(message));
  });
});
