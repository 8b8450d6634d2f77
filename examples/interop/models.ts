/**
 * The scripted models of the interop scenarios, worker side: `ai/test`'s MockLanguageModelV4 for the AI SDK, and
 * the loopback OpenAI server's `respond` for OpenAI Agents (chat completions wire format). Both read the
 * scenario from the first user message and the tool results so far from the conversation, and answer
 * `nextMove` (./scenarios.ts).
 */
import type { LanguageModelV4CallOptions, LanguageModelV4GenerateResult } from '@ai-sdk/provider';
import { MockLanguageModelV4 } from 'ai/test';
import type { FakeReply } from '../fake-openai-server';
import { nextMove, readResult, SCENARIOS, type Move, type ScenarioName } from './scenarios';

/** Token usage as a scripted model reports it: none. */
export const USAGE = {
  inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 0, text: 0, reasoning: 0 },
};

function scenarioOf(text: unknown): ScenarioName {
  const found = SCENARIOS.find((s) => typeof text === 'string' && text.includes(s));
  if (!found) throw new Error(`scripted model: no scenario named in ${JSON.stringify(text)}`);
  return found;
}

/** The AI SDK mock model. */
export function scriptedAiSdkModel(): MockLanguageModelV4 {
  let calls = 0;
  return new MockLanguageModelV4({
    doGenerate: async (options: LanguageModelV4CallOptions): Promise<LanguageModelV4GenerateResult> => {
      const first = options.prompt.find((m) => m.role === 'user');
      const text = first?.content.map((p) => (p.type === 'text' ? p.text : '')).join('');
      const results = options.prompt
        .filter((m) => m.role === 'tool')
        .flatMap((m) => m.content)
        .map((p) => (p.type === 'tool-result' ? readResult((p.output as { value?: unknown }).value) : undefined));
      const move: Move = nextMove(scenarioOf(text), results);
      if ('tool' in move) {
        const call = { type: 'tool-call' as const, toolCallId: `call_${++calls}`, toolName: move.tool };
        return {
          content: [{ ...call, input: JSON.stringify(move.args) }],
          finishReason: { unified: 'tool-calls', raw: undefined },
          usage: USAGE,
          warnings: [],
        };
      }
      return {
        content: [{ type: 'text', text: move.text }],
        finishReason: { unified: 'stop', raw: undefined },
        usage: USAGE,
        warnings: [],
      };
    },
  });
}

type ChatMessage = { role: string; content?: unknown };

/** The loopback OpenAI server's answer to a chat completions request. */
export function scriptedChatReply(body: unknown): FakeReply {
  const messages = ((body as { messages?: ChatMessage[] } | undefined)?.messages ?? []) as ChatMessage[];
  const scenario = scenarioOf(messages.find((m) => m.role === 'user')?.content);
  const results = messages.filter((m) => m.role === 'tool').map((m) => readResult(m.content));
  const move = nextMove(scenario, results);
  return 'tool' in move
    ? { kind: 'tool_calls', calls: [{ name: move.tool, arguments: move.args }] }
    : { kind: 'text', content: move.text };
}
