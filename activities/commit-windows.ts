/**
 * A tool's `commit` declaration (activities/define-tool.ts, `mcpTools`' overrides) as its spec carries it: `settleMs`
 * and `lookupLagMs`, integers of ms from 0 to `MAX_COMMIT_WINDOW_MS` (docs/DESIGN.md, "Reconcile").
 * Node-side only.
 */
import { z } from 'zod';
import { optionData, optionRules } from '../recovery/errors';
import { MAX_COMMIT_WINDOW_MS } from '../recovery/tool-spec';

const error = `must be an integer of ms from 0 to ${MAX_COMMIT_WINDOW_MS}`;
const ms = z.int({ error }).min(0, { error }).max(MAX_COMMIT_WINDOW_MS, { error }).optional();

/** `commit`: `{ settleMs?, lookupLagMs? }`, an unknown key refused by its name. */
export const commitSchema = optionRules(z).strictly(
  { settleMs: ms, lookupLagMs: ms },
  ['settleMs', 'lookupLagMs'],
  'must be an object { settleMs?, lookupLagMs? }',
);

/**
 * `commit`'s fields as the spec carries them (none when it is undefined).
 * @throws what `fail(message)` returns for a value `commitSchema` refuses, e.g. `commit.settleMs must be an integer…`.
 */
export function commitWindows(commit: unknown, fail: (message: string) => Error): z.infer<typeof commitSchema> {
  return optionData(commitSchema.optional().safeParse(commit), ['commit'], fail) ?? {};
}
