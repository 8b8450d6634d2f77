/**
 * The records the Change-before-Retry gate reads (recovery/gate.ts decides on them): the failed attempt, the
 * candidate call and the claimed change of evidence. Schemas are built on first use (recovery/lazy.ts). Pure: no I/O.
 */
import { toolFailureSchema } from './failure';
import type { ToolFailure } from './failure';
import { shaped } from './shape';

/** A lowercase sha256 hex digest, as `argsHash` (recovery/canonical.ts) writes one. No `g` flag: `test` keeps no state. */
export const SHA256_HEX = /^[0-9a-f]{64}$/;
const sha256Hex = shaped((s) => s.string().regex(SHA256_HEX, 'must be a lowercase sha256 hex digest (see argsHash)'));
/** A time in ms since the epoch, integer ≥ 0. */
const timeMs = shaped((s) => s.number().int().min(0));

/**
 * The attempt that failed.
 * - `argsHash`: `argsHash(args)` of its arguments (recovery/canonical.ts).
 * - `credentialVersion`: version of the credential it ran with, integer ≥ 0; a refresh bumps it.
 * - `grantVersion`: approvals granted for this exact call (tool + argsHash) when it ran, integer ≥ 0; absent = 0.
 * - `endedAtMs`: when it ended, ms since the epoch (workflow time).
 * - `earliestRetryAtMs`: `endedAtMs` + the backoff delay (`nextDelay(...).delayMs`, which already honours
 *   `Retry-After`); absent when no retry was scheduled. Must not be before `endedAtMs`.
 */
export const attemptRecordSchema = shaped((s) =>
  s
    .object({
      tool: s.string().min(1),
      argsHash: sha256Hex(),
      credentialVersion: s.number().int().min(0),
      grantVersion: s.number().int().min(0).optional(),
      failure: toolFailureSchema(),
      endedAtMs: timeMs(),
      earliestRetryAtMs: timeMs().optional(),
    })
    .strict()
    .superRefine((r, ctx) => {
      if (r.earliestRetryAtMs !== undefined && r.earliestRetryAtMs < r.endedAtMs) {
        ctx.addIssue({ path: ['earliestRetryAtMs'], message: 'cannot be before endedAtMs' });
      }
    }),
);
/** The call proposed next: its tool, argument hash, credential and grant versions. */
export type CandidateCall = Readonly<{
  tool: string;
  argsHash: string;
  credentialVersion: number;
  grantVersion?: number | undefined;
}>;

/**
 * One failed attempt of a call, as the gate reads it: the call (`CandidateCall`'s fields), the failure, when it
 * ended and the earliest retry (ms since the epoch).
 */
export type AttemptRecord = CandidateCall &
  Readonly<{ failure: ToolFailure; endedAtMs: number; earliestRetryAtMs?: number | undefined }>;

/** The external state a reconcile lookup found for the previous attempt's side effect. */
export const ExternalState = { APPLIED: 'applied', NOT_APPLIED: 'not_applied', UNKNOWN: 'unknown' } as const;
export type ExternalState = (typeof ExternalState)[keyof typeof ExternalState];

/**
 * What the recoverer claims has changed (docs/DESIGN.md, "The Change-before-Retry gate"). The gate verifies each
 * claim:
 * - `time_elapsed`: the backoff is over. Only after a retryable `transient` failure, once `nowMs ≥ earliestRetryAtMs`.
 * - `args_changed`: `candidate.argsHash` differs from the previous one.
 * - `credential_refreshed`: `candidate.credentialVersion` is greater. Only after `authentication` or `authorization`.
 * - `approval_granted`: `candidate.grantVersion` is greater: a person approved this exact call. Only after
 *   `authorization` (a 403 that approval can lift; docs/DESIGN.md, "Routes").
 * - `tool_changed`: `candidate.tool` differs (another tool, endpoint or path).
 * - `state_verified`: a lookup found the previous side effect `not_applied`. Only after `outcome_unknown`.
 */
export type ChangeEvidence = Readonly<
  | { kind: 'time_elapsed' | 'args_changed' | 'credential_refreshed' | 'approval_granted' | 'tool_changed' }
  | { kind: 'state_verified'; externalState: ExternalState }
>;
export type EvidenceKind = ChangeEvidence['kind'];
