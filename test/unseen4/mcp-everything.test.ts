/** Issue 38's MCP cases on server-everything (fixture and cases: ./mcp-everything.ts; expectations: ./mcp-everything.expected.ts). */
import { ratchet4 } from './ratchet';

ratchet4('@modelcontextprotocol/server-everything');
