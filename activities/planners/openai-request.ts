/**
 * The chat-completions request of the OpenAI-compatible planner (openai.ts, "Request"): the system prompt and goal,
 * every capability as a function tool plus `submit`, and the observations as assistant/tool/user messages.
 */
import type {
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionMessageParam,
  ChatCompletionMessageToolCall,
  ChatCompletionTool,
} from 'openai/resources/chat/completions';
import type { ModelFeedback } from '../../recovery/feedback';
import { normalisedJson, UNTRUSTED_TEXT_NOTE } from '../../recovery/untrusted';
import type { Capability } from '../../recovery/tool-spec';
import type { Observation, PlannerInput } from '../../workflows/planner-contract';
import { uniqueId } from './openai-decision';
import { FUNCTION_NAME, MAX_FUNCTION_NAME_CHARS, SUBMIT_TOOL, toolNamesFor, type ToolNames } from './openai-names';

/** The system prompt unless `OpenAIPlannerOptions.systemPrompt` replaces it (keep `UNTRUSTED_TEXT_NOTE` in yours). */
export const DEFAULT_SYSTEM_PROMPT = [
  'You are the planner of an agent run. Reach the goal by calling the tools you are given.',
  `When the goal is reached, call the "${SUBMIT_TOOL}" tool with the final answer as "result".`,
  'A failed call comes back as JSON feedback with a "nextStep": follow it. Never repeat a call unchanged after a failure.',
  UNTRUSTED_TEXT_NOTE,
  'If the goal cannot be reached, reply with text that says why, without calling a tool.',
].join(' ');

/**
 * The chat-completions request body for `input`.
 * @param names the function names of the capabilities. @default toolNamesFor(input.capabilities)
 * @throws PlannerConfigError when a capability is named `submit`.
 */
export function chatRequest(
  input: PlannerInput,
  model: string,
  systemPrompt = DEFAULT_SYSTEM_PROMPT,
  names: ToolNames = toolNamesFor(input.capabilities),
): ChatCompletionCreateParamsNonStreaming {
  return {
    model,
    messages: [
      { role: 'system', content: systemPrompt },
      { role: 'user', content: `Goal: ${input.goal}` },
      ...omittedNote(input.omittedObservations),
      ...observationMessages(input.observations, names),
    ],
    tools: [...input.capabilities.map((c) => toolOf(c, names)), SUBMIT_TOOL_DEF],
    tool_choice: 'auto',
  };
}

const SUBMIT_TOOL_DEF: ChatCompletionTool = {
  type: 'function',
  function: {
    name: SUBMIT_TOOL,
    description: 'Deliver the final answer for the goal. Call it once, when the goal is reached.',
    parameters: {
      type: 'object',
      properties: { result: { description: 'The final answer: any JSON value.' } },
      required: ['result'],
    },
  },
};

function toolOf(c: Capability, names: ToolNames): ChatCompletionTool {
  const { $schema: _schema, ...parameters } = c.inputSchema;
  return {
    type: 'function',
    function: { name: names.toModel.get(c.name) ?? c.name, description: c.description, parameters },
  };
}

/** Tells the model that older tool answers were dropped from its context (`AgentOptions.observationWindow`). */
function omittedNote(omitted: number | undefined): ChatCompletionMessageParam[] {
  if (!omitted) return [];
  return [
    {
      role: 'user',
      content: `${omitted} earlier message${omitted === 1 ? '' : 's'} of this run (tool answers, user messages) ${omitted === 1 ? 'is' : 'are'} not shown, to keep the context bounded; the newest follow.`,
    },
  ];
}

function observationMessages(observations: readonly Observation[], names: ToolNames): ChatCompletionMessageParam[] {
  const out: ChatCompletionMessageParam[] = [];
  let calls: ChatCompletionMessageToolCall[] = [];
  let answers: ChatCompletionMessageParam[] = [];
  // Calls the API would refuse in `tool_calls`, told as text after the turn's tool messages.
  let notes: ChatCompletionMessageParam[] = [];
  // The ids of the assistant message being built: a repeated one would answer one tool_call_id twice.
  let ids = new Set<string>();
  const flush = () => {
    if (calls.length > 0) out.push({ role: 'assistant', content: null, tool_calls: calls }, ...answers);
    out.push(...notes);
    calls = [];
    answers = [];
    notes = [];
    ids = new Set();
  };
  let turn: number | undefined;
  for (const obs of observations) {
    if (obs.kind === 'user_message') {
      flush();
      out.push({ role: 'user', content: obs.text });
      continue;
    }
    if (obs.kind === 'decision_rejected') {
      flush();
      out.push({ role: 'user', content: `Your previous answer could not be used: ${obs.message}` });
      continue;
    }
    // The calls of one turn were one assistant message; a new turn is a new message.
    if (obs.turn !== turn) flush();
    turn = obs.turn;
    const content =
      obs.kind === 'tool_result'
        ? JSON.stringify(
            normalisedJson({ status: 'ok', value: obs.value ?? null, ...(obs.empty ? { empty: true } : {}) }),
          )
        : JSON.stringify(feedbackForModel(obs.feedback, names));
    const name = names.toModel.get(obs.tool) ?? obs.tool;
    if (!FUNCTION_NAME.test(name)) {
      const shown = JSON.stringify(cut(name, MAX_FUNCTION_NAME_CHARS));
      notes.push({
        role: 'user',
        content:
          obs.kind === 'tool_failure'
            ? `You called a tool named ${shown} that does not exist: ${content}`
            : `You called a tool named ${shown}: ${content}`,
      });
      continue;
    }
    const id = uniqueId(obs.callId, ids);
    calls.push({
      id,
      type: 'function',
      function: { name, arguments: typeof obs.args === 'string' ? obs.args : JSON.stringify(obs.args ?? {}) },
    });
    answers.push({ role: 'tool', tool_call_id: id, content });
  }
  flush();
  return out;
}

/** `feedback` with the capability names the model knows (aliases); the same object when no name has an alias. */
function feedbackForModel(feedback: ModelFeedback, names: ToolNames): ModelFeedback {
  const alias = (name: string) => names.toModel.get(name) ?? name;
  const renamed =
    alias(feedback.tool) !== feedback.tool || (feedback.capabilities ?? []).some((c) => alias(c.name) !== c.name);
  if (!renamed) return feedback;
  return {
    ...feedback,
    tool: alias(feedback.tool),
    ...(feedback.capabilities
      ? { capabilities: feedback.capabilities.map((c) => ({ ...c, name: alias(c.name) })) }
      : {}),
  };
}

/** The first `max` code points of `text`, and `…` when there were more. */
function cut(text: string, max: number): string {
  const points = Array.from(text);
  return points.length > max ? `${points.slice(0, max).join('')}…` : text;
}
