/**
 * The OpenAI Agents scenarios' workflows: an agent run under `@temporalio/openai-agents`'s `TemporalOpenAIRunner`
 * (the model call is an activity, answered by the loopback OpenAI server), once with the router's tools
 * (`agentsTools`) and once the way the integration is used without it: `activityAsTool` with a typical retry
 * policy (3 attempts). Each returns what the model read and said.
 */
// `require`, not `import`: Temporal's bundler compiles this .ts file to ES modules, for which webpack picks
// agents-core's ESM build — a second copy beside the CommonJS one @temporalio/openai-agents requires, with a
// dynamic `import()` whose chunk cannot load in the workflow sandbox ("Automatic publicPath is not supported").
// Workflow code compiled by tsc to CommonJS (the consumer test's project) can use a plain import.
// eslint-disable-next-line @typescript-eslint/no-require-imports
import agentsCore = require('@openai/agents-core');
import { activityAsTool, TemporalOpenAIRunner } from '@temporalio/openai-agents/workflow';
import { agentsTools, UNTRUSTED_TEXT_NOTE } from '../../openai-agents-workflow';
import { createToolRouter, type ToolRouterOptions } from '../../workflow';

export interface AgentsReport {
  text: string;
  /** Tool outputs as the model read them (strings). */
  seen: { tool: string; output: unknown }[];
  records: { tool: string; class: string; action: string }[];
}

const INSTRUCTIONS = 'Book calls and send e-mails for the support desk.';

type RunResultLike = { finalOutput?: unknown; newItems: { type: string; rawItem?: unknown; output?: unknown }[] };

function seenIn(result: RunResultLike): AgentsReport['seen'] {
  return result.newItems
    .filter((i) => i.type === 'tool_call_output_item')
    .map((i) => ({ tool: String((i.rawItem as { name?: unknown })?.name), output: i.output }));
}

/** With the router: every tool call is routed; failures come back as feedback; unknown names too. */
export async function agentsRouted(scenario: string, defaults: ToolRouterOptions): Promise<AgentsReport> {
  const router = createToolRouter(defaults);
  const routed = agentsTools(router);
  const agent = new agentsCore.Agent({
    name: 'booker',
    instructions: `${INSTRUCTIONS} ${UNTRUSTED_TEXT_NOTE}`, // which fields of a tool result quote a server
    model: 'fake-model',
    tools: routed.tools,
  });
  const result = await new TemporalOpenAIRunner().run(agent, scenario, {
    maxTurns: 6,
    runConfig: { ...routed.runConfig, tracingDisabled: true },
  });
  const records = router.records().map((r) => ({ tool: r.tool, class: r.class ?? 'ok', action: r.action ?? 'ok' }));
  return { text: String(result.finalOutput ?? ''), seen: seenIn(result as RunResultLike), records };
}

const RETRY = { maximumAttempts: 3, initialInterval: 200, backoffCoefficient: 1 };

/** Without the router: the tools as `activityAsTool` (3 attempts, 200 ms apart). */
export async function agentsBaseline(scenario: string): Promise<AgentsReport> {
  const options = { startToCloseTimeout: 5_000, retryPolicy: RETRY };
  const tools = [
    activityAsTool(
      {
        name: 'book_slot',
        description: 'Books a calendar slot (HH:MM) for a customer.',
        parameters: {
          type: 'object',
          properties: { slot: { type: 'string' }, customerId: { type: 'string' } },
          required: ['slot', 'customerId'],
          additionalProperties: false,
        },
      },
      options,
    ),
    activityAsTool(
      {
        name: 'send_email',
        description: 'Sends one e-mail.',
        parameters: {
          type: 'object',
          properties: { to: { type: 'string' }, subject: { type: 'string' } },
          required: ['to', 'subject'],
          additionalProperties: false,
        },
      },
      options,
    ),
  ];
  const agent = new agentsCore.Agent({ name: 'booker', instructions: INSTRUCTIONS, model: 'fake-model', tools });
  const result = await new TemporalOpenAIRunner().run(agent, scenario, {
    maxTurns: 6,
    runConfig: { tracingDisabled: true },
  });
  return { text: String(result.finalOutput ?? ''), seen: seenIn(result as RunResultLike), records: [] };
}
