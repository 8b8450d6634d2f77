/**
 * What an MCP tool's `execute` throws: one error class carrying the raw facts of the failure (where it came from,
 * the JSON-RPC code, the server's own words, the signals of an `isError` result, the HTTP answer of a remote
 * server), with the SDK's error as `cause`. The table in error-map.ts reads it; the HTTP answer, carried as
 * `outcome`, is read by the HTTP rules (recovery/classify/wrapped-http.ts) like any HTTP answer.
 *
 * Source: docs/DESIGN.md, "The failure record" (classify from the raw facts: keep the code and the text, never a
 * flattened string); MCP spec 2025-11-25, "Tools → Error Handling" for the two sources.
 */
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import type { McpHttpAnswer } from './call-scope';
import { readResultSignals, type ResultSignals } from './result-signals';
import { isRecoveryError, RecoveryError } from '../../recovery/recovery-error';
import { MCP_RECONNECT_FAILED } from './errors';

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

/** The `code` of every `McpCallError` (the JSON-RPC number is its `rpcCode`). */
export const MCP_CALL_FAILED = 'mcp_call_failed';

/** The facts of one failed MCP tool call. */
export interface McpFailureFacts {
  readonly source: McpFailureSource;
  /** The JSON-RPC error code: `McpError.code`, or the `MCP error <code>:` at the head of an `isError` text. */
  readonly rpcCode: number | undefined;
  /** The server's or the SDK's words without the code prefix. Unredacted: the operator log's, not the model's. */
  readonly detail: string;
  /** `name` of the thrown error (`McpError`, `ZodError`, `Error`, …); undefined for an `isError` result. */
  readonly errorName: string | undefined;
  /** What an `isError` result's structured error object, status and retry hint say (result-signals.ts). */
  readonly signals: ResultSignals;
  /** The remote server's non-2xx HTTP answer to this call (or to the reconnect before it). */
  readonly outcome: McpHttpAnswer | undefined;
}

/**
 * A failed MCP tool call, thrown by the tools `mcpTools` builds. A `RecoveryError` (docs/DESIGN.md, "Errors") whose
 * `code` is always `'mcp_call_failed'`; the JSON-RPC error code is `rpcCode`.
 */
export class McpCallError extends RecoveryError<typeof MCP_CALL_FAILED> implements McpFailureFacts {
  override readonly name = 'McpCallError';
  static override readonly codes: readonly string[] = [MCP_CALL_FAILED];
  declare readonly source: McpFailureSource;
  declare readonly rpcCode: number | undefined;
  declare readonly detail: string;
  declare readonly errorName: string | undefined;
  declare readonly signals: ResultSignals;
  declare readonly outcome: McpHttpAnswer | undefined;

  constructor(
    /** The tool's name on the MCP server (without a prefix). */
    readonly mcpTool: string,
    facts: McpFailureFacts,
    options: { cause?: unknown } = {},
  ) {
    super(
      MCP_CALL_FAILED,
      `MCP tool "${mcpTool}" failed (${facts.source}${facts.rpcCode === undefined ? '' : ` ${facts.rpcCode}`}): ${facts.detail}`,
      options,
    );
    const { source, rpcCode, detail, errorName, signals, outcome } = facts;
    Object.assign(this, { source, rpcCode, detail, errorName, signals, outcome });
  }

  /** From a `tools/call` result with `isError: true`: its text blocks, joined by newlines, and their signals. */
  static fromResult(mcpTool: string, result: unknown): McpCallError {
    const record = typeof result === 'object' && result !== null ? (result as Record<string, unknown>) : {};
    const content = record.content;
    const blocks: unknown[] = Array.isArray(content) ? content : [];
    const text = blocks
      .map((b) =>
        typeof b === 'object' && b !== null && (b as { type?: unknown }).type === 'text'
          ? (b as { text?: unknown }).text
          : undefined,
      )
      .filter((t): t is string => typeof t === 'string')
      .join('\n');
    const { rpcCode, detail } = splitCode(text === '' ? '(the error result has no text)' : text);
    return new McpCallError(mcpTool, {
      source: McpFailureSource.RESULT,
      rpcCode,
      detail,
      errorName: undefined,
      signals: readResultSignals(record.structuredContent, text),
      outcome: undefined,
    });
  }

  /**
   * From anything `callTool` threw (or the reconnect before it); the thrown value becomes `cause`.
   * @param http the call's last non-2xx HTTP answer (its `CallScope`); kept when the error is the transport's
   *   report of it (`StreamableHTTPError`, the SSE transport's "Error POSTing to endpoint (HTTP n)",
   *   `UnauthorizedError`) or carries it (`McpReconnectError`).
   */
  static fromThrown(mcpTool: string, error: unknown, http?: McpHttpAnswer): McpCallError {
    const errorName = error instanceof Error ? error.name : typeof error;
    const message = error instanceof Error ? error.message : String(error);
    const fromSdk = error instanceof McpError && Number.isInteger(error.code);
    const split = splitCode(message);
    return new McpCallError(
      mcpTool,
      {
        source: McpFailureSource.THROWN,
        rpcCode: fromSdk ? (error as McpError).code : undefined,
        detail: fromSdk ? split.detail : message,
        errorName,
        signals: {},
        outcome: httpAnswerOf(error, http),
      },
      { cause: error },
    );
  }
}

/**
 * The HTTP answer a thrown error reports (see `fromThrown`). A failed reconnect's answer counts only when it is a
 * 401 or 403 (a credential or a permission the call needs); any other one leaves the call's class to the
 * `reconnect_failed` row (not sent).
 */
function httpAnswerOf(error: unknown, http: McpHttpAnswer | undefined): McpHttpAnswer | undefined {
  if (isRecoveryError(error, MCP_RECONNECT_FAILED)) {
    const answer = (error as { http?: McpHttpAnswer }).http;
    return answer?.status === 401 || answer?.status === 403 ? answer : undefined;
  }
  if (http === undefined) return undefined;
  if (error instanceof StreamableHTTPError) return error.code === http.status ? http : undefined;
  if (error instanceof UnauthorizedError) return http;
  const sse = /^Error POSTing to endpoint \(HTTP (\d{3})\)/.exec(error instanceof Error ? error.message : '');
  return sse && Number(sse[1]) === http.status ? http : undefined;
}

/** True for an `McpCallError`, also one made in another realm or module copy (its brand and code: `McpCallError.is`). */
export function isMcpCallError(value: unknown): value is McpCallError {
  return McpCallError.is(value);
}

function splitCode(text: string): { rpcCode: number | undefined; detail: string } {
  const m = CODE_PREFIX.exec(text);
  return m ? { rpcCode: Number(m[1]), detail: text.slice(m[0].length) } : { rpcCode: undefined, detail: text };
}
