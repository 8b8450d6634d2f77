/**
 * `RecoveryPlugin`: one line in `Worker.create({ plugins: [...] })` registers the tool activity, the plugin's
 * workflows and the shared breaker and credential broker (Temporal's `SimplePlugin`, @temporalio/plugin).
 *
 *   const plugin = new RecoveryPlugin({ tools: [getWeather, createInvoice], credentials: { crm: provider } });
 *   const worker = await Worker.create({ connection, taskQueue: plugin.config.taskQueue, plugins: [plugin] });
 *
 * The worker's own `workflowsPath`, if set, wins; otherwise the plugin's workflows (workflows/index.ts) are used.
 * Workflow code receives the tools as data: `plugin.catalog` (ToolSpec[]).
 *
 * Telemetry: the plugin adds the `recoveryTelemetry` sinks of `options.telemetry` (plugin/telemetry.ts) to the
 * worker's `sinks`; with a `RecoveryMetrics` (`recovery-router/metrics`) every recovery record the router writes
 * becomes prom-client metrics (`metrics.text()`, `metrics.serve(port)`). Without one the sinks do nothing. Replay
 * workers get the same sinks, which never run during replay.
 */
import { SimplePlugin } from '@temporalio/plugin';
import type { BundleOptions, ReplayWorkerOptions, WorkerOptions } from '@temporalio/worker';
import { approvalKeyBytes } from '../activities/approval-signature';
import { createApprovalActivities, type ApprovalActivityOptions } from '../activities/approvals';
import { BreakerRegistry, type BreakerOptions } from '../activities/breaker';
import { CredentialBroker, type CredentialProvider } from '../activities/credentials';
import { toolCatalog, type AnyTool } from '../activities/define-tool';
import { createToolActivities } from '../activities/invoke-tool';
import { createPlannerActivities, type Planner } from '../activities/planners/planner';
import { ConfigError, loadConfig, parseConfigObject } from '../config/load';
import type { RecoveryConfig, RecoveryConfigInput } from '../config/schema';
import type { ToolSpec } from '../recovery/tool-spec';
import { NO_TELEMETRY, type RecoveryTelemetry } from './telemetry';
import { RecoveryError } from '../recovery/recovery-error';

export interface RecoveryPluginOptions {
  /** The tools (from `defineTool`). At least one; names unique. */
  tools: AnyTool[];
  /** Credential providers by id, or a broker you share with other code. @default an empty broker */
  credentials?: CredentialBroker | Record<string, CredentialProvider>;
  /**
   * The policy: a config object (every field optional), or the path of a JSON file.
   * @default `temporal.config.json` in the working directory (`process.cwd()`), or the built-in defaults if there
   *   is none
   */
  config?: RecoveryConfigInput | string;
  /**
   * Circuit-breaker settings, shared by every downstream: `threshold` a positive integer, `halfOpenAfterMs` ≥ 0 ms.
   * @default { threshold: 5, halfOpenAfterMs: 10_000 }
   */
  breaker?: BreakerOptions;
  /**
   * Where recovery records go: a `RecoveryMetrics` (`recovery-router/metrics`, prom-client), shared between plugins
   * or workers to expose one registry, or your own `RecoveryTelemetry`. The plugin registers its tool names with
   * it (`addTools`). @default NO_TELEMETRY: records are not exported
   */
  telemetry?: RecoveryTelemetry;
  /**
   * The planner of `agentWorkflow` (a script or a model, activities/planners): the plugin registers its
   * `planNextStep` activity. Leave it out when this worker runs no agent workflow, or registers the planner
   * activities itself (e.g. on another task queue: `AgentOptions.planner.taskQueue`).
   */
  planner?: Planner;
  /**
   * Approvals: with a `signingKey` (≥ 32 bytes, held only by the workers and the approval service), every decision
   * on a waiting call must carry a valid HMAC-SHA256 signature (`signApproval`, activities/approval-signature.ts),
   * verified in the worker; the key never reaches workflow code or history. @default unsigned approvals
   */
  approvals?: ApprovalActivityOptions;
}

/** A `RecoveryPlugin` option that cannot be used. */
export class RecoveryPluginOptionsError extends RecoveryError<'invalid_plugin_options'> {
  override readonly name = 'RecoveryPluginOptionsError';
  static override readonly codes: readonly string[] = ['invalid_plugin_options'];
  constructor(message: string) {
    super('invalid_plugin_options', message);
  }
}

export class RecoveryPlugin extends SimplePlugin {
  /** The validated policy. */
  readonly config: RecoveryConfig;
  /** What workflow code receives: every tool's serializable spec. */
  readonly catalog: ToolSpec[];
  readonly credentials: CredentialBroker;
  readonly breakers: BreakerRegistry;
  /** Where the workflow sinks this plugin registers send recovery records (`options.telemetry`). */
  readonly telemetry: RecoveryTelemetry;

  /**
   * @throws RecoveryPluginOptionsError when `tools` is empty or an entry is not a `defineTool` result (the message
   *   names `tools[i]`), or `credentials`, `breaker`, `telemetry` or `planner` has the wrong type or bounds (the
   *   message names it).
   * @throws ToolDefinitionError when two tools share a name.
   * @throws ConfigError when the config (file or object) fails its schema: the message names the field.
   */
  constructor(options: RecoveryPluginOptions) {
    checkOptions(options);
    const config = resolveConfig(options.config);
    const catalog = toolCatalog(options.tools);
    const credentials =
      options.credentials instanceof CredentialBroker
        ? options.credentials
        : new CredentialBroker(options.credentials ?? {});
    const breakers = new BreakerRegistry(options.breaker);
    const telemetry = options.telemetry ?? NO_TELEMETRY;
    telemetry.addTools?.(catalog.map((t) => t.name));
    const activities = {
      ...createApprovalActivities(options.approvals),
      ...createToolActivities({
        tools: options.tools,
        backoff: config.backoff,
        toolBackoff: Object.fromEntries(
          Object.entries(config.tools).flatMap(([n, o]) => (o.backoff ? [[n, o.backoff]] : [])),
        ),
        credentials,
        breakers,
      }),
    };
    super({
      name: 'recovery-router',
      activities: options.planner ? { ...activities, ...createPlannerActivities(options.planner) } : activities,
    });
    this.config = config;
    this.catalog = catalog;
    this.credentials = credentials;
    this.breakers = breakers;
    this.telemetry = telemetry;
  }

  /**
   * What a workflow using the router needs from this worker's policy: the catalog, the budgets, the backoff and
   * the per-tool overrides of temporal.config.json. Pass it in the workflow's input (the router runs in workflow
   * code, which cannot read the worker's config):
   *   client.workflow.start(toolPlanWorkflow, { args: [{ ...plugin.workflowDefaults(), calls }], taskQueue })
   */
  workflowDefaults(): {
    catalog: ToolSpec[];
    budgets: RecoveryConfig['budgets'];
    backoff: RecoveryConfig['backoff'];
    toolOverrides: RecoveryConfig['tools'];
  } {
    return {
      catalog: this.catalog,
      budgets: this.config.budgets,
      backoff: this.config.backoff,
      toolOverrides: this.config.tools,
    };
  }

  /**
   * Adds the activities and the telemetry sinks (`recoveryTelemetry`, replacing a sink of that name the worker
   * already has; its other sinks are kept); sets `workflowsPath` to the plugin's workflows unless the worker brings
   * its own.
   */
  override configureWorker(options: WorkerOptions): WorkerOptions {
    const configured = super.configureWorker(options);
    const withSinks = { ...configured, sinks: { ...configured.sinks, ...this.telemetry.sinks() } };
    if (withSinks.workflowBundle) return withSinks;
    return {
      ...withSinks,
      workflowsPath: withSinks.workflowsPath ?? RECOVERY_WORKFLOWS_PATH,
      bundlerOptions: withPreload(withSinks.bundlerOptions),
    };
  }

  /**
   * A bundle built with this plugin (`bundleWorkflowCode({ workflowsPath, plugins: [plugin] })`) preloads the
   * router's modules, as a worker that bundles with the plugin does (`RECOVERY_PRELOAD_MODULES`).
   */
  override configureBundler(options: BundleOptions): BundleOptions {
    const configured = super.configureBundler(options);
    return { ...configured, preloadModules: withPreload(configured).preloadModules };
  }

  /**
   * A replay worker gets the same sinks, so workflow code finds them; they are registered with
   * `callDuringReplay: false`, so replaying a history never counts a record again. Sets `workflowsPath` as
   * `configureWorker` does.
   */
  override configureReplayWorker(options: ReplayWorkerOptions): ReplayWorkerOptions {
    const configured = super.configureReplayWorker(options);
    const withSinks = { ...configured, sinks: { ...configured.sinks, ...this.telemetry.sinks() } };
    if (withSinks.workflowBundle) return withSinks;
    return {
      ...withSinks,
      workflowsPath: withSinks.workflowsPath ?? RECOVERY_WORKFLOWS_PATH,
      bundlerOptions: withPreload(withSinks.bundlerOptions),
    };
  }
}

/**
 * The router's workflow modules, preloaded once into each reusable V8 context of a worker instead of evaluated
 * again for every workflow run (@temporalio/worker `bundlerOptions.preloadModules`; with `reuseV8Context`, Temporal's
 * default, a run otherwise gets a module cache of its own, so zod and every module of the router were evaluated —
 * and their schemas built — per run). These modules keep no per-run state at module level (docs/DESIGN.md,
 * "Performance"). Absolute paths: a bundle resolves them to the same modules the workflows import through
 * `recovery-router/workflow`. For a bundle you build yourself: `bundleWorkflowCode({ workflowsPath, plugins:
 * [plugin] })`, or `preloadModules: RECOVERY_PRELOAD_MODULES`.
 */
export const RECOVERY_PRELOAD_MODULES: readonly string[] = Object.freeze([
  require.resolve('../workflow'),
  require.resolve('../workflows'),
]);

function withPreload<T extends { preloadModules?: string[] }>(
  options: T | undefined,
): T & { preloadModules: string[] } {
  const given = options?.preloadModules ?? [];
  return { ...(options ?? ({} as T)), preloadModules: [...new Set([...given, ...RECOVERY_PRELOAD_MODULES])] };
}

/** The plugin's workflows, used when the worker has neither `workflowsPath` nor `workflowBundle`. */
export const RECOVERY_WORKFLOWS_PATH = require.resolve('../workflows');

/**
 * Checks the options' shapes before anything is built, so a wrong value fails here with its name rather than deep
 * inside an activity (the attack review: `{ tools: [{ spec: 1 }] }` used to be accepted).
 * @throws RecoveryPluginOptionsError naming the option (`tools[i]`, `credentials.<id>`, `breaker.<field>`, `telemetry`).
 */
function checkOptions(options: RecoveryPluginOptions): void {
  if (!isObject(options) || !Array.isArray(options.tools) || options.tools.length === 0) {
    throw new RecoveryPluginOptionsError(
      'RecoveryPlugin: `tools` must be a non-empty array of defineTool(...) results',
    );
  }
  options.tools.forEach((t: unknown, i) => {
    const where = `RecoveryPlugin: tools[${i}]`;
    if (!isObject(t)) throw new RecoveryPluginOptionsError(`${where} is not a defineTool(...) result`);
    const spec = (t as { spec?: unknown }).spec as { name?: unknown } | null | undefined;
    if (!isObject(spec) || typeof spec.name !== 'string') {
      throw new RecoveryPluginOptionsError(
        `${where} has no \`spec\` object with a string \`name\`: pass the result of defineTool(...), not its argument`,
      );
    }
    const { name, execute } = t as { name?: unknown; execute?: unknown };
    if (typeof execute !== 'function') {
      throw new RecoveryPluginOptionsError(`${where} (${JSON.stringify(spec.name)}) has no \`execute\` function`);
    }
    if (name !== spec.name) {
      throw new RecoveryPluginOptionsError(
        `${where}: \`name\` (${JSON.stringify(name)}) differs from \`spec.name\` (${JSON.stringify(spec.name)}); do not edit a defineTool(...) result`,
      );
    }
  });
  checkCredentials(options.credentials);
  checkBreaker(options.breaker);
  checkApprovals(options.approvals);
  const telemetry = options.telemetry as Partial<Record<keyof RecoveryTelemetry, unknown>> | undefined;
  if (
    telemetry !== undefined &&
    (!isObject(telemetry) ||
      typeof telemetry.sinks !== 'function' ||
      (telemetry.addTools !== undefined && typeof telemetry.addTools !== 'function'))
  ) {
    throw new RecoveryPluginOptionsError(
      'RecoveryPlugin: `telemetry` must have a sinks() method: a RecoveryMetrics (recovery-router/metrics) or a RecoveryTelemetry',
    );
  }
  const planner = options.planner as { plan?: unknown } | undefined;
  if (planner !== undefined && (!isObject(planner) || typeof planner.plan !== 'function')) {
    throw new RecoveryPluginOptionsError(
      'RecoveryPlugin: `planner` must have a `plan(input)` method (createScriptedPlanner, createOpenAIPlanner)',
    );
  }
}

function checkCredentials(credentials: unknown): void {
  if (credentials === undefined || credentials instanceof CredentialBroker) return;
  if (!isObject(credentials) || Array.isArray(credentials)) {
    throw new RecoveryPluginOptionsError(
      'RecoveryPlugin: `credentials` must be a CredentialBroker or an object of CredentialProvider by credential id',
    );
  }
  for (const [id, provider] of Object.entries(credentials)) {
    const p = provider as { initial?: unknown; refresh?: unknown } | null;
    if (!isObject(p) || typeof p.initial !== 'function' || typeof p.refresh !== 'function') {
      throw new RecoveryPluginOptionsError(
        `RecoveryPlugin: credentials.${id} must be a CredentialProvider: an object with initial() and refresh() functions`,
      );
    }
  }
}

function checkBreaker(breaker: unknown): void {
  if (breaker === undefined) return;
  if (!isObject(breaker) || Array.isArray(breaker)) {
    throw new RecoveryPluginOptionsError(
      'RecoveryPlugin: `breaker` must be an object { threshold?: positive integer, halfOpenAfterMs?: ms ≥ 0 }',
    );
  }
  const { threshold, halfOpenAfterMs, ...unknown } = breaker as Record<string, unknown>;
  const extra = Object.keys(unknown);
  if (extra.length > 0) {
    throw new RecoveryPluginOptionsError(
      `RecoveryPlugin: breaker.${extra[0]} is not an option (known: threshold, halfOpenAfterMs)`,
    );
  }
  if (threshold !== undefined && !(Number.isSafeInteger(threshold) && (threshold as number) >= 1)) {
    throw new RecoveryPluginOptionsError(
      `RecoveryPlugin: breaker.threshold must be a positive integer (got ${shown(threshold)})`,
    );
  }
  if (
    halfOpenAfterMs !== undefined &&
    !(typeof halfOpenAfterMs === 'number' && Number.isFinite(halfOpenAfterMs) && halfOpenAfterMs >= 0)
  ) {
    throw new RecoveryPluginOptionsError(
      `RecoveryPlugin: breaker.halfOpenAfterMs must be a finite number of ms ≥ 0 (got ${shown(halfOpenAfterMs)})`,
    );
  }
}

function checkApprovals(approvals: unknown): void {
  if (approvals === undefined) return;
  const key = (approvals as { signingKey?: unknown } | null)?.signingKey;
  if (!isObject(approvals) || (key !== undefined && typeof key !== 'string' && !(key instanceof Uint8Array))) {
    throw new RecoveryPluginOptionsError(
      'RecoveryPlugin: `approvals` must be an object { signingKey?: string | Uint8Array of at least 32 bytes }',
    );
  }
  if (key === undefined) return;
  try {
    approvalKeyBytes(key);
  } catch {
    throw new RecoveryPluginOptionsError('RecoveryPlugin: approvals.signingKey needs at least 32 bytes');
  }
}

function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null;
}

/** A value as an error message shows it: bigint, symbol and NaN included, never throwing. */
function shown(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'bigint') return `${value}n`;
  return typeof value === 'symbol' ? value.toString() : String(value);
}

function resolveConfig(config: RecoveryPluginOptions['config']): RecoveryConfig {
  if (config === undefined || typeof config === 'string') return loadConfig(config);
  // Same message shape as a bad file.
  return parseConfigObject(config, 'RecoveryPlugin options.config');
}

export { ConfigError };
