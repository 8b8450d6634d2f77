/** A chat completion → the planner's decision (openai.ts, "Answer → decision"). */
import type { ChatCompletion, ChatCompletionMessageFunctionToolCall } from 'openai/resources/chat/completions';
import type { PlannerDecision } from '../../workflows/planner-contract';
import { SUBMIT_TOOL, type ToolNames } from './openai-names';
import { PlannerOutputError } from './planner';

/** Longest stop reason kept from a model's text, in characters. */
export const MAX_STOP_REASON_CHARS = 2_000;

/**
 * The decision a chat completion stands for (rules in the module docstring).
 * @param turn the planner turn (1-based), for the ids of calls that came without one.
 * @param names the request's function names (`toolNamesFor(input.capabilities)`), to map aliases back.
 * @throws PlannerOutputError when it has no choices, or a lone `submit` call is unusable.
 */
export function decisionFrom(completion: ChatCompletion, turn: number, names: ToolNames): PlannerDecision {
  const choice = completion.choices?.[0];
  if (!choice?.message) throw new PlannerOutputError('the model returned no choices', completion);
  const message = choice.message;
  const calls = (message.tool_calls ?? []).filter(
    (c): c is ChatCompletionMessageFunctionToolCall => c.type === 'function' && Boolean(c.function),
  );
  const work = calls.filter((c) => c.function.name !== SUBMIT_TOOL);
  if (work.length > 0) {
    const used = new Set<string>();
    return {
      kind: 'tool_calls',
      calls: work.map((c, i) => ({
        callId: uniqueId(c.id || `turn-${turn}-call-${i + 1}`, used),
        tool: names.fromModel.get(c.function.name) ?? c.function.name,
        args: argsOf(c.function.arguments),
      })),
    };
  }
  const submit = calls[0];
  if (submit) {
    const raw = submit.function.arguments;
    const parsed = parseJson(raw.trim() === '' ? '{}' : raw);
    if (!parsed.ok) throw new PlannerOutputError(`the "${SUBMIT_TOOL}" call's arguments are not JSON`, raw);
    const args = parsed.value;
    if (typeof args !== 'object' || args === null || !Object.hasOwn(args, 'result')) {
      throw new PlannerOutputError(`the "${SUBMIT_TOOL}" call has no "result"`, raw);
    }
    return { kind: 'submit', result: (args as { result: unknown }).result };
  }
  const text = (message.content ?? message.refusal ?? '').trim();
  return {
    kind: 'stop',
    reason:
      text === ''
        ? `The model ended its turn without a tool call or a reason (finish_reason: ${String(choice.finish_reason)}).`
        : text.length > MAX_STOP_REASON_CHARS
          ? `${text.slice(0, MAX_STOP_REASON_CHARS - 1)}…`
          : text,
  };
}

/** `id`, or `<id>#<k>` with the smallest k ≥ 2 not in `used`, when `id` is; the result is added to `used`. */
export function uniqueId(id: string, used: Set<string>): string {
  let unique = id;
  for (let k = 2; used.has(unique); k += 1) unique = `${id}#${k}`;
  used.add(unique);
  return unique;
}

/** A tool call's arguments: parsed JSON; `{}` when blank; the raw string when it is not JSON. */
function argsOf(raw: string | undefined): unknown {
  if (raw === undefined || raw.trim() === '') return {};
  const parsed = parseJson(raw);
  return parsed.ok ? parsed.value : raw;
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}
