/**
 * A tool as workflow code sees it: plain, serializable data (no functions, no zod objects), so it can travel in
 * workflow input and history and be imported inside Temporal's sandbox. Built from a `defineTool` definition by
 * `toolSpec()` on the Node side (activities/define-tool.ts).
 */
import { shaped, type Infer } from './shape';

/** How a call carries its idempotency key (the operation_id), and whether the receiver deduplicates by it. */
export const idempotencySchema = shaped((s) =>
  s.discriminatedUnion('carrier', [
    s.object({ carrier: s.literal('none') }).strict(),
    s
      .object({
        carrier: s.literal('header'),
        /** Header name. @default "Idempotency-Key" (IETF draft-ietf-httpapi-idempotency-key-header) */
        name: s.string().min(1).default('Idempotency-Key'),
        /** The receiver stores and replays the first result for a repeated key, so replaying the same key is harmless. */
        deduplicates: s.boolean(),
      })
      .strict(),
    s
      .object({
        carrier: s.literal('field'),
        /** Argument field the key is written into. */
        name: s.string().min(1),
        deduplicates: s.boolean(),
      })
      .strict(),
    s
      .object({
        /**
         * No key travels: the arguments are their own key. The same call again has no further effect (an idempotent
         * operation: RFC 9110 §9.2.2; MCP `idempotentHint`, trusted), so replaying it is harmless.
         */
        carrier: s.literal('arguments'),
        deduplicates: s.literal(true),
      })
      .strict(),
  ]),
);
/**
 * How a call carries its idempotency key (the operation id) and whether the receiver deduplicates by it:
 * `none`, `header` (`ctx.http` sends it), `field` (written into an argument) or `arguments` (the call is its
 * own key). docs/tools.md, "Effects and idempotency".
 */
export type Idempotency = Infer<ReturnType<typeof idempotencySchema>>;

/**
 * A tool's name: 1 to 64 characters of [a-zA-Z0-9_.-] (the MCP tool-name rule). No `g` or `y` flag, so testing it
 * writes no `lastIndex` and it stays usable frozen (recovery/shape-base.ts).
 */
export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_.-]{1,64}$/;

/** Longest settle time or lookup lag a tool may declare, in ms (24 h: the default review timeout). */
export const MAX_COMMIT_WINDOW_MS = 86_400_000;

/** The shape of `ToolSpec` (recovery/shape.ts, built on first use). */
export const toolSpecSchema = shaped((s) =>
  s
    .object({
      name: s.string().regex(TOOL_NAME_PATTERN, 'tool names are 1-64 characters of [a-zA-Z0-9_.-]'),
      description: s.string().min(1),
      /** JSON Schema of the arguments (zod 4 `z.toJSONSchema`): what a planner sees. */
      inputSchema: s.record(s.string(), s.unknown()),
      effect: s.enum(['read', 'write']),
      idempotency: idempotencySchema(),
      /** The tool can answer `lookup(operationId)` with the terminal state of a write. */
      hasLookup: s.boolean(),
      /** The tool has a postcondition read (`verify(args)`): "already done" answers are checked, not replanned. */
      hasVerify: s.boolean().optional(),
      /** Permission a caller needs to execute it; discovery is not authorisation. `undefined` = no scope needed. */
      scope: s.string().min(1).optional(),
      /** A 403 from this tool can be lifted by a human approval (signal); otherwise a 403 stops. */
      approvalCanLift: s.boolean(),
      /** Activity StartToClose timeout, in ms. */
      startToCloseTimeoutMs: s.number().int().positive(),
      /** Activity heartbeat timeout, in ms; set for long tools so a stale attempt learns of its cancellation. */
      heartbeatTimeoutMs: s.number().int().positive().optional(),
      /** `commit.settleMs` of the definition: the longest a received request may take to commit, in ms. */
      settleMs: s.number().int().min(0).max(MAX_COMMIT_WINDOW_MS).optional(),
      /** `commit.lookupLagMs` of the definition: how late a commit may show in `lookup`, in ms (0: at once). */
      lookupLagMs: s.number().int().min(0).max(MAX_COMMIT_WINDOW_MS).optional(),
    })
    .strict(),
);
/**
 * A tool's serializable spec, as workflow code receives it from the worker (`toolCatalog`): name, description,
 * JSON Schema of the arguments, effect, idempotency, what it can reconcile with, activity timeouts in ms.
 */
export type ToolSpec = Infer<ReturnType<typeof toolSpecSchema>>;

/**
 * Re-executing the same call cannot apply a side effect twice: a read, or a write whose receiver deduplicates by
 * the idempotency key the call carries, which names the business intent, not one attempt (docs/DESIGN.md,
 * "Idempotency keys and operation ids").
 */
export function isReplaySafe(spec: Pick<ToolSpec, 'effect' | 'idempotency'>): boolean {
  return spec.effect === 'read' || (spec.idempotency.carrier !== 'none' && spec.idempotency.deduplicates);
}

/**
 * When a lookup's `not_applied` answer counts as final for this write, in ms after its attempt ended: the settle time
 * plus the lookup's lag. `undefined` when the tool declares either as unknown: then "not found" is never final, since
 * the first request may still commit or the lookup may still be behind (docs/DESIGN.md, "Reconcile"). A replay-safe
 * call needs no wait (0): replaying it cannot apply it twice.
 */
export function notFoundFinalAfterMs(
  spec: Pick<ToolSpec, 'effect' | 'idempotency' | 'settleMs' | 'lookupLagMs'>,
): number | undefined {
  if (isReplaySafe(spec)) return 0;
  return spec.settleMs === undefined || spec.lookupLagMs === undefined ? undefined : spec.settleMs + spec.lookupLagMs;
}

/** What a planner may see of a tool: name, description, input JSON Schema. */
export interface Capability {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

/**
 * The capabilities a caller holding `grantedScopes` may use, sorted by name: a replan shows the model only the
 * permission-filtered capabilities (docs/DESIGN.md, "Routes"). A tool without a scope is open to every caller.
 */
export function permittedCapabilities(catalog: readonly ToolSpec[], grantedScopes: readonly string[]): Capability[] {
  return catalog
    .filter((t) => t.scope === undefined || grantedScopes.includes(t.scope))
    .map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
