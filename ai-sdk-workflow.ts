/**
 * `recovery-router/ai-sdk/workflow` (sandbox-safe): the router's tools as an AI SDK tool set for `generateText` /
 * `streamText` in workflow code, e.g. with `@temporalio/ai-sdk`'s `temporalProvider`. Needs `ai` (an optional
 * peer dependency).
 *
 *   import { aiSdkTools, UNTRUSTED_TEXT_NOTE } from 'recovery-router/ai-sdk/workflow';
 *   await generateText({ model, system: UNTRUSTED_TEXT_NOTE, tools: aiSdkTools(createToolRouter(defaults)), prompt,
 *     stopWhen: stepCountIs(8) }); // the note tells the model which fields quote a server (docs/frameworks.md)
 */
export { aiSdkTools } from './workflows/interop/ai-sdk';
export type { AiSdkToolsOptions } from './workflows/interop/ai-sdk';
export { toolResultFor } from './workflows/interop/tool-result';
export { UNTRUSTED_TEXT_NOTE } from './recovery/untrusted';
export type { OutcomeListener, RoutedToolsOptions } from './workflows/interop/tool-result';
