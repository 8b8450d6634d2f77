/**
 * RecoveryPlugin's option checks and how it merges the telemetry sinks into worker options: no workers, no server.
 */
import type { ReplayWorkerOptions, WorkerOptions } from '@temporalio/worker';
import { CredentialBroker } from '../../activities/credentials';
import { RecoveryMetrics } from '../../plugin/metrics';
import {
  RECOVERY_PRELOAD_MODULES,
  RecoveryPlugin,
  RecoveryPluginOptionsError,
  RECOVERY_WORKFLOWS_PATH,
} from '../../plugin/recovery-plugin';
import { supportTools } from '../../examples/support-tools';
import { createScriptedPlanner } from '../../activities/planners/scripted';

const tools = () => supportTools('http://127.0.0.1:1').all;
const config = { taskQueue: 'plugin-options' };

/** The RecoveryPluginOptionsError message `fn` throws (fails if it throws anything else or nothing). */
function refusal(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    if (err instanceof RecoveryPluginOptionsError) return err.message;
    throw err;
  }
  throw new Error('expected a RecoveryPluginOptionsError, nothing was thrown');
}

describe('RecoveryPlugin options: tools', () => {
  test('{ spec: 1 } → names tools[0] and what to pass', () => {
    expect(refusal(() => new RecoveryPlugin({ tools: [{ spec: 1 } as never], config }))).toBe(
      'RecoveryPlugin: tools[0] has no `spec` object with a string `name`: pass the result of defineTool(...), not its argument',
    );
  });
  test('a spec without a string name, at index 1 → names tools[1]', () => {
    const [first] = tools();
    expect(refusal(() => new RecoveryPlugin({ tools: [first!, { spec: { name: 7 } } as never], config }))).toBe(
      'RecoveryPlugin: tools[1] has no `spec` object with a string `name`: pass the result of defineTool(...), not its argument',
    );
  });
  test('no execute function → names the tool', () => {
    const [first] = tools();
    const broken = { ...first!, execute: 'run' };
    expect(refusal(() => new RecoveryPlugin({ tools: [broken as never], config }))).toBe(
      'RecoveryPlugin: tools[0] ("check_inventory") has no `execute` function',
    );
  });
  test('a name edited after defineTool → refused', () => {
    const [first] = tools();
    expect(refusal(() => new RecoveryPlugin({ tools: [{ ...first!, name: 'other' }], config }))).toBe(
      'RecoveryPlugin: tools[0]: `name` ("other") differs from `spec.name` ("check_inventory"); do not edit a defineTool(...) result',
    );
  });
  test('null and primitives in the list → not a defineTool result', () => {
    expect(refusal(() => new RecoveryPlugin({ tools: [null as never], config }))).toBe(
      'RecoveryPlugin: tools[0] is not a defineTool(...) result',
    );
    expect(refusal(() => new RecoveryPlugin({ tools: ['book_slot' as never], config }))).toBe(
      'RecoveryPlugin: tools[0] is not a defineTool(...) result',
    );
  });
});

describe('RecoveryPlugin options: credentials, breaker, metrics', () => {
  test('credentials of the wrong type → refused with what is expected', () => {
    const expected =
      'RecoveryPlugin: `credentials` must be a CredentialBroker or an object of CredentialProvider by credential id';
    for (const bad of ['token', 42, [], null]) {
      expect(refusal(() => new RecoveryPlugin({ tools: tools(), config, credentials: bad as never }))).toBe(expected);
    }
  });
  test('a provider without initial()/refresh() → names credentials.<id>', () => {
    expect(
      refusal(() => new RecoveryPlugin({ tools: tools(), config, credentials: { crm: { token: 'abc' } as never } })),
    ).toBe(
      'RecoveryPlugin: credentials.crm must be a CredentialProvider: an object with initial() and refresh() functions',
    );
  });
  test('a CredentialBroker and a record of providers are accepted', () => {
    const broker = new CredentialBroker();
    expect(new RecoveryPlugin({ tools: tools(), config, credentials: broker }).credentials).toBe(broker);
    const provider = { initial: async () => ({ token: 't' }), refresh: async () => ({ token: 'u' }) };
    expect(new RecoveryPlugin({ tools: tools(), config, credentials: { crm: provider } }).credentials).toBeInstanceOf(
      CredentialBroker,
    );
  });
  test('breaker of the wrong type, an unknown field, or out of bounds → refused naming the field', () => {
    const msg = (breaker: unknown) =>
      refusal(() => new RecoveryPlugin({ tools: tools(), config, breaker: breaker as never }));
    expect(msg(5)).toBe(
      'RecoveryPlugin: `breaker` must be an object { threshold?: positive integer, halfOpenAfterMs?: ms ≥ 0 }',
    );
    expect(msg({ halfOpenAfter: 10 })).toBe(
      'RecoveryPlugin: breaker.halfOpenAfter is not an option (known: threshold, halfOpenAfterMs)',
    );
    expect(msg({ threshold: '5' })).toBe('RecoveryPlugin: breaker.threshold must be a positive integer (got "5")');
    expect(msg({ threshold: 0 })).toBe('RecoveryPlugin: breaker.threshold must be a positive integer (got 0)');
    expect(msg({ halfOpenAfterMs: NaN })).toBe(
      'RecoveryPlugin: breaker.halfOpenAfterMs must be a finite number of ms ≥ 0 (got NaN)',
    );
  });
  test.each([{}, { sinks: 1 }, { sinks: () => ({}), addTools: 'x' }, 7])(
    'telemetry %p without a sinks() method → refused',
    (telemetry) => {
      expect(refusal(() => new RecoveryPlugin({ tools: tools(), config, telemetry: telemetry as never }))).toBe(
        'RecoveryPlugin: `telemetry` must have a sinks() method: a RecoveryMetrics (recovery-router/metrics) or a RecoveryTelemetry',
      );
    },
  );
});

describe('RecoveryPlugin telemetry wiring', () => {
  test('a shared RecoveryMetrics is used as given and learns the catalog’s tool names', async () => {
    const metrics = new RecoveryMetrics();
    const plugin = new RecoveryPlugin({ tools: tools(), config, telemetry: metrics });
    expect(plugin.telemetry).toBe(metrics);
    void metrics.sinks().recoveryTelemetry.record.fn({ namespace: 'n', firstExecutionRunId: 'r' } as never, {
      callId: 'c',
      tool: 'book_slot',
      turn: 1,
      attempts: 1,
      activities: 1,
      budgetsLeft: { retries: 3, replans: 2, repairs: 2, runAttempts: 50 },
      terminal: 'succeeded',
      durationMs: 5,
    });
    expect(await metrics.text()).toContain(
      'recovery_records_total{tool="book_slot",class="none",action="none",terminal="succeeded"} 1',
    );
  });

  test('configureWorker keeps the worker’s sinks, adds recoveryTelemetry, and still defaults workflowsPath', () => {
    const plugin = new RecoveryPlugin({ tools: tools(), config });
    const other = { log: { fn: () => undefined } };
    const out = plugin.configureWorker({ taskQueue: 'q', sinks: { other } } as WorkerOptions);
    expect(out.sinks?.other).toBe(other);
    // No telemetry given: sinks that do nothing, so workflow code finds its sink and nothing is exported.
    expect(out.sinks?.recoveryTelemetry?.record?.fn({} as never, {} as never)).toBeUndefined();
    expect(out.sinks?.recoveryTelemetry?.record?.callDuringReplay).toBe(false);
    expect(out.workflowsPath).toBe(RECOVERY_WORKFLOWS_PATH);
    expect(Object.keys(out.activities as object)).toContain('invokeTool');
    const own = plugin.configureWorker({ taskQueue: 'q', workflowsPath: '/x/workflows' } as WorkerOptions);
    // The user's module is bundled through workflows/with-plugin.ts, beside the plugin's own workflows.
    expect(own.workflowsPath).toBe(require.resolve('../../workflows/with-plugin'));
    expect(userWorkflowsOf(own)).toBe('/x/workflows');
    expect(own.sinks?.recoveryTelemetry).toBeDefined();
  });

  test('configureReplayWorker adds the same sinks (they never run during replay) and the default workflowsPath', () => {
    const plugin = new RecoveryPlugin({ tools: tools(), config });
    const out = plugin.configureReplayWorker({} as ReplayWorkerOptions);
    expect(out.sinks?.recoveryTelemetry?.record?.callDuringReplay).toBe(false);
    expect(out.workflowsPath).toBe(RECOVERY_WORKFLOWS_PATH);
  });
});

describe('RecoveryPlugin options: planner', () => {
  test('a planner registers the planNextStep activity next to invokeTool, lookupOperation and previewArguments', () => {
    const plugin = new RecoveryPlugin({
      tools: tools(),
      config,
      planner: createScriptedPlanner({ goals: {} }),
    });
    const out = plugin.configureWorker({ taskQueue: 'q' } as WorkerOptions);
    expect(Object.keys(out.activities ?? {}).sort()).toEqual([
      'confirmApproval',
      'invokeTool',
      'lookupOperation',
      'operationOwner',
      'planNextStep',
      'previewArguments',
      'verifyPostcondition',
    ]);
  });
  test('without a planner there is no planNextStep', () => {
    const out = new RecoveryPlugin({ tools: tools(), config }).configureWorker({ taskQueue: 'q' } as WorkerOptions);
    expect(Object.keys(out.activities ?? {}).sort()).toEqual([
      'confirmApproval',
      'invokeTool',
      'lookupOperation',
      'operationOwner',
      'previewArguments',
      'verifyPostcondition',
    ]);
  });
  test('a planner without plan() → refused, naming the option', () => {
    for (const bad of [{}, 'openai', null, { plan: 'x' }]) {
      expect(refusal(() => new RecoveryPlugin({ tools: tools(), config, planner: bad as never }))).toBe(
        'RecoveryPlugin: `planner` must have a `plan(input)` method (createScriptedPlanner, createOpenAIPlanner)',
      );
    }
  });
  test('searchAttributes: a boolean; false reaches workflowDefaults(), true or left out adds nothing', () => {
    for (const bad of ['no', 0, null]) {
      expect(refusal(() => new RecoveryPlugin({ tools: tools(), config, searchAttributes: bad as never }))).toBe(
        'RecoveryPlugin: `searchAttributes` must be true or false',
      );
    }
    const defaults = (searchAttributes?: boolean) =>
      new RecoveryPlugin({
        tools: tools(),
        config,
        ...(searchAttributes === undefined ? {} : { searchAttributes }),
      }).workflowDefaults().searchAttributes;
    expect([
      defaults(false),
      'searchAttributes' in new RecoveryPlugin({ tools: tools(), config }).workflowDefaults(),
    ]).toEqual([false, false]);
    expect([defaults(true), defaults()]).toEqual([undefined, undefined]);
  });
});

describe("RecoveryPlugin: the router's modules are preloaded into every bundle it takes part in", () => {
  const plugin = () => new RecoveryPlugin({ tools: tools(), config });
  /** The plugin's own workflows beside a user's workflowsPath (not shared mode): the reconcile child. */
  const OWN = require.resolve('../../workflows/own-workflows');
  test("a worker that bundles gets the router's entry and the plugin's workflows module it bundles, after its own", () => {
    const own = plugin().configureWorker({
      taskQueue: 'q',
      workflowsPath: '/app/workflows.js',
      bundlerOptions: { preloadModules: ['/app/shared.js'] },
    } as WorkerOptions);
    expect(userWorkflowsOf(own)).toBe('/app/workflows.js');
    expect(own.bundlerOptions?.preloadModules).toEqual(['/app/shared.js', ...RECOVERY_PRELOAD_MODULES, OWN]);
    const dflt = plugin().configureWorker({ taskQueue: 'q' } as WorkerOptions);
    expect(dflt.workflowsPath).toBe(RECOVERY_WORKFLOWS_PATH);
    expect(dflt.bundlerOptions?.preloadModules).toEqual([...RECOVERY_PRELOAD_MODULES, RECOVERY_WORKFLOWS_PATH]);
    const replay = plugin().configureReplayWorker({ workflowsPath: '/app/workflows.js' } as ReplayWorkerOptions);
    expect(replay.bundlerOptions?.preloadModules).toEqual([...RECOVERY_PRELOAD_MODULES, OWN]);
    // The router's entry only: the agent and the tool plan are not in a bundle of the user's own workflows.
    expect(RECOVERY_PRELOAD_MODULES).toEqual([require.resolve('../../workflow')]);
  });
  test('a prebuilt workflowBundle is left as it is; a bundle built with the plugin preloads them once', () => {
    const prebuilt = plugin().configureWorker({ taskQueue: 'q', workflowBundle: { code: 'x' } } as WorkerOptions);
    expect(prebuilt.bundlerOptions).toBeUndefined();
    expect(plugin().configureBundler({ workflowsPath: '/w.js' }).preloadModules).toEqual([
      ...RECOVERY_PRELOAD_MODULES,
      OWN,
    ]);
    const bundled = plugin().configureBundler({
      workflowsPath: '/w.js',
      preloadModules: [...RECOVERY_PRELOAD_MODULES, OWN],
    });
    expect(bundled.preloadModules).toEqual([...RECOVERY_PRELOAD_MODULES, OWN]);
  });
});

/** The user's workflows module a configured Worker bundles (the alias the plugin's webpack hook adds). */
function userWorkflowsOf(options: WorkerOptions): unknown {
  const config = options.bundlerOptions?.webpackConfigHook?.({ resolve: { alias: {} } }) ?? {};
  return (config.resolve?.alias as Record<string, unknown> | undefined)?.__recovery_router_user_workflows__$;
}
