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
 * Telemetry: the `recoveryTelemetry` sinks of `options.telemetry` (plugin/telemetry.ts; a `RecoveryMetrics` makes
 * prom-client metrics of each recovery record) and the `recoveryTraces` sink (plugin/trace-sinks.ts) join the
 * worker's `sinks`; replay workers get the same sinks, which never run during replay.
 */
import { SimplePlugin } from '@temporalio/plugin';
import type { BundleOptions, ReplayWorkerOptions, Worker, WorkerOptions } from '@temporalio/worker';
import { createApprovalActivities } from '../activities/approvals';
import type { Breakers } from '../activities/breaker';
import { CredentialBroker } from '../activities/credentials';
import { toolCatalog } from '../activities/define-tool';
import { createToolActivities } from '../activities/invoke-tool';
import { createPlannerActivities } from '../activities/planners/planner';
import { createSharedCredentialActivities, sharedRefresh } from '../activities/shared-credentials';
import type { SharedStateChannel } from '../activities/shared-state';
import { ConfigError, loadConfig } from '../config/load';
import type { RecoveryConfig } from '../config/schema';
import type { ToolSpec } from '../recovery/tool-spec';
import type { WorkerData } from '../workflows/worker-data-types';
import { release, runWithEntityWorkers, type EntityWorkerOptions } from './entity-worker';
import { entityTaskQueueOf, entityWorkersFor, sharedBreakerOf, sharedRefreshOf } from './shared-mode';
import { checkOptions, RecoveryPluginOptionsError } from './options';
import { checkSearchAttributes, SearchAttributesError } from './search-attribute-check';
import { NO_TELEMETRY, type RecoveryTelemetry } from './telemetry';
import { createTracing, type Tracing } from '../activities/tracing/tracing';
import { shadowInterceptors } from './shadow/interceptor';
import { shadowRuntime } from './shadow/shadow-plugin';
import { traceSinks } from './trace-sinks';
import { WorkflowBundleError } from './bundle-check';
import { breakersFor, replayOptionsWith, workerOptionsWith } from './plugin-config';
import { catalogDigest, workerDataOf } from './worker-data';
import {
  bundlerWithPluginCode,
  RECOVERY_PRELOAD_MODULES,
  RECOVERY_WORKFLOWS_PATH,
  type PluginCode,
} from './workflow-code';

import type { RecoveryPluginOptions } from './plugin-options';
export type { RecoveryPluginOptions };

const NAME = 'RecoveryPlugin';

/** The worker plugin: tool activities, the plugin's workflows, the catalog and policy for workflow code. */
export class RecoveryPlugin extends SimplePlugin {
  /** The validated policy. */
  readonly config: RecoveryConfig;
  /** What workflow code receives: every tool's serializable spec. */
  readonly catalog: ToolSpec[];
  readonly credentials: CredentialBroker;
  /** The breakers calls run through: a `BreakerRegistry` (local) or a `SharedBreaker` (`breaker.shared`). */
  readonly breakers: Breakers;
  /** Where the workflow sinks this plugin registers send recovery records (`options.telemetry`). */
  readonly telemetry: RecoveryTelemetry;
  /** Where spans and the duration histogram go (`options.tracing`); undefined when tracing is off or unavailable. */
  readonly tracing: Tracing | undefined;
  /** With `credentialRefresh.shared`: how refreshes reach `credential:<id>` (its `fallbacks` count local refreshes). */
  readonly refreshChannel: SharedStateChannel | undefined;
  private readonly entityWorkers: EntityWorkerOptions | undefined;
  private readonly searchAttributes: boolean;
  /** What the plugin puts in a workflow bundle: its data, and whether the shared-mode entities go in. */
  private readonly code: PluginCode;

  /**
   * @throws RecoveryPluginOptionsError when `tools` is empty or an entry is not a `defineTool` result (the message
   *   names `tools[i]`), or `credentials`, `breaker`, `telemetry` or `planner` has the wrong type or bounds (the
   *   message names it).
   * @throws ToolDefinitionError when two tools share a name.
   * @throws ConfigError when the config (file or object) fails its schema: the message names the field.
   */
  constructor(options: RecoveryPluginOptions) {
    checkOptions(options);
    const config = loadConfig(options.config, 'RecoveryPlugin options.config');
    const catalog = toolCatalog(options.tools);
    const credentials =
      options.credentials instanceof CredentialBroker
        ? options.credentials
        : new CredentialBroker(options.credentials ?? {});
    const breakers = breakersFor(options, config.taskQueue);
    const shared = sharedRefreshOf(options);
    const refreshing =
      shared && sharedRefresh({ ...shared, taskQueue: shared.taskQueue ?? entityTaskQueueOf(config.taskQueue) });
    if (refreshing) credentials.shareRefreshes(refreshing.refresh);
    // The activity the credential entity runs its refresh as (on the entities' queue, and on this one).
    const entityActivities = shared ? createSharedCredentialActivities(credentials, shared.key) : {};
    const telemetry = options.telemetry ?? NO_TELEMETRY;
    telemetry.addTools?.(catalog.map((t) => t.name));
    const tracing = createTracing(options.tracing);
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
        classifyRules: config.classify.rules,
        ...(tracing ? { tracing } : {}),
        catalogDigest: catalogDigest(catalog),
      }),
      ...entityActivities,
      ...(options.planner ? createPlannerActivities(options.planner, { catalog }) : {}),
    };
    const shadow =
      options.shadow && shadowRuntime(options.shadow, config.backoff, Object.keys(activities), tracing, NAME);
    super({
      name: 'recovery-router',
      activities,
      ...(shadow ? { workerInterceptors: { activity: [shadowInterceptors(shadow)] } } : {}),
    });
    this.tracing = tracing;
    this.config = config;
    this.catalog = catalog;
    this.credentials = credentials;
    this.breakers = breakers;
    this.telemetry = telemetry;
    this.refreshChannel = refreshing ? refreshing.channel : undefined;
    this.entityWorkers = entityWorkersFor(options, config.taskQueue, entityActivities);
    this.searchAttributes = options.searchAttributes ?? true;
    this.code = {
      data: workerDataOf(catalog, config, this.searchAttributes),
      shared: sharedBreakerOf(options) !== undefined || sharedRefreshOf(options) !== undefined,
    };
  }

  /**
   * Checks the namespace's search attributes (unless `searchAttributes: false`), then runs the Worker and, in
   * shared mode, the Worker of the entities' task queue beside it (`entityWorker`); they stop together, and the
   * first error is thrown (plugin/entity-worker.ts).
   * @throws SearchAttributesError before the Worker polls, when its namespace lacks one of the plugin's.
   */
  override async runWorker(worker: Worker, next: (w: Worker) => Promise<void>): Promise<void> {
    if (this.searchAttributes) {
      try {
        await checkSearchAttributes(worker);
      } catch (err) {
        await release(worker, next);
        throw err;
      }
    }
    const entities = this.entityWorkers;
    if (!entities) return super.runWorker(worker, next);
    return super.runWorker(worker, (w) => runWithEntityWorkers(w, next, entities));
  }

  /**
   * What a workflow using the router needs from this worker's policy: the catalog, the budgets, the backoff and
   * the per-tool overrides of temporal.config.json. Pass it in the workflow's input (the router runs in workflow
   * code, which cannot read the worker's config):
   *   client.workflow.start(toolPlanWorkflow, { args: [{ ...plugin.workflowDefaults(), calls }], taskQueue })
   */
  workflowDefaults(): Omit<WorkerData, 'catalogDigest' | 'publicForms'> {
    const { catalogDigest: _digest, publicForms: _forms, ...defaults } = this.code.data;
    return defaults;
  }

  /**
   * Adds the activities, shadow mode's interceptor (`options.shadow`) and the sinks (`recoveryTelemetry` and
   * `recoveryTraces`, replacing sinks of those names the worker already has; its other sinks are kept) and the plugin's workflow code (plugin/workflow-code.ts): without a
   * `workflowsPath`, the plugin's workflows; with one, the user's workflows and the plugin's own (the reconcile
   * child, and the entities in shared mode) with no re-export needed; the worker's data (catalog and policy); the
   * router's modules preloaded (`RECOVERY_PRELOAD_MODULES`).
   * @throws WorkflowBundleError when the Worker's prebuilt `workflowBundle` lacks a workflow the plugin starts
   *   (naming it), or was built with a plugin of another catalog (plugin/bundle-check.ts).
   */
  override configureWorker(options: WorkerOptions): WorkerOptions {
    return workerOptionsWith(super.configureWorker(options), this.sinks(), this.code, this.entityWorkers);
  }

  /** The sinks of recovery records (`options.telemetry`) and workflow-side spans (`options.tracing`). */
  private sinks() {
    return { ...this.telemetry.sinks(), ...traceSinks(this.tracing) };
  }

  /**
   * A bundle built with this plugin (`bundleWorkflowCode({ workflowsPath, plugins: [plugin] })`) gets the plugin's
   * workflow code as a Worker's does (`configureWorker`).
   */
  override configureBundler(options: BundleOptions): BundleOptions {
    return bundlerWithPluginCode(super.configureBundler(options), this.code);
  }

  /**
   * A replay worker gets the same sinks, so workflow code finds them; they are registered with
   * `callDuringReplay: false`, so replaying a history never counts a record again. Adds the plugin's workflow code
   * as `configureWorker` does.
   */
  override configureReplayWorker(options: ReplayWorkerOptions): ReplayWorkerOptions {
    return replayOptionsWith(super.configureReplayWorker(options), this.sinks(), this.code);
  }
}

export {
  ConfigError,
  RecoveryPluginOptionsError,
  WorkflowBundleError,
  SearchAttributesError,
  RECOVERY_PRELOAD_MODULES,
  RECOVERY_WORKFLOWS_PATH,
};
