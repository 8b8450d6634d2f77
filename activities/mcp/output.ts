/**
 * What a successful MCP tool call returns to the workflow, and its schema: `{ content, structuredContent? }`,
 * `structuredContent` checked against the tool's `outputSchema` when it declares one (MCP spec 2025-11-25,
 * "Tools → Output Schema": "Servers MUST provide structured results that conform to this schema"), so a malformed
 * result is `invalid_result` (route: reject).
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { zodFromJsonSchema } from './json-schema';

/** What a successful MCP tool call returns to the workflow. */
export interface McpToolOutput {
  content: { type: string; [field: string]: unknown }[];
  /** The tool's `structuredContent`; present when the tool declares an `outputSchema`. */
  structuredContent?: unknown;
}

/** A content block: `type` plus its fields (`text`, `data` + `mimeType`, `resource`, …), kept as the server sent. */
const ContentBlockSchema = z.looseObject({ type: z.string() });

/** The output schema of `tool` (built when the tool is declared, on the Node side). */
export function outputSchemaOf(tool: Pick<Tool, 'outputSchema'>) {
  const structured = tool.outputSchema ? zodFromJsonSchema(tool.outputSchema) : undefined;
  return z.object({
    content: z.array(ContentBlockSchema),
    structuredContent: structured ?? z.record(z.string(), z.unknown()).optional(),
  });
}
