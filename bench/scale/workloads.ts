/**
 * The scale benchmark's workloads, shared with bench/promises.ts: the two arms' workflow bundles, the inventory
 * service every arm calls, each workload's workflow arguments, and the scripted planner of the agent workloads (one
 * `check_inventory` call, then submit its result).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { bundleWorkflowCode, DefaultLogger, type WorkflowBundle } from '@temporalio/worker';
import { createScriptedPlanner } from '../../activities/planners/scripted';
import { supportTools } from '../../examples/support-tools';
import { RecoveryPlugin } from '../../plugin/recovery-plugin';
import { permittedCapabilities } from '../../recovery/tool-spec';
import { builtWorkflowSources } from '../built-package';
import { INVENTORY } from '../scenarios';
import type { BareAgentOptions } from '../workflows';
import type { Workload } from './rows';

/** The agent's goal in the scale benchmark: one inventory call, then submit its result. */
export const SCALE_GOAL = 'Check the inventory of SKU-1';

/**
 * The bare arm's bundle (bench/workflows.ts) and the plugin's, built as a user's worker bundles it: from the
 * compiled package (bench/built-package.ts).
 */
export async function workloadBundles(): Promise<{ bare: WorkflowBundle; plugin: WorkflowBundle }> {
  const logger = new DefaultLogger('ERROR');
  const [bare, plugin] = await Promise.all([
    bundleWorkflowCode({ workflowsPath: require.resolve('../workflows'), logger }),
    bundleWorkflowCode({ ...builtWorkflowSources(), logger }),
  ]);
  return { bare, plugin };
}

/** The scripted planner of both agent workloads: `check_inventory` for SKU-1, then submit its result. */
export function scalePlanner(): ReturnType<typeof createScriptedPlanner> {
  return createScriptedPlanner({
    goals: {
      [SCALE_GOAL]: {
        steps: [{ id: 'inv', tool: 'check_inventory', args: { sku: 'SKU-1' } }],
        submit: { resultFrom: 'inv' },
      },
    },
  });
}

/** A loopback inventory service on 127.0.0.1 answering every request with INVENTORY; close `server` when done. */
export async function inventoryServer(): Promise<{ url: string; server: Server }> {
  const body = JSON.stringify(INVENTORY);
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(body);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', () => ok()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/** Each workload's workflow arguments against the inventory service at `url`. */
export function workloadArgs(url: string): (w: Workload) => unknown[] {
  const defaults = new RecoveryPlugin({ tools: [supportTools(url).checkInventory] }).workflowDefaults();
  const tool = {
    startToCloseTimeoutMs: 5_000,
    retry: { maximumAttempts: 4, initialInterval: 50, backoffCoefficient: 2, maximumInterval: 1_000 },
  };
  // agentWorkflow's planner defaults (workflows/agent.ts) and the capabilities it shows (no scopes granted).
  const bareAgent: BareAgentOptions = {
    capabilities: permittedCapabilities(defaults.catalog, []),
    planner: { startToCloseTimeoutMs: 150_000, heartbeatTimeoutMs: 10_000, maximumAttempts: 4 },
    tool,
  };
  return (w) => {
    switch (w) {
      case 'bareActivityWorkflow':
        return [{ sku: 'SKU-1', ...tool }];
      case 'bareAgentWorkflow':
        return [SCALE_GOAL, bareAgent];
      case 'toolPlanWorkflow':
        return [{ ...defaults, calls: [{ tool: 'check_inventory', args: { sku: 'SKU-1' } }] }];
      case 'agentWorkflow':
        return [SCALE_GOAL, { ...defaults, searchAttributes: false }];
    }
  };
}
