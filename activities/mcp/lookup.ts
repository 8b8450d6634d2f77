/**
 * The `lookup` of an MCP write: another tool on the same server that finds an operation by the idempotency key
 * the write carried (the operation_id), so a write whose answer was lost is reconciled instead of going straight
 * to human review (docs/DESIGN.md, "Reconcile"; activities/lookup-operation.ts runs it).
 *
 * What the lookup tool's answer means, by default:
 * - a result that is not `isError` → `applied`, and that result (`{ content, structuredContent? }`) is the
 *   write's; lookup-operation.ts checks it against the write's output schema (`unknown` when it does not fit);
 * - an `isError` result that `MCP_ERROR_RULES` reads as not found (404, ENOENT, "not found", `not_found`) →
 *   `not_applied`;
 * - anything else (another error, a failed call) → `unknown`: the reconciliation polls again or goes to review.
 * `found` replaces that reading for a lookup tool that answers absence otherwise (`{ "found": false }`, `[]`).
 *
 * Node side only.
 */
import type { LookupResult } from '../define-tool';
import type { ToolContext } from '../tool-context';
import { McpCallError } from './call-error';
import { callMcpTool, type McpSession } from './call';
import { matchMcpRule, type McpServerCodes } from './error-map';
import type { McpToolOutput } from './output';

/** How an MCP write is looked up by its operation_id. */
export interface McpLookup {
  /** The lookup tool's name on the same server (without the prefix), e.g. `find_payment`. */
  tool: string;
  /**
   * The lookup tool's argument that takes the operation_id. @default the write's `idempotencyKey` (the same name
   * on both tools)
   */
  key?: string;
  /**
   * The lookup tool's arguments, instead of `{ [key]: operationId }`. `args` are the write's arguments when the
   * router passes them (`lookup(operationId, ctx, args)`), else undefined.
   */
  arguments?: (operationId: string, args: Readonly<Record<string, unknown>> | undefined) => Record<string, unknown>;
  /** What the lookup tool's successful result means (see the module docs for the default). */
  found?: (result: McpToolOutput) => LookupResult<McpToolOutput>;
}

/** A lookup as `defineTool` takes it. */
export type McpLookupFn = (
  operationId: string,
  ctx: ToolContext,
  args?: Readonly<Record<string, unknown>>,
) => Promise<LookupResult<McpToolOutput>>;

/**
 * The `lookup` function of a write.
 * @param key the lookup tool's key argument (the resolved `lookup.key`), or undefined when `lookup.arguments` builds them.
 * @param timeoutMs the request timeout in ms.
 */
export function mcpLookup(
  session: McpSession,
  lookup: McpLookup,
  key: string | undefined,
  server: McpServerCodes,
  timeoutMs: number | undefined,
): McpLookupFn {
  return async (operationId, ctx, args) => {
    const lookupArgs = lookup.arguments ? lookup.arguments(operationId, args) : { [key as string]: operationId };
    const result = await callMcpTool(session, lookup.tool, lookupArgs, ctx, timeoutMs);
    if (result.isError === true) {
      const facts = McpCallError.fromResult(lookup.tool, result);
      return matchMcpRule(facts, server)?.id === 'not_found'
        ? { state: 'not_applied' }
        : { state: 'unknown', detail: `The lookup tool "${lookup.tool}" failed: ${facts.detail}` };
    }
    const { content, structuredContent } = result as { content?: unknown; structuredContent?: unknown };
    const output = (structuredContent === undefined ? { content } : { content, structuredContent }) as McpToolOutput;
    return lookup.found ? lookup.found(output) : { state: 'applied', result: output };
  };
}
