/**
 * What each case of the SDK's low-level server should route to: JSON-RPC 2.0 §5.1 (-32602 Invalid params: "Invalid
 * method parameter(s)"; an error response means the method did not run as asked), the MCP spec 2025-11-25 ("Tools →
 * Error Handling": invalid arguments are a protocol error), docs/mcp.md and docs/DESIGN.md.
 */
import type { ExpectedTable4 } from './cases';

const INVALID_PARAMS =
  'JSON-RPC 2.0 §5.1 -32602 Invalid params, as a JSON-RPC error response ("quantity must be between 1 and 100"): the server refused the arguments, the tool is not broken → invalid_arguments → repair (not a tool bug)';

export const MCP_SDK_SERVER_EXPECTED: ExpectedTable4 = {
  'mcp-sdk.jsonrpc-invalid-params-32602.read': {
    class: 'invalid_arguments',
    action: 'repair',
    harm: 'costly',
    source: INVALID_PARAMS.replace('quantity must be between 1 and 100', 'id must look like ord_123'),
  },
  'mcp-sdk.jsonrpc-invalid-params-32602.write': {
    class: 'invalid_arguments',
    action: 'repair',
    applied: 'no',
    harm: 'costly',
    source: `${INVALID_PARAMS}; an error code answered the call: nothing was applied`,
  },
};
