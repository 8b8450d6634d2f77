/**
 * The agent's planner input names the capabilities; the planner activity expands them from the worker's catalog
 * (issue 29: the history must not carry every tool's schema every turn). On the real dev server: an agent with 50
 * tools in the catalog, three planner turns; the history's planNextStep inputs, the planner's own inputs, and the
 * encoded history, which holds none of the tools' descriptions or schemas.
 */
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { temporal } from '@temporalio/proto';
import { z } from 'zod';
import { defineTool, type AnyTool } from '../../activities/define-tool';
import { createPlannerActivities, type Planner } from '../../activities/planners/planner';
import { createScriptedPlanner } from '../../activities/planners/scripted';
import { startScriptedService, type ScriptedService } from '../../examples/scripted-service';
import { supportTools } from '../../examples/support-tools';
import { RecoveryPlugin } from '../../plugin/recovery-plugin';
import { Worker } from '@temporalio/worker';
import type { AgentResult } from '../../workflows/agent';
import { PLANNER_CAPABILITY_NAMES_PATCH, type PlannerInput } from '../../workflows/planner-contract';
import { testEnv, uniqueTaskQueue } from '../setup/env';
import { FAST_BACKOFF } from './harness';

let env: TestWorkflowEnvironment;
let service: ScriptedService;
beforeAll(async () => {
  env = await testEnv();
  service = await startScriptedService({ 'GET /inventory': [{ status: 200, body: { items: [{ id: 'a' }] } }] });
});
afterAll(async () => {
  await service?.close();
  await env?.teardown();
});

/** Words only the extra tools' descriptions and schemas hold: they must not appear in the history. */
const SCHEMA_WORDS = 'as the API names it';
const extraTool = (i: number): AnyTool =>
  defineTool({
    name: `lookup_record_${i}`,
    description: `Reads record kind ${i} of the account.`,
    input: z.object({ recordId: z.string().describe(`The record id, ${SCHEMA_WORDS}.`) }),
    output: z.object({ status: z.string() }),
    effect: 'read',
    execute: () => Promise.resolve({ status: 'never called' }),
  });

const GOAL = 'Check the stock three times';
const policy = {
  goals: {
    [GOAL]: {
      steps: [0, 1].map((i) => ({ id: `s${i}`, tool: 'check_inventory', args: { sku: `SKU-${i}` } })),
      submit: { resultFrom: 's1' },
    },
  },
};

async function runAgent(tools: AnyTool[]) {
  const inputs: PlannerInput[] = [];
  const scripted = createScriptedPlanner(policy);
  const planner: Planner = {
    plan: (input, o) => {
      inputs.push(JSON.parse(JSON.stringify(input)) as PlannerInput);
      return scripted.plan(input, o);
    },
  };
  // As a user registers it: createPlannerActivities without a catalog; the Worker's plugin supplies its own, and
  // its workflow code (the bundle built with the plugin), so the run starts with its goal only.
  const taskQueue = uniqueTaskQueue('agent-names');
  const plugin = new RecoveryPlugin({ tools, config: { taskQueue, backoff: FAST_BACKOFF }, searchAttributes: false });
  const worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    plugins: [plugin],
    activities: createPlannerActivities(planner),
  });
  const workflowId = uniqueTaskQueue('agent-names');
  const result = await worker.runUntil(
    env.client.workflow.execute('agentWorkflow', { taskQueue, workflowId, args: [GOAL] }) as Promise<AgentResult>,
  );
  const history = await env.client.workflow.getHandle(workflowId).fetchHistory();
  return { result, inputs, history, names: tools.map((t) => t.spec.name).sort() };
}

const decode = (p: temporal.api.common.v1.IPayload | undefined) =>
  JSON.parse(Buffer.from(p?.data ?? new Uint8Array()).toString('utf8')) as Record<string, unknown>;

test('50 tools: each planner step names the 50 capabilities, the planner sees them whole, no schema is in history', async () => {
  const tools = [supportTools(service.url).checkInventory, ...Array.from({ length: 49 }, (_, i) => extraTool(i))];
  const { result, inputs, history, names } = await runAgent(tools);
  expect([result.status, result.turns]).toEqual(['submitted', 3]);
  const steps = (history.events ?? [])
    .map((e) => e.activityTaskScheduledEventAttributes)
    .filter((a) => a?.activityType?.name === 'planNextStep')
    .map((a) => decode(a?.input?.payloads?.[0]));
  expect(steps.map((s) => [Object.keys(s).sort(), (s.capabilityNames as string[]).length])).toEqual(
    [1, 2, 3].map(() => [['capabilityNames', 'goal', 'observations', 'turn'], 50]),
  );
  expect(steps[0]!.capabilityNames).toEqual(names);
  // What the planner saw: every capability with its description and JSON Schema, from the worker's catalog.
  expect(inputs.map((i) => i.capabilities.length)).toEqual([50, 50, 50]);
  expect(inputs[0]!.capabilities.find((c) => c.name === 'lookup_record_7')).toMatchObject({
    description: 'Reads record kind 7 of the account.',
    inputSchema: { properties: { recordId: { description: `The record id, ${SCHEMA_WORDS}.` } } },
  });
  const encoded = Buffer.from(temporal.api.history.v1.History.encode(history).finish()).toString('latin1');
  expect(encoded.includes(SCHEMA_WORDS)).toBe(false);
  // One marker of the patch, so histories recorded before it replay with their full inputs.
  const markers = (history.events ?? []).filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_patch');
  expect(markers.length).toBe(1);
  expect(encoded.includes(PLANNER_CAPABILITY_NAMES_PATCH)).toBe(true);
});
