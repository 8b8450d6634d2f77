/**
 * The AI SDK scenarios' workflows: `generateText` with `@temporalio/ai-sdk`'s provider (the model call is an
 * activity; the model is `ai/test`'s MockLanguageModelV4 on the worker), once with the router's tools
 * (`aiSdkTools`) and once the way the AI SDK integration is used without it: tools whose `execute` calls an
 * activity, with a typical retry policy (3 attempts). Each returns what the model read and said.
 */
import { temporalProvider } from '@temporalio/ai-sdk/workflow';
import { proxyActivities } from '@temporalio/workflow';
import { generateText, stepCountIs, tool, type ToolSet } from 'ai';
import { z } from 'zod';
import { aiSdkTools, UNTRUSTED_TEXT_NOTE } from '../../ai-sdk-workflow';
import { createToolRouter, type ToolRouterOptions } from '../../workflow';

/** One tool result or tool error as the model read it. */
export interface SeenResult {
  tool: string;
  output?: unknown;
  error?: string;
}

export interface RunReport {
  text: string;
  seen: SeenResult[];
  /** Per routed call: tool, class (or `ok`), action. */
  records: { tool: string; class: string; action: string }[];
}

type Steps = Awaited<ReturnType<typeof generateText>>['steps'];

function seenIn(steps: Steps): SeenResult[] {
  return steps.flatMap((s) =>
    s.content.flatMap((p): SeenResult[] => {
      if (p.type === 'tool-result') return [{ tool: p.toolName, output: p.output }];
      if (p.type === 'tool-error') return [{ tool: p.toolName, error: String((p.error as Error)?.message ?? p.error) }];
      return [];
    }),
  );
}

async function run(scenario: string, tools: ToolSet): Promise<Omit<RunReport, 'records'>> {
  const result = await generateText({
    model: temporalProvider.languageModel('scripted'),
    system: UNTRUSTED_TEXT_NOTE, // which fields of a tool result quote a server (docs/frameworks.md)
    prompt: scenario,
    tools,
    stopWhen: stepCountIs(6),
  });
  return { text: result.text, seen: seenIn(result.steps) };
}

/** With the router: every tool call is routed; failures come back as feedback. */
export async function aiSdkRouted(scenario: string, defaults: ToolRouterOptions): Promise<RunReport> {
  const router = createToolRouter(defaults);
  const report = await run(scenario, aiSdkTools(router));
  const records = router.records().map((r) => ({ tool: r.tool, class: r.class ?? 'ok', action: r.action ?? 'ok' }));
  return { ...report, records };
}

type Baseline = {
  book_slot(input: { slot: string; customerId: string }): Promise<unknown>;
  send_email(input: { to: string; subject: string }): Promise<unknown>;
};

/** Without the router: AI SDK tools whose `execute` runs an activity (3 attempts, 200 ms apart). */
export async function aiSdkBaseline(scenario: string): Promise<RunReport> {
  const acts = proxyActivities<Baseline>({
    startToCloseTimeout: '5s',
    retry: { maximumAttempts: 3, initialInterval: '200ms', backoffCoefficient: 1 },
  });
  const tools = {
    book_slot: tool({
      description: 'Books a calendar slot (HH:MM) for a customer.',
      inputSchema: z.object({ slot: z.string().regex(/^\d{2}:\d{2}$/), customerId: z.string().regex(/^cus_/) }),
      execute: (input) => acts.book_slot(input),
    }),
    send_email: tool({
      description: 'Sends one e-mail.',
      inputSchema: z.object({ to: z.email(), subject: z.string().min(1) }),
      execute: (input) => acts.send_email(input),
    }),
  };
  return { ...(await run(scenario, tools)), records: [] };
}
