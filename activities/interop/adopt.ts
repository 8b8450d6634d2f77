/**
 * What the AI SDK and OpenAI Agents "In" adapters share (./ai-sdk.ts, ./openai-agents.ts): the facts the
 * frameworks have no word for, which the user adds, and the mapping of a framework's `needsApproval` to the
 * router's approval.
 *
 * Approval: a framework tool with `needsApproval` becomes a router tool with `approvalCanLift: true` whose
 * `execute` first asks `needsApproval(args)`; when it says yes and the call carries no approval, it throws
 * `ApprovalNeededError`, which the tool's classifier reads as `authorization/approval_required` — the router's
 * `request_approval` route. The call then waits for `recovery.decideApproval` bound to the tool and the argument
 * digest (workflows/approvals.ts), confirmed by the worker (activities/approvals.ts), and runs again with
 * `ctx.approval` set. The approval is never a field of the arguments, so the model cannot write it.
 */
import type { z } from 'zod';
import type { ToolClassifier } from '../../recovery/classify';
import { FailureClass, FailureReason } from '../../recovery/failure';
import { ToolDefinitionError, type ToolDefinition } from '../define-tool';
import type { ToolContext } from '../tool-context';
import { RecoveryError } from '../../recovery/recovery-error';

/**
 * What a router tool needs that the framework's tool does not say: `effect` (required), and where they apply
 * `idempotency`, `credential`, `lookup`, `classify`, `errors`, `validate`, `timeouts`, `scope`, `downstream`,
 * `approvalCanLift`. `name` and `description` override the framework's.
 */
export type AdoptOptions = Omit<ToolDefinition, 'name' | 'description' | 'input' | 'output' | 'execute'> & {
  name?: string;
  description?: string;
};

/** Thrown by an adopted tool whose `needsApproval` said yes for a call that carries no approval. */
export class ApprovalNeededError extends RecoveryError<'approval_needed'> {
  override readonly name = 'ApprovalNeededError';
  static override readonly codes: readonly string[] = ['approval_needed'];
  constructor(readonly tool: string) {
    super('approval_needed', `${tool}: this call needs a human approval`);
  }
}

/** A framework's `needsApproval`, reduced to "does this call need approval?". */
export type NeedsApproval = (args: unknown, callId: string) => boolean | PromiseLike<boolean>;

/**
 * The adopted tool's classifier: `ApprovalNeededError` → `approval_required`, then the adapter's own reading of
 * its framework's errors, then the user's classifier; the first that answers wins.
 */
function adoptedClassifier(...classifiers: (ToolClassifier | undefined)[]): ToolClassifier {
  return (raw, ctx, builtIn) => {
    if (raw.kind === 'thrown' && ApprovalNeededError.is(raw.error)) {
      return {
        class: FailureClass.AUTHORIZATION,
        reason: FailureReason.APPROVAL_REQUIRED,
        publicMessage: `${ctx.tool}: this call needs a human approval before it runs.`,
      };
    }
    for (const c of classifiers) {
      const answer = c?.(raw, ctx, builtIn);
      if (answer !== undefined) return answer;
    }
    return undefined;
  };
}

/**
 * The `defineTool` definition of an adopted tool. `frameworkClassify` reads the framework's own errors (e.g.
 * agents-core's `InvalidToolInputError`); the user's `classify` comes after it.
 * @throws ToolDefinitionError when `options` is not an object or has no `effect`.
 */
export function adoptedDefinition(
  framework: string,
  base: { name: string; description: string; input: z.ZodType; output: z.ZodType },
  options: AdoptOptions,
  run: (args: unknown, ctx: ToolContext) => Promise<unknown>,
  needsApproval: NeedsApproval | undefined,
  frameworkClassify?: ToolClassifier,
): ToolDefinition {
  if (typeof options !== 'object' || options === null) {
    throw new ToolDefinitionError(base.name, `${framework}: the options must be an object with at least \`effect\``);
  }
  if (options.effect !== 'read' && options.effect !== 'write') {
    throw new ToolDefinitionError(
      base.name,
      `${framework}: \`effect\` must be 'read' or 'write' (the framework's tool does not say whether it changes the world)`,
    );
  }
  const { name, description, ...facts } = options;
  const toolName = name ?? base.name;
  return {
    ...facts,
    name: toolName,
    description: description ?? base.description,
    input: base.input,
    output: base.output,
    ...(needsApproval ? { approvalCanLift: true } : {}),
    ...(needsApproval || frameworkClassify ? { classify: adoptedClassifier(frameworkClassify, facts.classify) } : {}),
    async execute(args, ctx) {
      if (needsApproval && ctx.approval === undefined && (await needsApproval(args, ctx.callId))) {
        throw new ApprovalNeededError(toolName);
      }
      return (await run(args, ctx)) as never;
    },
  };
}
