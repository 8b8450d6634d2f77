/**
 * The "In" adapters, pure (no worker, no server): an AI SDK tool or an OpenAI Agents function tool becomes a
 * router tool — what is taken from the framework, what the caller adds, what is refused — and `needsApproval`
 * becomes the router's approval (approvalCanLift, ApprovalNeededError read as approval_required).
 */
import { RunContext, tool as agentsTool } from '@openai/agents-core';
import type { Tool } from 'ai';
import { z } from 'zod';
import { ApprovalNeededError, fromAiSdkTool } from '../../ai-sdk';
import { fromAgentsTool } from '../../openai-agents';
import { ToolDefinitionError } from '../../activities/define-tool';
import type { ToolContext } from '../../activities/tool-context';
import type { CallContext } from '../../recovery/classify';

/**
 * The AI SDK's `tool()` is the identity (it exists for type inference) and `jsonSchema(s)` a schema object with the
 * JSON Schema under `jsonSchema`: written out here because jest cannot load `ai`'s ESM-only build (the adapter
 * imports only its types; test/unit/fixtures/ai-sdk-tools.ts runs the real `ai` outside jest).
 */
const tool = <T extends Tool>(t: T): T => t;
const jsonSchema = <_T>(schema: Record<string, unknown>) => ({ jsonSchema: schema }) as unknown as Tool['inputSchema'];

function ctx(overrides: Partial<ToolContext> = {}): ToolContext {
  return {
    tool: 'book_slot',
    callId: 'call_7',
    operationId: 'wf:t1:book_slot#0',
    attempt: 1,
    signal: new AbortController().signal,
    credential: undefined,
    approval: undefined,
    heartbeat: () => undefined,
    http: undefined as never,
    ...overrides,
  };
}

const APPROVED = { by: 'ops@example.com', signed: false, via: 'update' as const };
const input = z.object({ slot: z.string().regex(/^\d{2}:\d{2}$/) });

describe('fromAiSdkTool', () => {
  test('takes the description, the zod input (as the spec’s JSON Schema) and execute; the caller adds the effect', async () => {
    const seen: unknown[] = [];
    const t = fromAiSdkTool(
      'book_slot',
      tool({
        description: 'Books a slot.',
        inputSchema: input,
        execute: async (args, o) => {
          seen.push([args, o.toolCallId, o.abortSignal instanceof AbortSignal]);
          return { bookingId: 'bk_1' };
        },
      }),
      { effect: 'write', idempotency: { carrier: 'header', name: 'Idempotency-Key', deduplicates: true } },
    );
    expect(t.spec).toMatchObject({
      name: 'book_slot',
      description: 'Books a slot.',
      effect: 'write',
      idempotency: { carrier: 'header', name: 'Idempotency-Key', deduplicates: true },
      approvalCanLift: false,
    });
    expect(t.spec.inputSchema).toMatchObject({ type: 'object', required: ['slot'] });
    expect(await t.execute({ slot: '10:00' }, ctx())).toEqual({ bookingId: 'bk_1' });
    expect(seen).toEqual([[{ slot: '10:00' }, 'call_7', true]]);
  });

  test('a jsonSchema(...) input is converted (its required fields and types are checked); a streaming execute yields its last value', async () => {
    const t = fromAiSdkTool(
      'count',
      tool({
        description: 'Counts.',
        inputSchema: jsonSchema<{ n: number }>({
          type: 'object',
          properties: { n: { type: 'integer' } },
          required: ['n'],
        }),
        async *execute({ n }) {
          for (let i = 1; i <= n; i += 1) yield i;
        },
      }),
      { effect: 'read' },
    );
    expect(t.input.safeParse({ n: 2 }).success).toBe(true);
    expect(t.input.safeParse({ n: 'two' }).success).toBe(false);
    expect(await t.execute({ n: 3 }, ctx())).toBe(3);
  });

  test('refuses what it cannot use, naming the field', () => {
    const execute = async () => 1;
    expect(() => fromAiSdkTool('t', { inputSchema: input } as never, { effect: 'read' })).toThrow(
      new ToolDefinitionError('t', 'fromAiSdkTool: the AI SDK tool must have an `execute` function'),
    );
    expect(() => fromAiSdkTool('t', tool({ inputSchema: input, execute }), {} as never)).toThrow(
      "defineTool(\"t\"): fromAiSdkTool: `effect` must be 'read' or 'write' (the framework's tool does not say whether it changes the world)",
    );
    expect(() =>
      fromAiSdkTool('t', { description: () => 'x', inputSchema: input, execute } as never, { effect: 'read' }),
    ).toThrow('`description` must be a string (pass `options.description`)');
    expect(() => fromAiSdkTool('t', { inputSchema: 42, execute } as never, { effect: 'read' })).toThrow(
      '`inputSchema` must be a zod 4 schema or a `jsonSchema(...)` schema with a synchronous JSON Schema',
    );
    expect(() => fromAiSdkTool('bad name', tool({ inputSchema: input, execute }), { effect: 'read' })).toThrow(
      ToolDefinitionError,
    );
  });

  test('needsApproval → approvalCanLift; without an approval the call throws ApprovalNeededError, read as authorization/approval_required', async () => {
    const runs: unknown[] = [];
    const t = fromAiSdkTool(
      'refund',
      tool({
        description: 'Refunds.',
        inputSchema: z.object({ amountCents: z.number() }),
        needsApproval: (args: { amountCents: number }, o) => {
          runs.push(['ask', args, o.toolCallId]);
          return args.amountCents > 100;
        },
        execute: async (args) => {
          runs.push(['run', args]);
          return { ok: true };
        },
      }),
      { effect: 'write' },
    );
    expect(t.spec.approvalCanLift).toBe(true);
    await expect(t.execute({ amountCents: 500 }, ctx({ tool: 'refund' }))).rejects.toBeInstanceOf(ApprovalNeededError);
    expect(runs).toEqual([['ask', { amountCents: 500 }, 'call_7']]);
    const answer = t.classify!(
      { kind: 'thrown', error: new ApprovalNeededError('refund') },
      { tool: 'refund' } as CallContext,
      undefined as never,
    );
    expect(answer).toEqual({
      class: 'authorization',
      reason: 'approval_required',
      publicMessage: 'refund: this call needs a human approval before it runs.',
    });
    expect(await t.execute({ amountCents: 500 }, ctx({ approval: APPROVED }))).toEqual({ ok: true });
    expect(await t.execute({ amountCents: 50 }, ctx())).toEqual({ ok: true });
    expect(runs.filter((r) => (r as unknown[])[0] === 'run')).toEqual([
      ['run', { amountCents: 500 }],
      ['run', { amountCents: 50 }],
    ]);
  });

  test('the caller’s own classify still answers for other errors', () => {
    const t = fromAiSdkTool('t', tool({ inputSchema: input, needsApproval: true, execute: async () => 1 }), {
      effect: 'read',
      classify: () => ({ class: 'transient' }),
    });
    expect(t.classify!({ kind: 'thrown', error: new Error('x') }, {} as CallContext, undefined as never)).toEqual({
      class: 'transient',
    });
  });
});

describe('fromAgentsTool', () => {
  test('takes tool() options: name, description, zod parameters, execute (with a RunContext and the call id)', async () => {
    const seen: unknown[] = [];
    const t = fromAgentsTool(
      {
        name: 'book_slot',
        description: 'Books a slot.',
        parameters: input,
        execute: async (args: { slot: string }, runContext?: RunContext<unknown>, details?: unknown) => {
          seen.push([
            args,
            runContext instanceof RunContext,
            (details as { toolCall: { callId: string } }).toolCall.callId,
          ]);
          return { bookingId: 'bk_1' };
        },
      },
      { effect: 'write' },
    );
    expect(t.spec).toMatchObject({ name: 'book_slot', description: 'Books a slot.', effect: 'write' });
    expect(await t.execute({ slot: '10:00' }, ctx())).toEqual({ bookingId: 'bk_1' });
    expect(seen).toEqual([[{ slot: '10:00' }, true, 'call_7']]);
  });

  test('takes a FunctionTool made by tool() with errorFunction: null: its JSON Schema and invoke; failures are thrown', async () => {
    const ft = agentsTool({
      name: 'book_slot',
      description: 'Books a slot.',
      parameters: input,
      errorFunction: null,
      execute: async ({ slot }) => {
        if (slot === '10:00') throw Object.assign(new Error('HTTP 409'), { status: 409, body: { code: 'slot_taken' } });
        return `booked ${slot}`;
      },
    });
    const t = fromAgentsTool(ft, { effect: 'write' });
    expect(t.spec.inputSchema).toMatchObject({ type: 'object', required: ['slot'] });
    expect(t.input.safeParse({ slot: 'soon' }).success).toBe(true); // the converted JSON Schema has no pattern
    expect(await t.execute({ slot: '11:00' }, ctx())).toBe('booked 11:00');
    await expect(t.execute({ slot: '10:00' }, ctx())).rejects.toMatchObject({ status: 409 });
    // agents-core's own parser still runs in invoke: what it refuses is invalid_arguments (→ repair).
    const refused = await t.execute({ slot: 'soon' }, ctx()).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect((refused as Error).name).toBe('InvalidToolInputError');
    expect(
      t.classify!({ kind: 'thrown', error: refused }, { tool: 'book_slot' } as CallContext, undefined as never),
    ).toEqual({
      class: 'invalid_arguments',
      publicMessage: "book_slot: the arguments do not match the tool's parameters; fix them and call again.",
    });
  });

  test('needsApproval (boolean or function) → the router’s approval', async () => {
    const ask = fromAgentsTool(
      {
        name: 'refund',
        description: 'Refunds.',
        parameters: z.object({ amountCents: z.number() }),
        needsApproval: async (_rc: RunContext<unknown>, args: { amountCents: number }) => args.amountCents > 100,
        execute: async () => 'done',
      },
      { effect: 'write' },
    );
    expect(ask.spec.approvalCanLift).toBe(true);
    await expect(ask.execute({ amountCents: 500 }, ctx())).rejects.toBeInstanceOf(ApprovalNeededError);
    expect(await ask.execute({ amountCents: 5 }, ctx())).toBe('done');
    const always = fromAgentsTool(
      agentsTool({
        name: 'wipe',
        description: 'Wipes.',
        parameters: z.object({}),
        needsApproval: true,
        execute: () => 'x',
      }),
      { effect: 'write' },
    );
    await expect(always.execute({}, ctx())).rejects.toBeInstanceOf(ApprovalNeededError);
    expect(await always.execute({}, ctx({ approval: APPROVED }))).toBe('x');
  });

  test('refuses what it cannot use', () => {
    expect(() => fromAgentsTool(null as never, { effect: 'read' })).toThrow(
      'fromAgentsTool: pass a FunctionTool or the options of tool()',
    );
    expect(() =>
      fromAgentsTool({ name: 'x', description: 'd', parameters: input } as never, { effect: 'read' }),
    ).toThrow('fromAgentsTool: the tool options must have an `execute` function');
    expect(() =>
      fromAgentsTool({ name: 'x', description: 'd', parameters: 'no', execute: () => 1 }, { effect: 'read' }),
    ).toThrow('fromAgentsTool: `parameters` must be a zod object or a JSON Schema object');
  });
});
