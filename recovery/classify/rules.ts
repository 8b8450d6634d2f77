/**
 * What the router does with an error no fact speaks for, and how operators teach it (docs/DESIGN.md, "Facts, not
 * libraries": unknown is not a bug):
 * - `fingerprintOf(error)`: a stable fingerprint of an error — its class name, its code, its HTTP status and the
 *   shape of its message (digits, quoted values, hex and ids replaced) — so every occurrence of one kind of error
 *   has the same one, and no value of one occurrence leaks into it. Shown as `fp_<12 hex>`.
 * - `classify.rules` (temporal.config.json): rules matched by fingerprint, name, code, status or a message
 *   pattern, each giving a class and reason. The first rule that matches decides, over the built-in answer.
 * Pure: no I/O.
 */
import { FAILURE_CLASSES, FAILURE_REASONS, FailureClass, type FailureReason } from '../failure';
import { sha256Hex } from '../sha256';
import { shaped, type Infer } from '../shape';
import type { ToolClassifier, ToolClassifierAnswer } from './override';
import { errorChain } from './network';
import { readProp, readString } from './safe';
import { wrappedHttp } from './wrapped-http';

/** The readable parts of a fingerprint (operator-side: the log, the review), and its id. */
export interface Fingerprint {
  readonly id: string;
  readonly name: string;
  readonly code?: string;
  readonly status?: number;
  /** The message's shape, at most 120 characters, or `undefined` when it has none. */
  readonly shape?: string;
}

/** `text` with what varies between occurrences replaced: quoted values, numbers, hex, ids, URLs, e-mail addresses. */
export function messageShape(text: string): string {
  return text
    .slice(0, 2_000)
    .replace(/https?:\/\/\S+/g, '<url>')
    .replace(/\S+@\S+/g, '<email>')
    .replace(/(["'`])(?:(?!\1).){0,200}\1/g, '<q>')
    .replace(/\[[^\]]{0,200}\]/g, '<q>')
    .replace(/\b[0-9a-f]{8,}\b/gi, '<hex>')
    .replace(/\b[A-Za-z]+(?:_[A-Za-z0-9]+)*_[A-Za-z0-9]{6,}\b/g, '<id>')
    .replace(/\d+(?:\.\d+)?/g, '<n>')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 120);
}

/** The fingerprint of what a tool threw (see the module docs). Never throws. */
export function fingerprintOf(error: unknown): Fingerprint {
  const first = errorChain(error)[0];
  const ctor = readProp(readProp(first, 'constructor'), 'name');
  const name = readString(first, 'name') ?? (typeof ctor === 'string' ? ctor : typeof error);
  const rawCode = readProp(first, 'code');
  const code = typeof rawCode === 'string' || typeof rawCode === 'number' ? String(rawCode).slice(0, 64) : undefined;
  const status = wrappedHttp(error)?.status;
  const message = readString(first, 'message');
  const shape = message === undefined || message === '' ? undefined : messageShape(message);
  const key = JSON.stringify([name.slice(0, 64), code ?? null, status ?? null, shape ?? null]);
  const id = `fp_${sha256Hex(key).slice(0, 12)}`;
  return {
    id,
    name: name.slice(0, 64),
    ...(code === undefined ? {} : { code }),
    ...(status === undefined ? {} : { status }),
    ...(shape === undefined ? {} : { shape }),
  };
}

/**
 * One operator rule: `match` (every field given must hold; at least one) → `class` and `reason`. `message` is a
 * regular expression (case-insensitive) tested on the error's message. `applied: 'no'` says the error means the
 * call was refused (a write is then replay-safe); by default a write's transient class stays "may have been sent".
 */
export const classifyRuleSchema = shaped((s) =>
  s
    .object({
      match: s
        .object({
          fingerprint: s
            .string()
            .regex(/^fp_[0-9a-f]{12}$/, 'a fingerprint is fp_ and 12 hex digits')
            .optional(),
          name: s.string().min(1).max(64).optional(),
          code: s.string().min(1).max(64).optional(),
          status: s.number().int().min(100).max(599).optional(),
          message: s.string().min(1).max(200).refine(isRegExp, 'must be a valid regular expression').optional(),
        })
        .strict()
        .refine(
          (m) => Object.keys(m).length > 0,
          'a rule matches on at least one of fingerprint, name, code, status, message',
        ),
      class: s.enum(FAILURE_CLASSES),
      reason: s.enum(FAILURE_REASONS).optional(),
      applied: s.enum(['no', 'maybe']).optional(),
    })
    .strict(),
);
export type ClassifyRule = Infer<ReturnType<typeof classifyRuleSchema>>;

function isRegExp(source: string): boolean {
  try {
    new RegExp(source, 'i');
    return true;
  } catch {
    return false;
  }
}

/** True when `rule` matches `error` (whose fingerprint is `fp`). */
function matches(rule: ClassifyRule, error: unknown, fp: Fingerprint): boolean {
  const m = rule.match;
  if (m.fingerprint !== undefined && m.fingerprint !== fp.id) return false;
  if (m.name !== undefined && m.name !== fp.name) return false;
  if (m.code !== undefined && m.code !== fp.code) return false;
  if (m.status !== undefined && m.status !== fp.status) return false;
  if (m.message !== undefined) {
    const message = readString(errorChain(error)[0], 'message') ?? '';
    if (!new RegExp(m.message, 'i').test(message.slice(0, 2_000))) return false;
  }
  return true;
}

/** The first rule of `rules` that matches `error`, with its index; `undefined` when none does. */
export function ruleFor(
  rules: readonly ClassifyRule[],
  error: unknown,
): { rule: ClassifyRule; index: number } | undefined {
  if (rules.length === 0) return undefined;
  const fp = fingerprintOf(error);
  const index = rules.findIndex((r) => matches(r, error, fp));
  return index < 0 ? undefined : { rule: rules[index]!, index };
}

/**
 * The operators' rules as a tool classifier (recovery/classify/override.ts), over the built-in answer: the first
 * rule that matches what was thrown gives the class and reason; `applied: 'no'` makes the call replay-safe. A write
 * that may have been applied stays an unknown outcome unless its rule says `applied: 'no'` (docs/DESIGN.md,
 * "Phases"): a rule can teach the router what an error means, not that a write which may have landed did not.
 */
export function rulesClassifier(rules: readonly ClassifyRule[]): ToolClassifier {
  return (raw, _ctx, builtIn) => {
    if (raw.kind !== 'thrown') return undefined;
    const hit = ruleFor(rules, raw.error);
    if (!hit) return undefined;
    const mayHaveApplied = builtIn.class === FailureClass.OUTCOME_UNKNOWN && !builtIn.replaySafe;
    if (mayHaveApplied && hit.rule.applied !== 'no') return undefined;
    const answer: ToolClassifierAnswer = {
      class: hit.rule.class,
      reason: hit.rule.reason ?? ('unspecified' as FailureReason),
      publicMessage: `${builtIn.tool}: the error is one an operator rule names (classify.rules[${hit.index}]).`,
    };
    if (hit.rule.applied === 'no') answer.replaySafe = true;
    return answer;
  };
}
