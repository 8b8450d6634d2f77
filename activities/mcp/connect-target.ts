/**
 * What `connectMcp` (connect.ts) connects to: a command to start (stdio) or a URL (HTTP), their options, and the
 * check that rejects a bad one with `McpAdapterError` `invalid_options` naming the field. Sources as in connect.ts.
 */
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CredentialBroker } from '../credentials';
import type { McpCredential } from './connection';
import { McpAdapterError, McpAdapterErrorCode } from './errors';

/** What every target may set. */
export interface McpTargetCommon {
  /** The client's name and version sent in `initialize`. @default { name: 'recovery-router', version: '0.1.0' } */
  clientInfo?: { name: string; version: string };
  /**
   * Open a new client (stdio: restart the process; HTTP: a new session) before the next call once the server went
   * away. False: calls fail as not sent ("Not connected") until you connect again. @default true
   */
  reconnect?: boolean;
  /** How long `initialize` may take, at connect and at each reconnect, in ms. @default 10_000 */
  connectTimeoutMs?: number;
}

/** How to start an MCP server over stdio. */
export interface McpServerCommand extends McpTargetCommon {
  /** The executable, e.g. `process.execPath` (node) or `npx`. */
  command: string;
  /** Its arguments. @default [] */
  args?: readonly string[];
  /**
   * Variables set for the server, on top of the SDK's short safe list (`HOME`, `LOGNAME`, `PATH`, `SHELL`, `TERM`,
   * `USER` on POSIX): the worker's own environment, with its secrets, is not passed on. @default {}
   */
  env?: Record<string, string>;
  /** Working directory of the server. @default the worker's */
  cwd?: string;
  /**
   * The server's stderr (its logs): `inherit` prints them with the worker's, `ignore` drops them.
   * @default 'inherit'
   */
  stderr?: 'inherit' | 'ignore';
}

/** How to reach a remote MCP server over HTTP. */
export interface McpServerUrl extends McpTargetCommon {
  /** The MCP endpoint, `http:` or `https:`, e.g. `https://mcp.example.com/mcp`. */
  url: string | URL;
  /**
   * `streamable-http` (MCP 2025-03-26 and later), `sse` (the HTTP+SSE transport of MCP 2024-11-05), or `auto`:
   * streamable HTTP, and SSE when the server answers the first POST with a 4xx other than 401/403.
   * @default 'auto'
   */
  transport?: 'auto' | 'streamable-http' | 'sse';
  /** Headers sent with every request (not `Authorization` when a credential is given). @default {} */
  headers?: Record<string, string>;
  /**
   * The broker's credential to present as `Authorization: Bearer <token>`: each tool call presents the token its
   * activity got (`ctx.credential`, so the replay after a refresh carries the new one), other requests the
   * broker's current token. A 401 at connect refreshes it once. Declare the same id on the server's tools
   * (`mcpTools` does, by default).
   */
  credential?: McpCredential;
  /**
   * The SDK's OAuth client provider instead of a broker credential: the SDK's transport then obtains and refreshes
   * tokens itself (its own 401 handling, not the broker's single-flight refresh). Not with `credential`.
   */
  authProvider?: OAuthClientProvider;
  /** The fetch underneath (a proxy agent, a test's). @default globalThis.fetch */
  fetch?: FetchLike;
}

/** Any server `connectMcp` can reach. */
export type McpServerTarget = McpServerCommand | McpServerUrl;

/** The server as an operator's message names it: the command line, or the URL without query or credentials. */
export function describe(target: McpServerTarget): string {
  if ('command' in target) return `"${[target.command, ...(target.args ?? [])].join(' ')}"`;
  const url = new URL(target.url);
  return `at ${url.origin}${url.pathname}`;
}

/**
 * Checks a target before anything is started.
 * @throws McpAdapterError `invalid_options`: ``connectMcp: `<field>` <rule>``.
 */
export function checkTarget(target: McpServerTarget): void {
  const bad = (field: string, rule: string) =>
    new McpAdapterError(McpAdapterErrorCode.INVALID_OPTIONS, `connectMcp: \`${field}\` ${rule}`);
  if (typeof target !== 'object' || target === null) {
    throw bad('server', 'must be an object { command, args? } (stdio) or { url } (HTTP)');
  }
  checkCommon(target, bad);
  if ('command' in target) return checkCommand(target, bad);
  if (!('url' in target)) throw bad('server', 'must have a `command` (stdio) or a `url` (HTTP)');
  checkUrl(target, bad);
}

type Bad = (field: string, rule: string) => McpAdapterError;

function checkCommon(t: McpTargetCommon, bad: Bad): void {
  if (t.reconnect !== undefined && typeof t.reconnect !== 'boolean') throw bad('reconnect', 'must be a boolean');
  const ms = t.connectTimeoutMs;
  if (ms !== undefined && (!Number.isInteger(ms) || ms < 1 || ms > 600_000)) {
    throw bad('connectTimeoutMs', 'must be an integer number of ms in 1..600000');
  }
  const info = t.clientInfo;
  if (info !== undefined && (typeof info?.name !== 'string' || typeof info.version !== 'string')) {
    throw bad('clientInfo', 'must be { name: string, version: string }');
  }
}

const isStringRecord = (v: unknown): v is Record<string, string> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && Object.values(v).every((x) => typeof x === 'string');

function checkCommand(server: McpServerCommand, bad: Bad): void {
  if (typeof server.command !== 'string' || server.command.trim() === '') {
    throw bad('command', 'must be a non-empty string (the executable to start)');
  }
  if (server.args !== undefined && (!Array.isArray(server.args) || server.args.some((a) => typeof a !== 'string'))) {
    throw bad('args', 'must be an array of strings');
  }
  if (server.env !== undefined && !isStringRecord(server.env)) throw bad('env', 'must be a record of strings');
  if (server.cwd !== undefined && (typeof server.cwd !== 'string' || server.cwd === '')) {
    throw bad('cwd', 'must be a non-empty string');
  }
  if (server.stderr !== undefined && server.stderr !== 'inherit' && server.stderr !== 'ignore') {
    throw bad('stderr', "must be 'inherit' or 'ignore'");
  }
}

function checkUrl(server: McpServerUrl, bad: Bad): void {
  let url: URL;
  try {
    url = new URL(server.url);
  } catch {
    throw bad('url', 'must be an absolute http: or https: URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw bad('url', 'must be an absolute http: or https: URL');
  const mode = server.transport;
  if (mode !== undefined && mode !== 'auto' && mode !== 'streamable-http' && mode !== 'sse') {
    throw bad('transport', "must be 'auto', 'streamable-http' or 'sse'");
  }
  if (server.headers !== undefined && !isStringRecord(server.headers)) {
    throw bad('headers', 'must be a record of strings');
  }
  const c = server.credential;
  if (c !== undefined) {
    if (!(c?.broker instanceof CredentialBroker) || typeof c.id !== 'string' || c.id === '') {
      throw bad('credential', 'must be { broker: CredentialBroker, id: string } (the id registered with the broker)');
    }
    if (server.authProvider !== undefined) throw bad('authProvider', 'cannot be given with `credential`: choose one');
    if (Object.keys(server.headers ?? {}).some((h) => h.toLowerCase() === 'authorization')) {
      throw bad('headers', 'cannot set Authorization when `credential` gives the token');
    }
  }
  if (server.fetch !== undefined && typeof server.fetch !== 'function') throw bad('fetch', 'must be a function');
}
