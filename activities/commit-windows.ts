/**
 * A tool's `commit` declaration (activities/define-tool.ts) as its spec carries it: `settleMs` and `lookupLagMs`,
 * integers of ms from 0 to `MAX_COMMIT_WINDOW_MS` (docs/DESIGN.md, "Reconcile").
 * Node-side only.
 */
import { MAX_COMMIT_WINDOW_MS } from '../recovery/tool-spec';

/** What a `commit` declaration may hold. */
const KEYS = ['settleMs', 'lookupLagMs'] as const;

/**
 * `commit`'s fields as the spec carries them (none when it is undefined).
 * @throws what `fail(message)` returns, for a value that is not an object of those keys with ints of ms in range.
 */
export function commitWindows(
  commit: unknown,
  fail: (message: string) => Error,
): { settleMs?: number; lookupLagMs?: number } {
  if (commit === undefined) return {};
  if (typeof commit !== 'object' || commit === null || Array.isArray(commit))
    throw fail('`commit` must be an object { settleMs?, lookupLagMs? }');
  const out: { settleMs?: number; lookupLagMs?: number } = {};
  for (const key of Object.keys(commit)) {
    if (!(KEYS as readonly string[]).includes(key))
      throw fail(`\`commit\` has an unknown key (known: ${KEYS.join(', ')})`);
    const v = (commit as Record<string, unknown>)[key];
    if (v === undefined) continue;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > MAX_COMMIT_WINDOW_MS)
      throw fail(`\`commit.${key}\` must be an integer of ms from 0 to ${MAX_COMMIT_WINDOW_MS}`);
    out[key as (typeof KEYS)[number]] = v;
  }
  return out;
}
