/**
 * `RecoveryPlugin`: one line in `Worker.create({ plugins: [...] })` registers the tool activity, the plugin's
 * workflows and the shared breaker and credential broker (Temporal's `SimplePlugin`, @temporalio/plugin).
 *
 *   const plugin = new RecoveryPlugin({ tools: [getWeather, createInvoice], credentials: { crm: provider } });
 *   const worker = await Worker.create({ connection, taskQueue: plugin.config.taskQueue, plugins: [plugin] });
 *
 * The worker's own `workflowsPath`, if set, wins; otherwise the plugin's workflows (workflows/index.ts) are used.
 * Workflow code receives the tools as data: `plugin.catalog` (ToolSpec[]).
 */
import { SimplePlugin } from '@temporalio/plugin';
import type { WorkerOptions } from '@temporalio/worker';
import { BreakerRegistry, type BreakerOptions } from '../activities/breaker';
import { CredentialBroker, type CredentialProvider } from '../activities/credentials';
import { toolCatalog, type AnyTool } from '../activities/define-tool';
import { createToolActivities } from '../activities/invoke-tool';
import { ConfigError, loadConfig, parseConfig } from '../config/load';
import { RecoveryConfigSchema, type RecoveryConfig } from '../config/schema';
import type { ToolSpec } from '../recovery/tool-spec';

export interface RecoveryPluginOptions {
  /** The tools (from `defineTool`). At least one; names unique. */
  tools: AnyTool[];
  /** Credential providers by id, or a broker you share with other code. @default an empty broker */
  credentials?: CredentialBroker | Record<string, CredentialProvider>;
  /**
   * The policy: a parsed config object, or the path of a JSON file.
   * @default `temporal.config.json` at the project root, or the built-in defaults if there is none
   */
  config?: RecoveryConfig | Partial<RecoveryConfig> | string;
  /** Circuit-breaker settings, shared by every downstream. @default { threshold: 5, halfOpenAfterMs: 10_000 } */
  breaker?: BreakerOptions;
}

/** A `RecoveryPlugin` option that cannot be used. */
export class RecoveryPluginOptionsError extends Error {
  override readonly name = 'RecoveryPluginOptionsError';
}

export class RecoveryPlugin extends SimplePlugin {
  /** The validated policy. */
  readonly config: RecoveryConfig;
  /** What workflow code receives: every tool's serializable spec. */
  readonly catalog: ToolSpec[];
  readonly credentials: CredentialBroker;
  readonly breakers: BreakerRegistry;

  /**
   * @throws RecoveryPluginOptionsError when `tools` is empty or not from `defineTool`.
   * @throws ToolDefinitionError when two tools share a name.
   * @throws ConfigError when the config (file or object) fails its schema: the message names the field.
   */
  constructor(options: RecoveryPluginOptions) {
    if (!options || !Array.isArray(options.tools) || options.tools.length === 0) {
      throw new RecoveryPluginOptionsError(
        'RecoveryPlugin: `tools` must be a non-empty array of defineTool(...) results',
      );
    }
    options.tools.forEach((t, i) => {
      if (!t || typeof t !== 'object' || !('spec' in t)) {
        throw new RecoveryPluginOptionsError(`RecoveryPlugin: tools[${i}] is not a defineTool(...) result`);
      }
    });
    const config = resolveConfig(options.config);
    const catalog = toolCatalog(options.tools);
    const credentials =
      options.credentials instanceof CredentialBroker
        ? options.credentials
        : new CredentialBroker(options.credentials ?? {});
    const breakers = new BreakerRegistry(options.breaker);
    const activities = createToolActivities({
      tools: options.tools,
      backoff: config.backoff,
      toolBackoff: Object.fromEntries(
        Object.entries(config.tools).flatMap(([n, o]) => (o.backoff ? [[n, o.backoff]] : [])),
      ),
      credentials,
      breakers,
    });
    super({ name: 'recovery-router', activities });
    this.config = config;
    this.catalog = catalog;
    this.credentials = credentials;
    this.breakers = breakers;
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

  /** Adds the activities; sets `workflowsPath` to the plugin's workflows unless the worker brings its own. */
  override configureWorker(options: WorkerOptions): WorkerOptions {
    const configured = super.configureWorker(options);
    if (configured.workflowsPath || configured.workflowBundle) return configured;
    return { ...configured, workflowsPath: RECOVERY_WORKFLOWS_PATH };
  }
}

/** The plugin's workflows, used when the worker has neither `workflowsPath` nor `workflowBundle`. */
export const RECOVERY_WORKFLOWS_PATH = require.resolve('../workflows');

function resolveConfig(config: RecoveryPluginOptions['config']): RecoveryConfig {
  if (config === undefined) return loadConfig();
  if (typeof config === 'string') return loadConfig(config);
  const parsed = RecoveryConfigSchema.safeParse(config);
  if (parsed.success) return parsed.data;
  // Same message shape as a bad file.
  return parseConfig(JSON.stringify(config), 'RecoveryPlugin options.config');
}

export { ConfigError };
