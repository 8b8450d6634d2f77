/**
 * One failing tool call in a fresh process, for bench/body-memory.ts: a read tool whose `execute` requests a URL
 * through `ctx.http`, run by the real `invokeTool` activity under `MockActivityEnvironment` (no server) — first
 * `warmUrl` (argv[2], a small answer: everything the call loads is loaded), then `url` (argv[3]). Prints one line of
 * JSON: `{ rssBeforeKb, maxRssKb, failureClass }` — the resident set before the measured call and the process's peak
 * (getrusage `ru_maxrss`), in KiB. Run with `node -r ts-node/register bench/body-memory-call.ts <warmUrl> <url>`.
 */
import { ApplicationFailure } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';
import { z } from 'zod';
import { defineTool } from '../activities/define-tool';
import { createToolActivities } from '../activities/invoke-tool';
import { DEFAULT_BACKOFF_POLICY } from '../recovery/backoff';
import type { ToolFailure } from '../recovery/failure';

const silent = { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error() {} };

async function main(warmUrl: string, url: string): Promise<void> {
  const tool = defineTool({
    name: 'read_report',
    description: 'Reads a report.',
    input: z.object({ url: z.string() }),
    output: z.object({ rows: z.array(z.unknown()) }),
    effect: 'read',
    async execute(args, ctx) {
      return (await ctx.http.request({ url: args.url })).body as { rows: unknown[] };
    },
  });
  const { invokeTool } = createToolActivities({ tools: [tool], backoff: DEFAULT_BACKOFF_POLICY });
  const env = new MockActivityEnvironment({ activityId: 'act-1', startToCloseTimeoutMs: 120_000 }, { logger: silent });
  const call = (to: string) =>
    env.run(invokeTool, { tool: tool.name, args: { url: to }, callId: 'call-1', operationId: 'op-1' });
  await call(warmUrl).catch(() => undefined);
  const rssBeforeKb = Math.round(process.memoryUsage().rss / 1024);
  const err = await call(url).then(
    () => undefined,
    (e: unknown) => e,
  );
  const failure = err instanceof ApplicationFailure ? (err.details as [ToolFailure])[0] : undefined;
  const maxRssKb = process.resourceUsage().maxRSS;
  process.stdout.write(`${JSON.stringify({ rssBeforeKb, maxRssKb, failureClass: failure?.class ?? 'none' })}\n`);
}

void main(process.argv[2] ?? '', process.argv[3] ?? '').catch((err: unknown) => {
  process.stderr.write(`body-memory-call failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
