/** Issue 38's MCP invalid params as a JSON-RPC error (fixture and cases: ./mcp-sdk-server.ts; expectations: ./mcp-sdk-server.expected.ts). */
import { ratchet4 } from './ratchet';

ratchet4('@modelcontextprotocol/sdk');
