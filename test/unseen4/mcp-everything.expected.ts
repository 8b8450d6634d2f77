/**
 * What each MCP case should route to (issue 38, "MCP"). Sources: JSON-RPC 2.0 §5.1 (-32602 Invalid params: "Invalid
 * method parameter(s)"), the MCP TypeScript SDK (`McpServer.validateToolInput` answers a call that fails the tool's
 * input schema with InvalidParams before the handler runs; `ErrorCode.RequestTimeout` -32001 when no answer came
 * within the request timeout), the MCP spec 2025-11-25 ("Tools → Error Handling"; annotations are untrusted unless
 * the client trusts the server), docs/mcp.md and docs/DESIGN.md.
 */
import type { ExpectedTable4 } from './cases';

const INVALID_PARAMS =
  'JSON-RPC 2.0 §5.1 -32602 Invalid params; MCP SDK McpServer.validateToolInput refuses the arguments before the handler runs: the arguments were refused, not the tool broken → repair';
const TIMEOUT = 'MCP SDK ErrorCode.RequestTimeout (-32001): no answer within the request timeout, the request was sent';

export const MCP_EVERYTHING_EXPECTED: ExpectedTable4 = {
  'mcp-everything.invalid-params-32602.read': {
    class: 'invalid_arguments',
    action: 'repair',
    harm: 'costly',
    source: `${INVALID_PARAMS} (get-sum: "a" is a string, the server wants a number)`,
  },
  'mcp-everything.invalid-params-32602.write': {
    class: 'invalid_arguments',
    action: 'repair',
    applied: 'no',
    harm: 'costly',
    source: `${INVALID_PARAMS}; DESIGN.md "Facts, not libraries": a refusal is a refusal, nothing applied (echo untrusted: a write)`,
  },
  'mcp-everything.request-timeout-32001.read': {
    class: 'transient',
    action: 'retry',
    harm: 'costly',
    source: `${TIMEOUT}; a read-only tool (trusted readOnlyHint): DESIGN.md Phases, an unknown outcome of a read may be retried → transient → retry`,
  },
  'mcp-everything.request-timeout-32001.write': {
    class: 'outcome_unknown',
    action: 'reconcile',
    applied: 'maybe',
    harm: 'unsafe',
    source: `${TIMEOUT}; untrusted annotations make it a write: DESIGN.md Phases, a write whose answer never came back → outcome_unknown → reconcile`,
  },
};
