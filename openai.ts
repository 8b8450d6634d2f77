/**
 * `recovery-router/openai`: the agent's planner on the official `openai` package (an optional peer dependency:
 * `npm install openai`), for any OpenAI-compatible chat-completions endpoint.
 *
 *   import { createOpenAIPlanner } from 'recovery-router/openai';
 *   const plugin = new RecoveryPlugin({ tools, planner: createOpenAIPlanner() }); // OPENAI_BASE_URL, _API_KEY, _MODEL
 */
export {
  createOpenAIPlanner,
  DEFAULT_SYSTEM_PROMPT,
  ModelTimeoutError,
  PlannerConfigError,
  PlannerConfigErrorCode,
  SUBMIT_TOOL,
} from './activities/planners/openai';
export type { OpenAIPlannerOptions } from './activities/planners/openai';
export { UNTRUSTED_TEXT_NOTE } from './recovery/untrusted';
