/**
 * Helpers for tests (`recovery-router/testing`): replaying recorded histories against today's workflow code, the
 * scripted planner (a deterministic stand-in for a model, with its JSON policy), the catalog a worker hands its
 * workflows, and the words the classifier reads in error messages. Node side; never import it from workflow code.
 *
 * @packageDocumentation
 */
export { fetchHistoryJSON, replayHistoryFiles, replayWorkflowsFromServer } from './plugin/replay';
export type { ReplayOutcome } from './plugin/replay';
export {
  createScriptedPlanner,
  loadScriptedPolicy,
  parseScriptedPolicy,
  ScriptedPolicyError,
  ScriptedPolicyErrorCode,
} from './activities/planners/scripted';
export type { ScriptedPolicy } from './activities/planners/scripted';
export { toolCatalog } from './activities/define-tool';
export { NO_TELEMETRY } from './plugin/telemetry';
export { conceptsOf, vocabulary, type Concept } from './recovery/classify/words';
