/**
 * Issue 36: a server's words reach the model only fenced, as data (test/fixtures/fence.ts says what "fenced" means,
 * docs/DESIGN.md "Whose words reach the model" is its source). The corpus (test/fixtures/injection-corpus.ts) puts
 * injected text, each with its own canary, into every channel; `toolPlanWorkflow` runs every placement on the real
 * dev server against loopback services and an MCP server; then the OpenAI planner sends those observations to a
 * loopback chat-completions server, which records the request it got. A placement arrived unfenced when its canary
 * shows up outside a fenced position, or inside one without being normalised, in the feedback, in the framework
 * tool result (the AI SDK and OpenAI Agents adapters hand `toolResultFor` to the model), or in the planner's request.
 */
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { createOpenAIPlanner, DEFAULT_SYSTEM_PROMPT } from '../../activities/planners/openai';
import { startFakeOpenAIServer, text, type FakeOpenAIServer } from '../../examples/fake-openai-server';
import { observationOf } from '../../workflows/agent-observations';
import { toolResultFor } from '../../workflows/interop/tool-result';
import type { ToolOutcome } from '../../workflows/tool-router';
import {
  CHANNELS,
  injectionMcpTools,
  injectionTools,
  placements,
  startInjectionService,
  type Channel,
  type InjectionService,
  type Placement,
} from '../fixtures/injection-corpus';
import { arrivals, requestArrivals, unfenced, type Arrival } from '../fixtures/fence';
import { testEnv } from '../setup/env';
import { harness } from './harness';

jest.setTimeout(180_000);

const CORPUS = placements();
let env: TestWorkflowEnvironment;
let service: InjectionService;
let mcp: Awaited<ReturnType<typeof injectionMcpTools>>;
let model: FakeOpenAIServer;

beforeAll(async () => {
  env = await testEnv();
  service = await startInjectionService(CORPUS);
  mcp = await injectionMcpTools(CORPUS);
  model = await startFakeOpenAIServer();
});
afterAll(async () => {
  await mcp?.close();
  await service?.close();
  await model?.close();
  await env?.teardown();
});

/** What the model reads of one outcome through a framework adapter: the value (all fenced) or the feedback. */
function frameworkArrivals(o: ToolOutcome, canary: string): Arrival[] {
  return o.ok ? arrivals(toolResultFor(o), canary, true) : arrivals(toolResultFor(o), canary);
}

test('injection corpus: ≥ 60 placements over every channel; none arrives unfenced in the feedback, a framework tool result or the planner request', async () => {
  expect(CORPUS.length).toBeGreaterThanOrEqual(60);
  expect(new Set(CORPUS.map((p) => p.channel))).toEqual(new Set(CHANNELS));

  const h = await harness(env, [...injectionTools(service.url, CORPUS), ...mcp.tools]);
  const plan = await h.run(() =>
    h.runPlan({
      calls: CORPUS.map((p) => ({ tool: p.tool, args: p.args })),
      stopOnTerminal: false,
      budgets: { perRunAttempts: 1_000, perCallRetries: 1 },
      reconcile: { lookupBudget: 1, lookupBackoff: { initialIntervalMs: 10 } },
    }),
  );
  expect(plan.outcomes).toHaveLength(CORPUS.length);

  // The planner's request for all these observations, as the official client sends it.
  model.enqueue(text('done'));
  const planner = createOpenAIPlanner({
    env: { OPENAI_BASE_URL: model.baseURL, OPENAI_API_KEY: 'sk-fence-test', OPENAI_MODEL: 'fake-fence' },
  });
  const observations = plan.outcomes.map((o, i) =>
    observationOf({ callId: `call_${i}`, tool: CORPUS[i]!.tool, args: CORPUS[i]!.args }, o, 1),
  );
  await planner.plan({ goal: 'Read the records.', turn: 2, observations, capabilities: [] });
  const request = model.requests.at(-1)!.body as { messages: { role: string; content?: unknown }[] };

  const table = Object.fromEntries(
    CHANNELS.map((c) => [c, { placements: 0, feedback: 0, framework: 0, request: 0 }]),
  ) as Record<Channel, { placements: number; feedback: number; framework: number; request: number }>;
  const broken: { id: string; wording: string; where: string[] }[] = [];
  CORPUS.forEach((p: Placement, i) => {
    const o = plan.outcomes[i]!;
    const row = table[p.channel];
    row.placements += 1;
    const inFeedback = unfenced(o.ok ? [] : arrivals(o.feedback, p.canary, false, 'feedback'));
    const inFramework = unfenced(frameworkArrivals(o, p.canary));
    const inRequest = unfenced(requestArrivals(request, p.canary));
    if (inFeedback.length > 0) row.feedback += 1;
    if (inFramework.length > 0) row.framework += 1;
    if (inRequest.length > 0) row.request += 1;
    const where = [...inFeedback, ...inFramework, ...inRequest].map((a) => a.at);
    if (where.length > 0) broken.push({ id: p.id, wording: p.wording, where: [...new Set(where)] });
  });
  console.log(JSON.stringify({ table, broken }, null, 1));

  expect(broken).toEqual([]);
  // The planner's system text says which words are data.
  expect(request.messages[0]).toEqual({ role: 'system', content: DEFAULT_SYSTEM_PROMPT });
  expect(DEFAULT_SYSTEM_PROMPT).toMatch(/serverSaid/);
});
