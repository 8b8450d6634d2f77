/**
 * What an MCP tool's `execute` throws: one error class carrying the raw facts of the failure (where it came from,
 * the JSON-RPC code, the server's own words), with the SDK's error as `cause`. The table in error-map.ts reads it.
 *
 * Source: the cases' lesson 1 ("the classifier needs the raw facts": keep the code and the text, never a
 * flattened string); MCP spec 2025-11-25, "Tools → Error Handling" for the two sources.
 */
import { McpError } from '@modelcontextprotocol/sdk/types.js';

/** Where an MCP failure came from. A const object plus a type of the same name. */
export const McpFailureSource = {
  /** A `tools/call` result with `isError: true` (MCP "Tool Execution Errors"). */
  RESULT: 'result',
  /**
   * Thrown by the SDK's `callTool`: a JSON-RPC error response (MCP "Protocol Errors"), a closed transport, a
   * request timeout or cancellation, a result the SDK could not parse or that fails the tool's `outputSchema`.
   */
  THROWN: 'thrown',
} as const;
export type McpFailureSource = (typeof McpFailureSource)[keyof typeof McpFailureSource];

/** The SDK prefixes `McpError` messages, and McpServer copies them into `isError` results, as `MCP error <code>: `. */
const CODE_PREFIX = /^MCP error (-?\d{1,6}):\s*/;

/** The facts of one failed MCP tool call. */
export interface McpFailureFacts {
  readonly source: McpFailureSource;
  /** The JSON-RPC error code: `McpError.code`, or the `MCP error <code>:` at the head of an `isError` text. */
  readonly code: number | undefined;
  /** The server's or the SDK's words without the code prefix. Unredacted: the operator log's, not the model's. */
  readonly detail: string;
  /** `name` of the thrown error (`McpError`, `ZodError`, `Error`, …); undefined for an `isError` result. */
  readonly errorName: string | undefined;
}

/** A failed MCP tool call, thrown by the tools `mcpTools` builds. */
export class McpCallError extends Error implements McpFailureFacts {
  override readonly name = 'McpCallError';
  readonly source: McpFailureSource;
  readonly code: number | undefined;
  readonly detail: string;
  readonly errorName: string | undefined;

  constructor(
    /** The tool's name on the MCP server (without a prefix). */
    readonly mcpTool: string,
    facts: McpFailureFacts,
    options?: { cause?: unknown },
  ) {
    super(
      `MCP tool "${mcpTool}" failed (${facts.source}${facts.code === undefined ? '' : ` ${facts.code}`}): ${facts.detail}`,
      options,
    );
    this.source = facts.source;
    this.code = facts.code;
    this.detail = facts.detail;
    this.errorName = facts.errorName;
  }

  /** From a `tools/call` result with `isError: true`: its text blocks, joined by newlines. */
  static fromResult(mcpTool: string, result: unknown): McpCallError {
    const content = typeof result === 'object' && result !== null ? (result as { content?: unknown }).content : [];
    const blocks: unknown[] = Array.isArray(content) ? content : [];
    const text = blocks
      .map((b) =>
        typeof b === 'object' && b !== null && (b as { type?: unknown }).type === 'text'
          ? (b as { text?: unknown }).text
          : undefined,
      )
      .filter((t): t is string => typeof t === 'string')
      .join('\n');
    const { code, detail } = splitCode(text === '' ? '(the error result has no text)' : text);
    return new McpCallError(mcpTool, { source: McpFailureSource.RESULT, code, detail, errorName: undefined });
  }

  /** From anything `callTool` threw; the thrown value becomes `cause`. */
  static fromThrown(mcpTool: string, error: unknown): McpCallError {
    const errorName = error instanceof Error ? error.name : typeof error;
    const message = error instanceof Error ? error.message : String(error);
    const fromSdk = error instanceof McpError && Number.isInteger(error.code);
    const split = splitCode(message);
    return new McpCallError(
      mcpTool,
      {
        source: McpFailureSource.THROWN,
        code: fromSdk ? (error as McpError).code : undefined,
        detail: fromSdk ? split.detail : message,
        errorName,
      },
      { cause: error },
    );
  }
}

/** True for an `McpCallError` (by class, or by name and fields when it crossed a module copy). */
export function isMcpCallError(value: unknown): value is McpCallError {
  if (value instanceof McpCallError) return true;
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Partial<McpCallError>;
  return (
    v.name === 'McpCallError' &&
    (v.source === McpFailureSource.RESULT || v.source === McpFailureSource.THROWN) &&
    typeof v.detail === 'string'
  );
}

function splitCode(text: string): { code: number | undefined; detail: string } {
  const m = CODE_PREFIX.exec(text);
  return m ? { code: Number(m[1]), detail: text.slice(m[0].length) } : { code: undefined, detail: text };
}
