/**
 * The options of `mcpTools` and their checks: every bad option is refused with an `McpAdapterError`
 * `invalid_options` whose message names the field and the rule.
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { McpClassifyHook, McpServerCodes } from './error-map';
import { McpAdapterError, McpAdapterErrorCode, notOffered } from './errors';
import type { McpLookup } from './lookup';
import { commitWindows } from '../commit-windows';

/** Overrides for one tool, by its name on the server (without the prefix). They win over the annotations. */
export interface McpToolOverride {
  /** The tool's effect, whatever its annotations say. */
  effect?: 'read' | 'write';
  /** Running the same call again has no further effect (replay-safe write). @default from `idempotentHint` when trusted */
  idempotent?: boolean;
  /**
   * The argument that carries the idempotency key: the activity writes the operation_id into it (the model never
   * sees or fills it; it is removed from the schema the planner gets).
   */
  idempotencyKey?: string;
  /** The server deduplicates by `idempotencyKey`: a replay with the same key is harmless. @default `idempotent` */
  deduplicates?: boolean;
  /** Finds the write by its operation_id on the same server, for reconcile (lookup.ts). */
  lookup?: McpLookup;
  /**
   * When the lookup's "not found" is final: the longest the server may take to commit a call it received, and for
   * the commit to show in the lookup, in ms (`defineTool`'s `commit`; docs/tools.md, "Lookups"). @default unset:
   * a "not found" is never final unless the tool deduplicates, and a person decides
   */
  commit?: { settleMs?: number; lookupLagMs?: number };
  /** A 403 from this tool can be lifted by a human approval. @default false */
  approvalCanLift?: boolean;
  /** Permission a caller needs for this tool. @default the server's `scope` */
  scope?: string;
}

/**
 * Options of `mcpTools`: which tools, their prefix, breaker key, timeouts in ms, scope, credential,
 * annotations' trust, error codes and per-tool overrides (docs/mcp.md, "Reference").
 */
export interface McpToolsOptions {
  /** Put before every tool name, e.g. `fs_` → `fs_read_text_file`. Names must stay 1-64 of [a-zA-Z0-9_.-]. @default '' */
  prefix?: string;
  /** Adopt only these tools (server names, without the prefix), in this order. @default every tool, server order */
  include?: readonly string[];
  /**
   * Trust the server's annotations (`readOnlyHint`, `idempotentHint`, `destructiveHint`) to decide each tool's
   * effect and replay safety (annotations.ts). Untrusted, every tool is a `write` that is never replayed after a
   * request that may have reached it. @default false (MCP: annotations are untrusted unless the server is)
   */
  trustAnnotations?: boolean;
  /** Circuit-breaker key shared by all of this server's tools. @default `mcp:<server name from initialize>` */
  downstream?: string;
  /**
   * Activity timeouts of every tool, in ms; `startToCloseMs` is also the MCP request timeout.
   * @default { startToCloseMs: 30_000 } (defineTool's default; the SDK's own request timeout is 60 s)
   */
  timeouts?: { startToCloseMs?: number; heartbeatMs?: number };
  /** Permission a caller needs for every tool of this server (see ToolDefinition.scope). */
  scope?: string;
  /**
   * The broker credential id every tool declares (the activity fetches it, refreshes it once on an
   * authentication failure, and the call presents it as the bearer token). Needs an HTTP `McpConnection`.
   * @default the connection's `credential.id`, if it has one
   */
  credential?: string;
  /** The server's own error codes, and a classify hook run after the table (error-map.ts). */
  errors?: McpServerCodes & { classify?: McpClassifyHook };
  /** Per-tool overrides, by the tool's name on the server. */
  tools?: Readonly<Record<string, McpToolOverride>>;
}

type Bad = (field: string, rule: string) => McpAdapterError;
const bad: Bad = (field, rule) =>
  new McpAdapterError(McpAdapterErrorCode.INVALID_OPTIONS, `mcpTools: \`${field}\` ${rule}`);
const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');
const optionalText = (v: unknown) => v === undefined || (typeof v === 'string' && v !== '');

/** @throws McpAdapterError `invalid_options` (see the module docs). */
export function checkOptions(o: McpToolsOptions): void {
  if (typeof o !== 'object' || o === null) throw bad('options', 'must be an object');
  if (o.prefix !== undefined && (typeof o.prefix !== 'string' || !/^[a-zA-Z0-9_.-]{0,32}$/.test(o.prefix))) {
    throw bad('prefix', 'must be at most 32 characters of [a-zA-Z0-9_.-]');
  }
  if (o.include !== undefined && !isStrings(o.include)) throw bad('include', 'must be an array of tool names');
  if (o.trustAnnotations !== undefined && typeof o.trustAnnotations !== 'boolean') {
    throw bad('trustAnnotations', 'must be a boolean');
  }
  if (!optionalText(o.downstream)) throw bad('downstream', 'must be a non-empty string');
  if (!optionalText(o.credential)) throw bad('credential', 'must be a non-empty string (a credential id)');
  const e = o.errors;
  if (e !== undefined) {
    if (typeof e !== 'object' || e === null) throw bad('errors', 'must be an object');
    for (const key of ['authCodes', 'transientCodes'] as const) {
      if (e[key] !== undefined && !isStrings(e[key])) throw bad(`errors.${key}`, 'must be an array of codes');
    }
    if (e.classify !== undefined && typeof e.classify !== 'function')
      throw bad('errors.classify', 'must be a function');
  }
  if (o.tools !== undefined && (typeof o.tools !== 'object' || o.tools === null || Array.isArray(o.tools))) {
    throw bad('tools', 'must be an object of overrides by tool name');
  }
  for (const [name, t] of Object.entries(o.tools ?? {})) checkOverride(`tools.${name}`, t);
}

function checkOverride(at: string, t: McpToolOverride): void {
  if (typeof t !== 'object' || t === null) throw bad(at, 'must be an object');
  if (t.effect !== undefined && t.effect !== 'read' && t.effect !== 'write')
    throw bad(`${at}.effect`, "must be 'read' or 'write'");
  for (const key of ['idempotent', 'deduplicates', 'approvalCanLift'] as const) {
    if (t[key] !== undefined && typeof t[key] !== 'boolean') throw bad(`${at}.${key}`, 'must be a boolean');
  }
  if (!optionalText(t.idempotencyKey)) throw bad(`${at}.idempotencyKey`, 'must be a non-empty argument name');
  if (!optionalText(t.scope)) throw bad(`${at}.scope`, 'must be a non-empty string');
  commitWindows(t.commit, (message) => bad(at, message));
  const l = t.lookup;
  if (l === undefined) return;
  if (typeof l !== 'object' || l === null || typeof l.tool !== 'string' || l.tool === '') {
    throw bad(`${at}.lookup`, 'must be { tool, key?, arguments?, found? } naming a tool of the same server');
  }
  if (!optionalText(l.key)) throw bad(`${at}.lookup.key`, 'must be a non-empty argument name');
  for (const fn of ['arguments', 'found'] as const) {
    if (l[fn] !== undefined && typeof l[fn] !== 'function') throw bad(`${at}.lookup.${fn}`, 'must be a function');
  }
  if (l.key === undefined && t.idempotencyKey === undefined && l.arguments === undefined) {
    throw bad(
      `${at}.lookup`,
      "needs `key`, the tool's `idempotencyKey` or `arguments`: how the lookup finds the operation",
    );
  }
  if (t.effect === 'read') throw bad(`${at}.lookup`, 'is for writes: a read has no operation to reconcile');
}

/**
 * Overrides that name what the server does not offer: a tool (overrides and lookups), or an idempotency key
 * that is not an argument of its tool.
 * @throws McpAdapterError `unknown_tool` / `invalid_tool`.
 */
export function checkAgainstServer(o: McpToolsOptions, byName: ReadonlyMap<string, Tool>): void {
  for (const [name, t] of Object.entries(o.tools ?? {})) {
    const tool = byName.get(name);
    if (!tool) throw notOffered(byName, `tools names "${name}"`);
    if (t.lookup && !byName.has(t.lookup.tool))
      throw notOffered(byName, `tools.${name}.lookup names "${t.lookup.tool}"`);
    const properties = (tool.inputSchema as { properties?: Record<string, unknown> }).properties;
    if (t.idempotencyKey !== undefined && properties && !(t.idempotencyKey in properties)) {
      throw new McpAdapterError(
        McpAdapterErrorCode.INVALID_TOOL,
        `mcpTools: tools.${name}.idempotencyKey names "${t.idempotencyKey}", which is not an argument of ${name} (its arguments: ${Object.keys(properties).join(', ')})`,
      );
    }
  }
}
