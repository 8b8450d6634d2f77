/**
 * What an MCP tool's annotations decide: its effect (`read` / `write`) and whether running the same call again is
 * safe. ONE table (`ANNOTATION_RULES`), first match wins, each row citing the spec.
 *
 * Source: MCP spec 2025-11-25, "Tools → Tool annotations" (schema `ToolAnnotations`):
 * - `readOnlyHint` — "If true, the tool does not modify its environment." Default false.
 * - `destructiveHint` — "If true, the tool may perform destructive updates to its environment. If false, the tool
 *   performs only additive updates. (This property is meaningful only when `readOnlyHint == false`)" Default true.
 * - `idempotentHint` — "If true, calling the tool repeatedly with the same arguments will have no additional
 *   effect on its environment. (This property is meaningful only when `readOnlyHint == false`)" Default false.
 * - "Clients MUST consider tool annotations to be untrusted unless they come from trusted servers": nothing here
 *   is read unless the user trusts the server (`trustAnnotations: true`), and a tool override beats them all.
 * Pure: no I/O.
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';

/** What the annotations decide for one tool. */
export interface AnnotationDecision {
  readonly effect: 'read' | 'write';
  /** Running the same call (same arguments) again has no further effect: a write that is replay-safe by itself. */
  readonly idempotent: boolean;
  /** The row that decided. */
  readonly rule: string;
}

/** A tool's MCP annotations read as booleans (`undefined`: not given). */
type Hints = { readOnly: boolean | undefined; destructive: boolean | undefined; idempotent: boolean | undefined };

/** One row: a condition on the hints (given trust) and its decision. */
export type AnnotationRule = Readonly<{
  id: string;
  cite: string;
  /** Whether the row applies to these hints, given whether the server's annotations are trusted. */
  when: (h: Hints, trusted: boolean) => boolean;
  effect: 'read' | 'write';
  idempotent: boolean;
}>;

const SPEC = 'MCP spec 2025-11-25, "Tools → Tool annotations"';

/** The table. First match wins; the last row takes every tool. */
export const ANNOTATION_RULES: readonly AnnotationRule[] = Object.freeze(
  [
    {
      id: 'untrusted',
      cite: `${SPEC}: annotations are untrusted unless they come from trusted servers`,
      when: (_h: Hints, trusted: boolean) => !trusted,
      effect: 'write' as const,
      idempotent: false,
    },
    {
      id: 'contradiction',
      cite: `${SPEC}: a read-only tool does not modify its environment, so it cannot also be destructive`,
      when: (h: Hints) => h.readOnly === true && h.destructive === true,
      effect: 'write' as const,
      idempotent: false,
    },
    {
      id: 'read_only',
      cite: `${SPEC}: readOnlyHint true — the tool does not modify its environment`,
      when: (h: Hints) => h.readOnly === true,
      effect: 'read' as const,
      idempotent: true,
    },
    {
      id: 'idempotent_write',
      cite: `${SPEC}: idempotentHint true — the same arguments again have no additional effect`,
      when: (h: Hints) => h.idempotent === true,
      effect: 'write' as const,
      idempotent: true,
    },
    {
      id: 'write',
      cite: `${SPEC}: readOnlyHint defaults to false, idempotentHint to false, destructiveHint to true`,
      when: () => true,
      effect: 'write' as const,
      idempotent: false,
    },
  ].map((r) => Object.freeze(r)),
);

const bool = (v: unknown): boolean | undefined => (typeof v === 'boolean' ? v : undefined);

/** The decision for `tool` (see the module docs). */
export function decideAnnotations(tool: Pick<Tool, 'annotations'>, trusted: boolean): AnnotationDecision {
  const a = tool.annotations ?? {};
  const hints: Hints = {
    readOnly: bool(a.readOnlyHint),
    destructive: bool(a.destructiveHint),
    idempotent: bool(a.idempotentHint),
  };
  const rule = ANNOTATION_RULES.find((r) => r.when(hints, trusted)) ?? ANNOTATION_RULES[ANNOTATION_RULES.length - 1]!;
  return { effect: rule.effect, idempotent: rule.idempotent, rule: rule.id };
}
