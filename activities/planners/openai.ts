/**
 * A planner on any OpenAI-compatible chat-completions endpoint (OpenAI, or a local server such as vLLM, Ollama or
 * llama.cpp), through the official `openai` package.
 *
 * Request (POST `{baseURL}/chat/completions`, the OpenAI wire format):
 * - `tools`: every capability as `{ type: 'function', function: { name, description, parameters } }`, `parameters`
 *   being its input JSON Schema (without the top-level `$schema` key), plus the built-in `submit` tool
 *   (`{ result: <any JSON> }`), always offered: terminal delivery is a tool call (issue 5).
 * - Function names: OpenAI accepts only `^[a-zA-Z0-9_-]{1,64}$` (API reference, Create chat completion,
 *   `tools[].function.name`: "Must be a-z, A-Z, 0-9, or contain underscores and dashes, with a maximum length of
 *   64", https://platform.openai.com/docs/api-reference/chat/create; the same text documents `FunctionDefinition.name`
 *   in the `openai` package). Tool names may also hold `.` (defineTool, MCP prefixes such as `calendar.book`), so a
 *   capability whose name breaks the rule is offered under an alias (`toolNamesFor`): every other character becomes
 *   `_`; when that is longer than 64 characters, or taken by another tool, by `submit` or by an earlier alias, it is
 *   cut to 55 and gets `_` + the first 8 hex digits of the SHA-256 of the real name. Valid names are sent unchanged.
 *   The aliases depend only on the capability list, so every turn of a run uses the same ones. The model only ever
 *   sees aliases: in `tools`, in the `tool_calls` of earlier turns, and in the feedback's `tool` and `capabilities`.
 * - `messages`: a system prompt, the goal as the first user message, then the observations in order. Consecutive
 *   tool observations become one assistant message with their `tool_calls` (id = the observation's `callId`,
 *   `arguments` = the args as JSON) followed by one `role: 'tool'` message each, with `tool_call_id`: a result as
 *   `{ status: 'ok', value, empty? }`, a failure as the router's `ModelFeedback` — both as JSON text. Only
 *   feedback and public messages reach the model, never raw errors. User messages are `role: 'user'`; a rejected
 *   earlier answer is a user message "Your previous answer could not be used: …". Observations of different turns
 *   are different assistant messages.
 * - An observation of a call whose tool name is no valid function name and no capability's (a hallucinated
 *   `multi_tool_use.parallel`, a 10,000-character name) cannot go back in `tool_calls`: the API would refuse the
 *   whole request. It becomes a user message `You called a tool named "<the name, cut to 64 characters + …>" that
 *   does not exist: <feedback JSON>` (for a result: `You called a tool named "…": <result JSON>`), placed after the
 *   `role: 'tool'` messages of its turn; the other calls of that turn keep their tool_call/tool pairs.
 * - Two observations of one turn with the same `callId` (this planner never makes such calls, see below) get
 *   `<id>#2`, … in `tool_calls` and `tool_call_id`, so each tool message answers exactly one call.
 *
 * Answer → decision:
 * - a `submit` call alone → `submit` with its `result`; `submit` beside other calls → those calls run and the
 *   submit is dropped (a result that depends on calls not yet made is not final; the model submits next turn).
 *   A `submit` whose arguments are not JSON or have no `result` → `PlannerOutputError` (planner_invalid_decision).
 * - other tool calls → `tool_calls`, in order, `callId` = the model's tool_call id; an alias is mapped back to its
 *   capability's real name. A name that is no capability is passed through: the router answers
 *   `capability_missing` with the permitted list, which the model sees.
 *   An empty id becomes `turn-<turn>-call-<i>` (i 1-based among the calls); an id already used by an earlier call
 *   of the same answer becomes `<id>#2` (`#3`, … the first free one), so each call gets its own observation and its
 *   own `role: 'tool'` message, and no two share a `tool_call_id`.
 *   Arguments that are not JSON are passed through as the raw string: the router's schema check answers
 *   `invalid_arguments` with field-level repair feedback ("expected object"), the model sees what it sent and the
 *   gate refuses the identical string again. Empty arguments (`""`) are `{}` (some servers send that for no-arg calls).
 * - no tool call → `stop` with the reply's text (or refusal) as the reason; the workflow counts a stop without
 *   submit as `no_submission`, never as success.
 * - no choices → `PlannerOutputError`.
 *
 * The client has `maxRetries: 0`: Temporal is the only retry layer (two retry layers multiply their attempts). Transport
 * errors (`APIError` with status and headers, connection errors) propagate to the activity, which classifies them;
 * the SDK's timeout error becomes `ModelTimeoutError` (name `TimeoutError`) so it classifies as a transient timeout.
 */
import OpenAI, { APIConnectionTimeoutError } from 'openai';
import type { ChatCompletion } from 'openai/resources/chat/completions';
import { decisionFrom } from './openai-decision';
import { ModelTimeoutError, PlannerConfigError, type PlannerConfigErrorCode } from './openai-errors';
import { toolNamesFor } from './openai-names';
import { chatRequest, DEFAULT_SYSTEM_PROMPT } from './openai-request';
import type { Planner } from './planner';

export { decisionFrom, MAX_STOP_REASON_CHARS } from './openai-decision';
export { ModelTimeoutError, PlannerConfigError, PlannerConfigErrorCode } from './openai-errors';
export { FUNCTION_NAME, MAX_FUNCTION_NAME_CHARS, SUBMIT_TOOL, toolNamesFor, type ToolNames } from './openai-names';
export { chatRequest, DEFAULT_SYSTEM_PROMPT } from './openai-request';

/**
 * Options of `createOpenAIPlanner`: base URL, API key and model (defaults from `OPENAI_BASE_URL`,
 * `OPENAI_API_KEY`, `OPENAI_MODEL`), the system prompt, the request timeout in ms.
 */
export interface OpenAIPlannerOptions {
  /** The endpoint, e.g. `https://api.openai.com/v1` or `http://127.0.0.1:11434/v1`. @default env `OPENAI_BASE_URL` */
  baseURL?: string;
  /** Sent as `Authorization: Bearer …`; never written into an error message. @default env `OPENAI_API_KEY` */
  apiKey?: string;
  /** Model name. @default env `OPENAI_MODEL` */
  model?: string;
  /** @default DEFAULT_SYSTEM_PROMPT */
  systemPrompt?: string;
  /** Per-request timeout, in ms, integer ≥ 1. Keep it under the activity's StartToClose timeout. @default 120000 */
  timeoutMs?: number;
  /** Where the defaults are read. @default process.env */
  env?: Readonly<Record<string, string | undefined>>;
}

/** The default `timeoutMs`, in ms (2 min). */
const DEFAULT_TIMEOUT_MS = 120_000;

/**
 * The OpenAI-compatible planner.
 * @throws PlannerConfigError `missing_base_url` / `missing_api_key` / `missing_model` naming the option and the
 *   environment variable; `invalid_option` for a base URL that is not http(s) or a bad `timeoutMs`.
 */
export function createOpenAIPlanner(options: OpenAIPlannerOptions = {}): Planner {
  const env = options.env ?? process.env;
  const baseURL = required(options.baseURL ?? env.OPENAI_BASE_URL, 'baseURL', 'OPENAI_BASE_URL', 'missing_base_url');
  const apiKey = required(options.apiKey ?? env.OPENAI_API_KEY, 'apiKey', 'OPENAI_API_KEY', 'missing_api_key');
  const model = required(options.model ?? env.OPENAI_MODEL, 'model', 'OPENAI_MODEL', 'missing_model');
  let protocol: string | undefined;
  try {
    protocol = new URL(baseURL).protocol;
  } catch {
    protocol = undefined;
  }
  if (protocol !== 'http:' && protocol !== 'https:') {
    throw new PlannerConfigError('invalid_option', 'baseURL (OPENAI_BASE_URL) must be an http(s) URL');
  }
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1) {
    throw new PlannerConfigError('invalid_option', `timeoutMs must be an integer ≥ 1 (ms), got ${String(timeoutMs)}`);
  }
  const client = new OpenAI({ baseURL, apiKey, maxRetries: 0, timeout: timeoutMs + 1_000 });
  const systemPrompt = options.systemPrompt ?? DEFAULT_SYSTEM_PROMPT;
  return {
    async plan(input, opts = {}) {
      let completion: ChatCompletion;
      const names = toolNamesFor(input.capabilities);
      // Our own deadline, so a timeout is recognised whatever realm the abort error comes from.
      const deadline = AbortSignal.timeout(timeoutMs);
      const signal = opts.signal ? AbortSignal.any([opts.signal, deadline]) : deadline;
      try {
        completion = await client.chat.completions.create(chatRequest(input, model, systemPrompt, names), { signal });
      } catch (err) {
        // The SDK's timeout error has no code and a plain name: give it the name the classifier knows.
        if ((deadline.aborted && !opts.signal?.aborted) || err instanceof APIConnectionTimeoutError) {
          throw new ModelTimeoutError(timeoutMs, err);
        }
        throw err;
      }
      return decisionFrom(completion, input.turn, names);
    },
  };
}

function required(value: string | undefined, option: string, variable: string, code: PlannerConfigErrorCode): string {
  if (value !== undefined && value.trim() !== '') return value.trim();
  throw new PlannerConfigError(code, `${variable} is not set: pass options.${option} or set ${variable}`);
}
