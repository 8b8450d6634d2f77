/** The options of `new RecoveryPlugin(options)` (plugin/recovery-plugin.ts); docs/configuration.md. */
import type { WorkflowBundleOption } from '@temporalio/worker';
import type { ApprovalActivityOptions } from '../activities/approvals';
import type { BreakerOptions } from '../activities/breaker';
import type { CredentialBroker, CredentialProvider } from '../activities/credentials';
import type { AnyTool } from '../activities/define-tool';
import type { Planner } from '../activities/planners/planner';
import type { SharedBreakerOptions } from '../activities/shared-breaker';
import type { SharedCredentialOptions } from '../activities/shared-credentials';
import type { TracingOptions } from '../activities/tracing/tracing';
import type { RecoveryConfigInput } from '../config/schema';
import type { ShadowOptions } from './shadow/options';
import type { RecoveryTelemetry } from './telemetry';

/** The options of `new RecoveryPlugin(options)`; each is checked in the constructor (docs/configuration.md). */
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
   * With `shared: true` the breaker of each downstream is one for every worker of the namespace, kept by Temporal in
   * the entity workflow `breaker:<downstream>` (README, "Several workers: shared breaker and refresh"); a wait on it
   * never exceeds `timeoutMs` (default 2 000 ms, measured: README "Several workers"), after which the call runs on
   * the worker's local breaker.
   * @default { threshold: 5, halfOpenAfterMs: 10_000 } (local: one breaker per worker process)
   */
  breaker?: BreakerOptions | SharedBreakerOptions | (BreakerOptions & { shared: false });
  /**
   * `{ shared: true, key }`: a 401 on any worker refreshes the credential once for the whole namespace, through the
   * entity workflow `credential:<id>`, which must accept it within `timeoutMs` (default 2 000 ms; else a local refresh);
   * the token travels sealed under `key` (the same on every worker, ≥ 32 bytes).
   * @default local single-flight refresh per worker process
   */
  credentialRefresh?: SharedCredentialOptions | { shared: false };
  /**
   * The Worker of the entities' task queue (`breaker.taskQueue`, `credentialRefresh.taskQueue`): in shared mode the
   * plugin runs one alongside each Worker it is used in (same connection and namespace, the entity workflows only;
   * plugin/entity-worker.ts), unless that queue is the Worker's own. `{ workflowBundle }`: a prebuilt bundle that
   * exports the entity workflows, instead of bundling them when the Worker starts. `false`: run it yourself.
   * @default true
   */
  entityWorker?: boolean | { workflowBundle: WorkflowBundleOption };
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
  /**
   * Whether the router's workflows set the search attributes `RecoveryStatus`, `RecoveryTool` and
   * `RecoveryOperationId` (Keyword) on a call waiting for approval or a reconciliation, so that operators find them
   * (`npx recovery-router approvals pending`). `true`: each Worker checks that its namespace has them before it
   * polls, and refuses to start without them (`SearchAttributesError`, plugin/search-attribute-check.ts). `false`:
   * nothing is checked, and `workflowDefaults()` carries `searchAttributes: false` to the workflows you start with it.
   * @default true
   */
  searchAttributes?: boolean;
  /**
   * Spans of every tool attempt and recovery, and `gen_ai.execute_tool.duration` (docs/observability.md); `false`:
   * none. Needs the optional peer `@opentelemetry/api` (absent: a no-op). @default the API's global providers
   */
  tracing?: TracingOptions | false;
  /** Shadow mode for the worker's other activities (docs/shadow-mode.md): `shadow` or `enforce`. @default off */
  shadow?: ShadowOptions;
}
