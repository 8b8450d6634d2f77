/**
 * A planner on any OpenAI-compatible chat-completions endpoint (OpenAI, or a local server such as vLLM, Ollama or
 * llama.cpp), through the official `openai` package. The request it builds (tools, function-name aliases, messages)
 * and how an answer becomes a decision are specified in docs/agents.md, "The OpenAI planner on the wire".
 * `maxRetries: 0`: Temporal is the only retry layer; the SDK's timeout error becomes `ModelTimeoutError`.
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
  const protocol = URL.canParse(baseURL) ? new URL(baseURL).protocol : undefined;
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
