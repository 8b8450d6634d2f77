/**
 * `npm run example:ai-sdk` / `npm run example:openai-agents`: one interop scenario end to end on the embedded dev
 * server (started if nothing answers at temporal.config.json's address): a slot taken between plan and booking.
 * The framework's model books 10:00, gets 409; through the router it reads the replan feedback with the free
 * slots and books 11:00; without it (the baseline) the activity is retried 3 times and the model reads an error.
 * Prints each run's routed recoveries and what the service counted; exits 1 if the routed run did not end with
 * one booking of 11:00.
 */
import { Runtime, DefaultLogger } from '@temporalio/worker';
import { resolveConnection } from '../../config/connection';
import { loadConfig } from '../../config/load';
import { ensureEmbeddedServer } from '../../server/dev-server';
import { runInterop, type Framework, type InteropRun } from './run';

/** A tool result as one line: the feedback's class, action and what it carries, or the value. */
function shown(seen: unknown): string {
  const { tool, output, error } = seen as { tool: string; output?: unknown; error?: string };
  const value = typeof output === 'string' ? (JSON.parse(output) as unknown) : output;
  const f = value as { status?: string; errorClass?: string; action?: string; observedState?: unknown } | undefined;
  if (f?.status === 'failed') {
    return `${tool}: feedback ${f.errorClass} → ${f.action}, observed state ${JSON.stringify(f.observedState)}`;
  }
  return error !== undefined ? `${tool}: error "${error}"` : `${tool}: ${JSON.stringify(value)}`;
}

function print(run: InteropRun): void {
  console.log(`\n${run.framework} · ${run.scenario} · ${run.mode}: workflow ${run.status}`);
  if (run.failure) console.log(`  failure: ${run.failure.chain.join(' ← ')}: ${run.failure.message}`);
  for (const r of run.records ?? []) console.log(`  routed: ${r.tool} → ${r.class} → ${r.action}`);
  for (const s of run.seen ?? []) console.log(`  model read: ${shown(s)}`);
  if (run.text !== undefined) console.log(`  model said: ${run.text}`);
  console.log(`  service: ${JSON.stringify(run.hits)}; bookings ${JSON.stringify(run.bookings)}`);
}

async function main(framework: Framework): Promise<number> {
  Runtime.install({ logger: new DefaultLogger('ERROR') });
  const config = loadConfig();
  const target = resolveConnection(config);
  const server = target.embedded ? await ensureEmbeddedServer(config.embeddedServer) : undefined;
  console.log(
    server?.started
      ? `Started the embedded Temporal dev server at ${server.address}`
      : `Using the Temporal server at ${target.connectionOptions.address}`,
  );
  try {
    const runs = await runInterop(framework, {
      address: target.connectionOptions.address,
      namespace: target.namespace,
      taskQueue: `interop-${framework}-${process.pid}`,
      scenarios: ['slot-taken'],
    });
    runs.forEach(print);
    const routed = runs.find((r) => r.mode === 'router');
    const ok = routed?.status === 'completed' && JSON.stringify(routed.bookings) === '["11:00"]';
    console.log(ok ? '\nrouted run: replanned and booked 11:00' : '\nrouted run did not end as expected');
    return ok ? 0 : 1;
  } finally {
    await server?.stop();
  }
}

const framework = process.argv[2];
if (framework !== 'ai-sdk' && framework !== 'openai-agents') {
  console.error('usage: ts-node examples/interop/main.ts ai-sdk|openai-agents');
  process.exit(2);
}
main(framework).then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
