/**
 * Replay with tracing on: every recorded history (test/histories) replays against the current workflow code with
 * Temporal's OpenTelemetry workflow interceptors in the bundle and the router's trace sink registered, and not one
 * span is emitted — neither the router's (its sink has `callDuringReplay: false`) nor Temporal's. The control: the
 * same replay with the router's sink called during replay makes its spans.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { supportTools } from '../../examples/support-tools';
import { bundleWorkflowCode, DefaultLogger } from '@temporalio/worker';
import { RecoveryPlugin, RECOVERY_WORKFLOWS_PATH } from '../../plugin/recovery-plugin';
import { replayHistoryFiles } from '../../plugin/replay';
import { emitGroup } from '../../plugin/trace-sinks';
import type { WorkflowSpanGroup } from '../../workflows/trace-sinks';
import { testOtel } from '../fixtures/otel';

const DIR = join(__dirname, '..', 'histories');
const files = readdirSync(DIR)
  .filter((f) => f.endsWith('.json'))
  .sort();

test('every recorded history replays with tracing on, and replaying emits no span', async () => {
  const otel = testOtel();
  const plugin = new RecoveryPlugin({
    tools: supportTools('http://127.0.0.1:9').all,
    tracing: { tracerProvider: otel.tracerProvider, meterProvider: otel.meterProvider },
    searchAttributes: false,
  });
  expect(plugin.tracing).toBeDefined();
  // One bundle for both replays, built with Temporal's interceptors and the plugin (a bundle is seconds of CPU: two
  // of them kept this test at its 60 s limit on a loaded machine).
  const workflowBundle = await bundleWorkflowCode({
    workflowsPath: RECOVERY_WORKFLOWS_PATH,
    plugins: [otel.temporalPlugin, plugin],
    logger: new DefaultLogger('ERROR'),
  });
  const outcomes = await replayHistoryFiles(
    files.map((f) => join(DIR, f)),
    { plugins: [otel.temporalPlugin, plugin], workflowBundle, workflowsPath: undefined },
  );
  expect(outcomes).toHaveLength(files.length);
  expect(files.length).toBeGreaterThanOrEqual(15);
  expect(outcomes.filter((o) => o.error).map((o) => `${o.workflowId}: ${o.error?.message}`)).toEqual([]);
  expect(otel.exporter.getFinishedSpans()).toEqual([]);

  // The control: with the trace sink called during replay (and no RecoveryPlugin to register its own), the same
  // histories do make the router's spans, each under the workflow's span that Temporal's interceptors made in the
  // sandbox (not exported during replay).
  const agent = files.filter((f) => /^agent-[^.]+\.json$/.test(f)).map((f) => join(DIR, f));
  const spansDuringReplay = {
    fn: (_info: unknown, group: WorkflowSpanGroup) => emitGroup(plugin.tracing!, group),
    callDuringReplay: true,
  };
  const replayed = await replayHistoryFiles(agent, {
    plugins: [otel.temporalPlugin],
    workflowBundle,
    workflowsPath: undefined,
    sinks: { recoveryTraces: { spans: spansDuringReplay } },
  });
  expect(replayed.filter((o) => o.error)).toEqual([]);
  const spans = otel.exporter.getFinishedSpans();
  expect(spans.filter((s) => s.name.startsWith('recover ')).length).toBeGreaterThanOrEqual(10);
  expect(spans.filter((s) => s.parentSpanId === undefined)).toEqual([]);
});
