/**
 * The held-out "unseen library" cases of issue 28: real errors of client libraries that no table of this repository
 * names, provoked through each official client and routed by the real `invokeTool` activity. Shapes shared by every
 * library file (`<library>.ts`: fixture and cases; `<library>.expected.ts`: what each case should route to).
 */
import type { AnyTool } from '../../activities/define-tool';
import type { ToolClassifier } from '../../recovery/classify';
import type { FailureClass } from '../../recovery/failure';
import type { RecoveryAction } from '../../recovery/routes';

/** The tool's declared effect: a write's failure must say whether the write may have been applied. */
export type Effect = 'read' | 'write';

/**
 * What a case should route to, derived from docs/DESIGN.md's tables and the library's documentation — never from
 * what the router answers today.
 * - `applied` (writes only): `'maybe'` when the write may have been applied (outcome_unknown → reconcile, not
 *   replay-safe), `'no'` when the answer proves nothing was applied (replay-safe).
 * - `verify`: the refusal may mean "already done", so a tool with a postcondition must read it first
 *   (docs/DESIGN.md, "Already done is done"). Only set where the case's tool has `verify`.
 * - `source`: one line naming the rule (an RFC, a spec, the library's docs, a DESIGN.md section); where DESIGN.md
 *   is silent, what a Temporal user would expect, and it says so.
 */
export interface Expected {
  class: FailureClass;
  action: RecoveryAction;
  applied?: 'maybe' | 'no';
  verify?: boolean;
  source: string;
}

/** What the router answered for a case, in the same terms. */
export interface Got {
  class: FailureClass;
  reason: string;
  action: RecoveryAction;
  applied: 'maybe' | 'no';
  verify: boolean;
}

/** One provoked error: `run` calls the real client and must throw what the client throws. */
export interface UnseenCase {
  /** `<library>.<error>.<effect>`, unique across the set. */
  id: string;
  effect: Effect;
  run: () => Promise<unknown>;
  /** The tool has a postcondition read (`verify`) that answers this verdict. */
  verify?: 'holds' | 'does_not_hold';
  /** The tool's own classifier, as an adapter sets it (the MCP adapter's `mcpClassifier`); none for libraries. */
  classify?: ToolClassifier;
  /**
   * A tool an adapter declared (an MCP server's, by `mcpTools`), called with `args` instead of a tool around `run`:
   * its own schema, effect, idempotency and classifier hold. `run` is then unused.
   */
  tool?: { tool: AnyTool; args: Record<string, unknown> };
}

/** A library under test: its server (real, or a loopback speaking the documented wire format) and its cases. */
export interface UnseenLibrary {
  /** The npm package, exact version in package.json. */
  name: string;
  /** What kind of service: chat, mail, search, cache, queue, storage, model provider, CRM. */
  kind: string;
  /** The server the client talks to, in a few words. */
  server: string;
  /** Starts the server(s) and returns the cases and a stop function. */
  start(): Promise<{ cases: UnseenCase[]; stop: () => Promise<void> }>;
}

/** One measured case. */
export interface Row {
  library: string;
  id: string;
  effect: Effect;
  expected: Omit<Expected, 'source'>;
  got: Got | { error: string };
  ok: boolean;
}

/** Expected table of one library: case id → expectation. */
export type ExpectedTable = Readonly<Record<string, Expected>>;
