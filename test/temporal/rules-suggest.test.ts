/**
 * An unknown error costs one decision, once (issue 38): a tool whose client library no table names fails the same
 * way in two runs of a namespace; `recovery-router rules suggest` (a child process, against the dev server) lists
 * its fingerprint with the count 2, the tool, samples and the rule to add; a person accepts it with
 * `rules accept … --write` into a config file; a worker started with that file routes the same error as the rule
 * says. Nothing changed before the person decided: the first worker never saw the rule.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { z } from 'zod';
import { defineTool } from '../../activities/define-tool';
import { parseConfigObject } from '../../config/load';
import { shadowReport, type ShadowReport } from '../../operator/shadow-report';
import { suggestedRule } from '../../recovery/classify/suggested-rule';
import { testEnv } from '../setup/env';
import { failedOutcome, harness } from './harness';

const ROOT = resolve(__dirname, '../..');
const run = promisify(execFile);
let env: TestWorkflowEnvironment;
let dir: string;
beforeAll(async () => {
  env = await testEnv();
  dir = mkdtempSync(join(tmpdir(), 'rr-rules-'));
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await env?.teardown();
});

class FluxError extends Error {
  override name = 'FluxError';
}

/** A read whose library raises an error no table, field or word of the classifier knows. */
const flux = defineTool({
  name: 'read_flux',
  description: 'Reads the flux capacitor.',
  input: z.object({ bay: z.number().int() }),
  output: z.unknown(),
  effect: 'read',
  async execute({ bay }) {
    throw new FluxError(`capacitor in bay ${bay} jammed`);
  },
});

const cli = (args: string[]) =>
  run(process.execPath, ['-r', 'ts-node/register', 'operator/cli.ts', ...args], {
    cwd: ROOT,
    env: { ...process.env, TEMPORAL_ADDRESS: process.env.TEMPORAL_TEST_ADDRESS },
    timeout: 90_000,
  });

test('rules suggest lists the unknown error with its count; an accepted rule, written to the config, changes its route', async () => {
  const before = await harness(env, [flux]);
  const query = `TaskQueue = "${before.taskQueue}"`;
  const outcomes = await before.run(async () => [
    (await before.runPlan({ calls: [{ tool: 'read_flux', args: { bay: 7 } }] })).outcomes[0],
    (await before.runPlan({ calls: [{ tool: 'read_flux', args: { bay: 12 } }] })).outcomes[0],
  ]);
  const [first, second] = outcomes.map(failedOutcome);
  expect([first!.failure.class, first!.failure.reason, first!.action]).toEqual([
    'unrecoverable',
    'unrecognized',
    'escalate',
  ]);
  const fingerprint = first!.failure.fingerprint!;
  expect(second!.failure.fingerprint).toBe(fingerprint); // the same kind of error, other values

  const report = await until(
    () => shadowReport(env.client, { query }),
    'visibility lists both runs',
    (r: ShadowReport) => r.unknown[0]?.count === 2,
  );
  expect(report.unknown).toEqual([
    {
      fingerprint,
      count: 2,
      tools: ['read_flux'],
      samples: [expect.objectContaining({ tool: 'read_flux', class: 'unrecoverable' }), expect.anything()],
      rule: suggestedRule(fingerprint),
    },
  ]);
  const suggested = await cli(['rules', 'suggest', '--query', query]);
  expect(suggested.stdout).toContain(`${fingerprint}  2×  read_flux`);
  expect(suggested.stdout).toContain(`rules accept ${fingerprint} --class <class>`);

  const file = join(dir, 'temporal.config.json');
  writeFileSync(file, `${JSON.stringify({ taskQueue: 'recovery-router' }, null, 2)}\n`);
  const accepted = await cli([
    '--config',
    file,
    'rules',
    'accept',
    fingerprint,
    '--class',
    'semantic_rejection',
    '--reason',
    'business_rule',
    '--write',
  ]);
  expect(accepted.stdout).toContain(`classify.rules now routes ${fingerprint} as semantic_rejection`);
  const written = JSON.parse(readFileSync(file, 'utf8')) as { classify: unknown };
  expect(written.classify).toEqual({
    rules: [{ match: { fingerprint }, class: 'semantic_rejection', reason: 'business_rule' }],
  });

  const config = parseConfigObject(written, file);
  const after = await harness(env, [flux], { config: { classify: config.classify } });
  const routed = failedOutcome(
    (await after.run(() => after.runPlan({ calls: [{ tool: 'read_flux', args: { bay: 31 } }] }))).outcomes[0],
  );
  expect([routed.failure.class, routed.failure.reason, routed.action]).toEqual([
    'semantic_rejection',
    'business_rule',
    'replan',
  ]);
  expect(routed.failure.publicMessage).toBe('read_flux: the error is one an operator rule names (classify.rules[0]).');
}, 240_000);

async function until<T>(
  read: () => Promise<T>,
  what: string,
  done: (value: T) => boolean,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read().catch(() => undefined);
    if (value !== undefined && done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((ok) => setTimeout(ok, 200));
  }
}
