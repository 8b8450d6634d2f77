/**
 * Shadow mode's options (docs/shadow-mode.md): which of the worker's own activities the router watches, what each
 * one does to the world, and whether it only records what it would do (`shadow`) or applies it to Temporal's retry
 * (`enforce`, only for the activities listed). Checked with the plugin's other options (plugin/options.ts).
 * Node-side only.
 */
import type { Info } from '@temporalio/activity';
import { z } from 'zod';
import { backoffOverrideSchema, type BackoffPolicy } from '../../recovery/backoff';
import { lazy } from '../../recovery/lazy';
import { fromShape } from '../../config/from-shape';

/** `shadow`: classify and record, change nothing. `enforce`: apply the classification to the listed activities. */
export type ShadowMode = 'shadow' | 'enforce';

/** What a declared lookup found about a write whose outcome is unknown. */
export type ShadowLookupResult =
  | { state: 'applied'; value?: unknown }
  | { state: 'not_applied' }
  | { state: 'unknown' };

/** What one activity does, as its owner declares it. */
export interface ShadowActivityDeclaration {
  /**
   * `read`: running it again changes nothing. `write`: it changes the world, so a failure after its request may
   * have left is an unknown outcome. Undeclared, it is classified as a write (the safe side) but enforce never
   * turns its unknown outcomes into failures: only a declared write's.
   */
  effect?: 'read' | 'write';
  /** The receiver deduplicates the request by an idempotency key the activity sends: replaying it is safe. @default false */
  deduplicates?: boolean;
  /**
   * `enforce` only: looks the write up after an unknown outcome, before anything is replayed (docs/DESIGN.md,
   * "Reconcile"). `applied` → the activity completes with `value`; `not_applied` → the original error is thrown
   * unchanged and Temporal retries; `unknown` (or a lookup that throws) → the `outcome_unknown` failure.
   */
  lookup?: (call: { args: readonly unknown[]; info: Info }) => Promise<ShadowLookupResult>;
}

/** `RecoveryPluginOptions.shadow` and `ShadowPlugin`'s options. */
export interface ShadowOptions {
  mode: ShadowMode;
  /**
   * `shadow`: the activity types to watch. @default every activity of the worker but the plugin's own.
   * `enforce`: the activity types to enforce (at least one); every other activity of the worker is still watched
   * in shadow.
   */
  activities?: string[];
  /** Declarations by activity type. @default none: every activity's effect is unknown */
  declare?: Record<string, ShadowActivityDeclaration>;
  /**
   * The backoff whose jitter `enforce` adds on top of a `Retry-After` (recovery/backoff.ts; the floor is the
   * larger of the server's Retry-After and the exponential delay of the attempt). A Retry-After above
   * `maxRetryAfterMs` makes the failure non-retryable. @default the plugin's `backoff` (500 ms, ×2, 10 s, +20 %, 60 s)
   */
  backoff?: Partial<BackoffPolicy>;
}

const declaration = () =>
  z
    .object({
      effect: z.enum(['read', 'write'], { error: "must be 'read' or 'write'" }).optional(),
      deduplicates: z.boolean({ error: 'must be true or false' }).optional(),
      lookup: z.custom<unknown>((v) => typeof v === 'function', { error: 'must be a function' }).optional(),
    })
    .strict();

/** The schema of `ShadowOptions`. */
export const shadowOptionsSchema = lazy(() =>
  z
    .object({
      mode: z.enum(['shadow', 'enforce'], { error: "must be 'shadow' or 'enforce'" }),
      activities: z.array(z.string().min(1), { error: 'must be an array of activity type names' }).optional(),
      declare: z.record(z.string(), declaration(), { error: 'must be an object of declarations' }).optional(),
      backoff: fromShape(backoffOverrideSchema()).optional(),
    })
    .strict()
    .superRefine((o, ctx) => {
      if (o.mode === 'enforce' && (o.activities ?? []).length === 0) {
        ctx.addIssue({
          code: 'custom',
          path: ['activities'],
          message: "must name at least one activity type in mode 'enforce' (the others stay in shadow)",
        });
      }
    }),
);

/** What shadow mode does with an activity type: enforce it, watch it, or leave it alone (the plugin's own). */
export function scopeOf(options: ShadowOptions, activityType: string, own: ReadonlySet<string>): ShadowMode | 'skip' {
  if (own.has(activityType)) return 'skip';
  const listed = options.activities?.includes(activityType) ?? false;
  if (options.mode === 'enforce') return listed ? 'enforce' : 'shadow';
  return options.activities === undefined || listed ? 'shadow' : 'skip';
}
