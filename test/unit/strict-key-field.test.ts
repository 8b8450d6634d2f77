/**
 * A tool whose input schema refuses unknown keys (`.strict()`, `z.strictObject`, `.catchall(z.never())`: what strict
 * function calling asks for) and whose idempotency key travels in a field (`carrier: 'field'`), through the real
 * activities under `MockActivityEnvironment` (no server): the arguments the workflow sends (`dispatchedArgs`, the key
 * in its field) pass, and `execute`, `lookup` and `verify` see them with the operation id in the field. It failed
 * every call before ("opId is not a known key"): the recovery eval's PostgreSQL scenarios, 0/8 (issue 35).
 */
import { activityEnv } from '../fixtures/activity-env';
import { z } from 'zod';
import { defineTool, type AnyTool } from '../../activities/define-tool';
import { createToolActivities, type ToolInvocationResult } from '../../activities/invoke-tool';
import { DEFAULT_BACKOFF_POLICY } from '../../recovery/backoff';
import { dispatchedArgs, hashedArgs } from '../../workflows/router-helpers';

const silent = { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error() {} };
const OP = 'wf-1:refund-1';

/** The schemas that refuse a key they do not name, each with the key field named differently. */
const STRICT = [
  ['.strict()', 'opId', z.object({ amountCents: z.number().int() }).strict()],
  ['z.strictObject', 'idempotency_key', z.strictObject({ amountCents: z.number().int() })],
  ['.catchall(z.never())', 'dedupeKey', z.object({ amountCents: z.number().int() }).catchall(z.never())],
  ['.strict() naming the field', 'opId', z.object({ amountCents: z.number().int(), opId: z.string() }).strict()],
] as const;

function refundTool(schema: z.ZodType, field: string, seen: unknown[]): AnyTool {
  return defineTool({
    name: 'refund',
    description: 'Refunds an amount.',
    input: schema,
    output: z.object({ key: z.string(), amountCents: z.number() }),
    effect: 'write',
    idempotency: { carrier: 'field', name: field, deduplicates: false },
    async execute(args: Record<string, unknown>) {
      seen.push(args);
      return { key: String(args[field]), amountCents: Number(args.amountCents) };
    },
    async lookup(_op, _ctx, args: Record<string, unknown> | undefined) {
      seen.push(args);
      return { state: 'not_applied' };
    },
    async verify(args: Record<string, unknown>) {
      seen.push(args);
      return 'does_not_hold';
    },
  });
}

test.each(STRICT)(
  'strict input %s, key field %s: execute, lookup and verify get the arguments with the operation id in the field',
  async (_kind, field, schema) => {
    const seen: unknown[] = [];
    const tool = refundTool(schema, field, seen);
    const args = dispatchedArgs(tool.spec, hashedArgs(tool.spec, { amountCents: 1250 }), OP);
    const acts = createToolActivities({ tools: [tool], backoff: DEFAULT_BACKOFF_POLICY });
    const env = activityEnv({ activityId: 'act-1' }, { logger: silent });
    const call = { tool: 'refund', args, callId: 'call-1', operationId: OP };
    const result = (await env.run(acts.invokeTool, call)) as ToolInvocationResult;
    const looked = await env.run(acts.lookupOperation, call);
    const verified = await env.run(acts.verifyPostcondition, call);
    expect([result.value, looked, verified]).toEqual([
      { key: OP, amountCents: 1250 },
      { state: 'not_applied' },
      { verdict: 'does_not_hold' },
    ]);
    expect(seen).toEqual([1, 2, 3].map(() => ({ amountCents: 1250, [field]: OP })));
  },
);

test('strict input: a key the model supplies in the field is replaced by the operation id, never refused', async () => {
  const seen: unknown[] = [];
  const tool = refundTool(z.object({ amountCents: z.number().int() }).strict(), 'opId', seen);
  const acts = createToolActivities({ tools: [tool], backoff: DEFAULT_BACKOFF_POLICY });
  const env = activityEnv({ activityId: 'act-1' }, { logger: silent });
  const call = { tool: 'refund', args: { amountCents: 5, opId: 'forged' }, callId: 'call-1', operationId: OP };
  expect(((await env.run(acts.invokeTool, call)) as ToolInvocationResult).value).toEqual({ key: OP, amountCents: 5 });
});
