/**
 * The "Out" adapters, pure: router tools as an AI SDK tool set and as OpenAI Agents function tools, against a
 * recording stand-in for `ToolRouter` (the real router runs on the dev server in test/temporal/interop*.test.ts).
 * What reaches `callTool` (name, arguments, call id), what the model gets back, how unknown names are routed.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { agentsTools } from '../../openai-agents-workflow';
import { FEEDBACK, recordingRouter } from './fixtures/recording-router';

describe('agentsTools', () => {
  test('function tools: strict false, needsApproval false, invoke parses the JSON and answers JSON text', async () => {
    const { router, calls } = recordingRouter();
    const { tools } = agentsTools(router);
    expect(tools.map((t) => [t.type, t.name, t.description, t.strict, t.parameters])).toEqual([
      ['function', 'book_slot', 'Books a slot.', false, { type: 'object', required: ['slot'] }],
      ['function', 'send_email', 'Sends one e-mail.', false, { type: 'object' }],
    ]);
    const book = tools[0]!;
    expect(await book.needsApproval(undefined as never, {} as never, 'c')).toBe(false);
    const toolCall = { type: 'function_call' as const, callId: 'call_9', name: 'book_slot', arguments: '' };
    expect(await book.invoke(undefined as never, '{"slot":"10:00"}', { toolCall })).toBe(JSON.stringify(FEEDBACK));
    expect(await book.invoke(undefined as never, 'not json', { toolCall })).toBe('{"done":"book_slot"}');
    expect(await book.invoke(undefined as never, '', undefined)).toBe('{"done":"book_slot"}');
    expect(calls).toEqual([
      ['book_slot', { slot: '10:00' }, { callId: 'call_9' }],
      ['book_slot', 'not json', { callId: 'call_9' }],
      ['book_slot', {}, {}],
    ]);
  });

  test('runConfig: unknown names return an error to the model, formatted by the router; other kinds keep the default', async () => {
    const { router, calls } = recordingRouter();
    const { runConfig } = agentsTools(router);
    expect(runConfig.toolNotFoundBehavior).toBe('return_error_to_model');
    const base = { toolType: 'function' as const, defaultMessage: 'd', runContext: undefined as never };
    expect(
      await runConfig.toolErrorFormatter!({ ...base, kind: 'tool_not_found', toolName: 'cancel', callId: 'c1' }),
    ).toBe('{"done":"cancel"}');
    expect(
      await runConfig.toolErrorFormatter!({ ...base, kind: 'approval_rejected', toolName: 'x', callId: 'c2' }),
    ).toBe(undefined);
    expect(calls).toEqual([['cancel', {}, { callId: 'c1' }]]);
  });
});

describe('aiSdkTools (the real `ai`, outside jest: test/unit/fixtures/ai-sdk-tools.ts)', () => {
  let o: Record<string, unknown>;
  beforeAll(() => {
    const fixture = join(__dirname, 'fixtures', 'ai-sdk-tools.ts');
    const out = execFileSync(process.execPath, ['-r', 'ts-node/register/transpile-only', fixture], {
      encoding: 'utf8',
      env: { ...process.env, TS_NODE_TRANSPILE_ONLY: 'true' },
    });
    o = JSON.parse(out.trim().split('\n').pop()!) as Record<string, unknown>;
  });

  test('one tool per permitted capability: its description and JSON Schema as is, no AI SDK-side validation', () => {
    expect([o.keys, o.description, o.jsonSchema, o.validates]).toEqual([
      ['book_slot', 'send_email'],
      'Books a slot.',
      { type: 'object', required: ['slot'] },
      false,
    ]);
  });

  test('execute → callTool(name, input, { callId: toolCallId }); the model gets the value or the feedback', () => {
    expect(o.results).toEqual([{ done: 'book_slot' }, FEEDBACK, { done: 'cancel_booking' }, { done: 'send_email' }]);
    expect(o.calls).toEqual([
      ['book_slot', { slot: '11:00' }, { callId: 'call_1' }],
      ['book_slot', { slot: '10:00' }, { callId: 'call_2' }],
      ['cancel_booking', { id: 1 }, { callId: 'call_1' }],
      // a tool call id over 128 characters is left out: the router uses its step id
      ['send_email', {}, {}],
    ]);
    expect(o.outcomes).toEqual(['book_slot:true', 'book_slot:false', 'cancel_booking:true', 'send_email:true']);
  });

  test('an unknown name is an own, non-enumerable routed tool (the AI SDK looks tools up with Object.hasOwn); off with routeUnknownTools: false', () => {
    expect([o.unknownIsOwn, o.unknownIsStable, o.prototypeKeys, o.unknownWhenOff]).toEqual([
      true,
      true,
      [false, 'function'],
      false,
    ]);
  });

  test('include picks tools in its order; a name the run may not use is refused as invalid_input', () => {
    expect(o.include).toEqual(['send_email']);
    expect(o.refused).toEqual({
      type: 'invalid_input',
      nonRetryable: true,
      message: 'include: "drop_table" is not a tool this run may use',
    });
  });
});
