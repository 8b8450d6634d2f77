/**
 * Runs the interop scenarios on a Temporal server: one worker with the framework's plugin (`AiSdkPlugin` or
 * `OpenAIAgentsPlugin`) and `RecoveryPlugin` (the framework's tools adopted as router tools), the loopback service
 * and the scripted model; each scenario once through the router and once as the baseline. Returns one report per
 * run: how it ended, what the model read and said, the router's records, and what the service counted.
 */
import { Client, Connection, WorkflowFailedError } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { AiSdkPlugin } from '@temporalio/ai-sdk';
import { OpenAIAgentsPlugin } from '@temporalio/openai-agents';
import { OpenAIProvider } from '@openai/agents-openai';
import { MockProviderV4 } from 'ai/test';
import OpenAI from 'openai';
import { RecoveryPlugin } from '../../index';
import { startFakeOpenAIServer } from '../fake-openai-server';
import { scriptedAiSdkModel, scriptedChatReply } from './models';
import { SCENARIOS, type ScenarioName } from './scenarios';
import { startInteropService, type InteropService } from './service';
import { baselineActivities, routerToolsFromAgents, routerToolsFromAiSdk } from './tools';

export type Framework = 'ai-sdk' | 'openai-agents';
export type Mode = 'router' | 'baseline';

export interface InteropRun {
  framework: Framework;
  scenario: ScenarioName;
  mode: Mode;
  status: 'completed' | 'failed';
  /** How a failed workflow failed: each cause's type (or class name), outermost first, and the innermost message. */
  failure?: { chain: string[]; message: string };
  text?: string;
  seen?: unknown[];
  records?: { tool: string; class: string; action: string }[];
  hits: Record<string, number>;
  bookings: string[];
  emails: string[];
}

export interface RunOptions {
  address: string;
  namespace?: string;
  taskQueue: string;
  scenarios?: readonly ScenarioName[];
  modes?: readonly Mode[];
}

function failureOf(err: unknown): { chain: string[]; message: string } {
  const chain: string[] = [];
  let e = err as { cause?: unknown; type?: unknown; name?: unknown; message?: unknown };
  for (;;) {
    chain.push(String(e.type ?? e.name));
    if (!e.cause) break;
    e = e.cause as typeof e;
  }
  return { chain, message: String(e.message) };
}

async function frameworkPlugin(framework: Framework) {
  if (framework === 'ai-sdk') {
    // `as never`: ai 7.0.173's MockProviderV4 declaration does not satisfy ProviderV4 under
    // exactOptionalPropertyTypes (a project setting the consumer test uses); at run time it is one.
    const modelProvider = new MockProviderV4({ languageModels: { scripted: scriptedAiSdkModel() } }) as never;
    const plugin = new AiSdkPlugin({ modelProvider });
    return { plugin, close: async () => undefined };
  }
  // No traces: agents-core would export them to OpenAI's API (or print them); nothing here may leave the machine.
  process.env.OPENAI_AGENTS_DISABLE_TRACING = '1';
  const model = await startFakeOpenAIServer([], { respond: scriptedChatReply });
  const openAIClient = new OpenAI({ baseURL: model.baseURL, apiKey: 'loopback', maxRetries: 0 });
  const plugin = new OpenAIAgentsPlugin({ modelProvider: new OpenAIProvider({ openAIClient, useResponses: false }) });
  return { plugin, close: () => model.close() };
}

/** Runs every scenario in every mode; never throws for a failed workflow (it is reported). */
export async function runInterop(framework: Framework, options: RunOptions): Promise<InteropRun[]> {
  const service = await startInteropService();
  const fw = await frameworkPlugin(framework);
  const tools = framework === 'ai-sdk' ? routerToolsFromAiSdk(service.url) : routerToolsFromAgents(service.url);
  const recovery = new RecoveryPlugin({ tools, config: { taskQueue: options.taskQueue } });
  const namespace = options.namespace ?? 'default';
  const worker = await Worker.create({
    connection: await NativeConnection.connect({ address: options.address }),
    namespace,
    taskQueue: options.taskQueue,
    // `as never`: in a project that mixes @temporalio 1.24 with the integrations' pinned 1.23 (this repository),
    // their plugin is typed against their own nested @temporalio/worker; in a 1.23-only project it needs no cast.
    plugins: [recovery, fw.plugin as never],
    activities: baselineActivities(service.url),
    workflowsPath: require.resolve(framework === 'ai-sdk' ? './ai-sdk-workflows' : './agents-workflows'),
  });
  const client = new Client({ connection: await Connection.connect({ address: options.address }), namespace });
  const prefix = framework === 'ai-sdk' ? 'aiSdk' : 'agents';
  const runs: InteropRun[] = [];
  try {
    await worker.runUntil(async () => {
      for (const scenario of options.scenarios ?? SCENARIOS) {
        for (const mode of options.modes ?? (['router', 'baseline'] as const)) {
          runs.push(
            await runOne(client, service, {
              framework,
              scenario,
              mode,
              prefix,
              taskQueue: options.taskQueue,
              defaults: recovery.workflowDefaults(),
            }),
          );
        }
      }
    });
  } finally {
    await fw.close();
    await service.close();
  }
  return runs;
}

async function runOne(
  client: Client,
  service: InteropService,
  o: { framework: Framework; scenario: ScenarioName; mode: Mode; prefix: string; taskQueue: string; defaults: unknown },
): Promise<InteropRun> {
  service.reset();
  if (o.scenario === 'lost-write') service.loseNextSend = true;
  const workflow = `${o.prefix}${o.mode === 'router' ? 'Routed' : 'Baseline'}`;
  const base = { framework: o.framework, scenario: o.scenario, mode: o.mode };
  const counted = () => ({
    hits: { ...service.hits },
    bookings: service.bookings.map((b) => b.slot),
    emails: service.emails.map((e) => e.to),
  });
  try {
    const report = (await client.workflow.execute(workflow, {
      taskQueue: o.taskQueue,
      workflowId: `${o.framework}-${o.scenario}-${o.mode}-${Date.now()}`,
      args: o.mode === 'router' ? [o.scenario, o.defaults] : [o.scenario],
      workflowExecutionTimeout: '60s',
    })) as { text: string; seen: unknown[]; records: NonNullable<InteropRun['records']> };
    return {
      ...base,
      status: 'completed',
      text: report.text,
      seen: report.seen,
      records: report.records,
      ...counted(),
    };
  } catch (err) {
    if (!(err instanceof WorkflowFailedError)) throw err;
    return { ...base, status: 'failed', failure: failureOf(err), ...counted() };
  }
}
