/**
 * The shapes of the shared-mode options (docs/operating.md, "Shared mode: several workers"): `breaker` with
 * `shared: true`, and `credentialRefresh`; `shared: false` is local mode, checked as the local options. zod schemas
 * built on first use (recovery/lazy.ts); each message is the rule, for `formatOptionIssue` (recovery/errors.ts) to
 * prefix with the field, e.g. `breaker.cacheMs must be a finite number of ms ≥ 1 (got -1)`.
 */
import { z } from 'zod';
import { optionRules, shownValue } from '../recovery/errors';
import { lazy } from '../recovery/lazy';

const { positiveInteger, msAtLeast, strictly } = optionRules(z);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/** A strict object of `shape`: an unknown key's message names its keys, in order; `whole` when it is no object. */
const strictShape = (shape: z.core.$ZodLooseShape, whole: string) => strictly(shape, Object.keys(shape), whole);

/** Options both shared modes take: the entity workflows' client and task queue, and the bounds on waiting, ms. */
const sharedShape = () => ({
  shared: z.literal(true, { error: (iss) => `must be true or false (got ${shownValue(iss.input)})` }),
  client: z
    .custom((c) => isObject(c) && isObject(c.workflow), { error: 'must be a @temporalio/client Client' })
    .optional(),
  taskQueue: z
    .string({ error: 'must be a non-empty string' })
    .min(1, { error: 'must be a non-empty string' })
    .optional(),
  timeoutMs: msAtLeast(1),
  backoffMs: msAtLeast(1),
});

/** `breaker: { shared: true, threshold?, halfOpenAfterMs?, client?, taskQueue?, timeoutMs?, backoffMs?, cacheMs?, probeLeaseMs? }`. */
export const sharedBreakerOptionsSchema = lazy(() =>
  strictShape(
    {
      threshold: positiveInteger(),
      halfOpenAfterMs: msAtLeast(0),
      ...sharedShape(),
      cacheMs: msAtLeast(1),
      probeLeaseMs: msAtLeast(1),
    },
    'must be an object { shared: true, threshold?, halfOpenAfterMs?, timeoutMs?, … }',
  ),
);

/** `credentialRefresh: { shared: true, key: string | Uint8Array of ≥ 32 bytes, … }` (the key seals tokens in history). */
export const credentialRefreshOptionsSchema = lazy(() => {
  const KEY = 'needs at least 32 bytes';
  const bytes = (k: string | Uint8Array) => (typeof k === 'string' ? Buffer.byteLength(k) : k.length);
  return strictShape(
    {
      ...sharedShape(),
      key: z
        .union([z.string(), z.instanceof(Uint8Array)], { error: KEY })
        .refine((k) => bytes(k) >= 32, { error: KEY }),
      refreshLeaseMs: msAtLeast(1),
      refreshWaitMs: msAtLeast(1),
    },
    'must be an object { shared: true, key: string | Uint8Array of ≥ 32 bytes }',
  );
});

/** `breaker` or `credentialRefresh` with `shared` in it, other than `false`, is checked as shared, else as local. */
export function isShared(v: unknown): boolean {
  return isObject(v) && 'shared' in v && v.shared !== false;
}

/** `{ shared: false, …rest }` (local mode, said out loud) as its rest, to be checked as local options. */
export function localRest(v: unknown): unknown {
  if (!isObject(v) || v.shared !== false) return v;
  const { shared: _local, ...rest } = v;
  return rest;
}

/** `credentialRefresh: { shared: false }`: the local refresh; nothing else is an option then. */
export const localRefreshOptionsSchema = lazy(() =>
  strictly({}, ['shared'], 'must be an object { shared: true, key, … } or { shared: false }'),
);
