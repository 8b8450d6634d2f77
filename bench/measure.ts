/** One measured run of one arm: latency, CPU time and the history it left. */
import { isDeepStrictEqual } from 'node:util';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { ScriptedService } from '../examples/scripted-service';
import type { Arm } from './arms';
import { activityAttempts, eventTypes, historyBytes, phases, type Phases } from './events';
import { INVENTORY, INVENTORY_ROUTE, type Scenario } from './scenarios';

export interface Sample {
  /** Client start → result, in ms. */
  latencyMs: number;
  /** `process.cpuUsage` user + system over the same span, in ms: both workers, the client and the service. */
  cpuMs: number;
  eventTypes: string[];
  /** Size of the encoded history (payloads included), in bytes. */
  historyBytes: number;
  /** Where the time went, from the history's timestamps. */
  phases: Phases;
}

const SKU = 'SKU-1';

/**
 * Resets the service to the scenario's script and runs the arm once.
 * @throws Error when the value, the service's request count or the activity's attempt differ from the scenario's:
 *   the run did not do what is being measured.
 */
export async function measure(
  env: TestWorkflowEnvironment,
  service: ScriptedService,
  arm: Arm,
  scenario: Scenario,
): Promise<Sample> {
  service.reset(scenario.script);
  const cpuBefore = process.cpuUsage();
  const startedMs = performance.now();
  const { workflowId, value } = await arm.execute(SKU);
  const latencyMs = performance.now() - startedMs;
  const cpu = process.cpuUsage(cpuBefore);

  const where = `${scenario.name}/${arm.name} ${workflowId}`;
  if (!isDeepStrictEqual(value, INVENTORY)) throw new Error(`${where}: returned ${JSON.stringify(value)}`);
  const hits = service.hits(INVENTORY_ROUTE);
  if (hits !== scenario.expectedHits)
    throw new Error(`${where}: the service got ${hits} requests, expected ${scenario.expectedHits}`);
  const history = await env.client.workflow.getHandle(workflowId).fetchHistory();
  const events = history.events ?? [];
  const attempts = activityAttempts(events);
  if (!isDeepStrictEqual(attempts, [scenario.expectedHits])) {
    throw new Error(`${where}: activity attempts ${JSON.stringify(attempts)}, expected [${scenario.expectedHits}]`);
  }
  return {
    latencyMs,
    cpuMs: (cpu.user + cpu.system) / 1000,
    eventTypes: eventTypes(events),
    historyBytes: historyBytes(history),
    phases: phases(events),
  };
}
