/**
 * `recovery-router/ai-sdk` (Node side): AI SDK tools (`tool({ inputSchema, execute })` from `ai`, an optional peer
 * dependency: `npm install ai`) as router tools for `RecoveryPlugin`. The other way, router tools as an AI SDK
 * tool set inside a workflow, is `recovery-router/ai-sdk/workflow`.
 *
 *   import { fromAiSdkTool } from 'recovery-router/ai-sdk';
 *   const plugin = new RecoveryPlugin({ tools: [fromAiSdkTool('book_slot', bookSlot, { effect: 'write' })] });
 */
export { fromAiSdkTool } from './activities/interop/ai-sdk';
export { ApprovalNeededError } from './activities/interop/adopt';
export type { AdoptOptions } from './activities/interop/adopt';
