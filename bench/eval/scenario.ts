/**
 * What a scenario of the recovery eval is: a scripted goal (the scripted planner's format,
 * activities/planners/scripted.ts) run under each policy, the faults it arranges in the real services for one
 * seed, the oracle that says when a failed dispatch could have been retried with success, and the judge that
 * reads the end state from the services' own rows. The scenarios are in bench/eval/scenarios/.
 */
import type { CredentialBroker } from '../../activities/credentials';
import type { CalendarService } from '../../examples/calendar-service';
import type { Fault, LedgerService } from '../../examples/ledger-service';
import type { Pool } from 'pg';
import type { CredentialSlot } from './credential-tools';
import type { PgFaults } from './pg-tools';
import type { Lookup, RunRecorder } from './recorder';
import type { Dispatch, PolicyName } from './scoring';
import type { WorldService } from './world-service';

/** One call of a script: the scripted planner's format (activities/planners/scripted.ts, `ScriptedGoalSchema`). */
export interface ScriptCall {
  tool: string;
  args?: unknown;
  fixes?: Record<string, unknown>[];
}

/** One goal's script, checked by `ScriptedGoalSchema` when the planner reads it. */
export interface Script {
  on?: Record<string, string>;
  steps: (ScriptCall & { id?: string; alternatives?: ScriptCall[]; on?: Record<string, string> })[];
  submit: { result: unknown } | { resultFrom: string };
}

/** The services and hooks a scenario arranges its faults in. */
export interface EvalEnv {
  world: WorldService;
  ledger: LedgerService;
  calendar: CalendarService;
  recorder: RunRecorder;
  pool: Pool;
  pgFaults: PgFaults;
  /** A credential slot of its own for the run. @throws Error when none is left. */
  takeSlot(): CredentialSlot;
  /** The ledger's first write under this run's operation ids suffers `fault`. */
  armLedgerFault(runId: string, fault: Fault): void;
  /** The world's first `POST /emails` to `recipient` commits, then suffers `fault` (a lost or a late answer, ms). */
  armEmailFault(recipient: string, fault: 'destroy' | number): void;
  /** The credential broker of the worker a policy's runs execute on. */
  brokerFor(policy: PolicyName): CredentialBroker;
}

export interface RunContext {
  /** The workflow id, unique per run. */
  runId: string;
  /** The fault schedule's seed: the same for the three policies. */
  seed: number;
  /** A PRNG seeded with `seed` (the same draws under every policy). */
  random: () => number;
  /** Unique per run across the eval: for ids of its own (`R-<index>`, a day of its own). */
  index: number;
  policy: PolicyName;
  env: EvalEnv;
}

/** How a run ended, as the driver saw it. */
export interface RunOutcome {
  status: 'submitted' | 'no_submission' | 'stopped' | 'escalated' | 'failed';
  result?: unknown;
  /** Why the run ended without a submission, in its own words (the router's `reason`, a baseline's last error). */
  reason?: string;
  /** Client-side start and end of the workflow, ms since the epoch. */
  startMs: number;
  endMs: number;
  dispatches: Dispatch[];
  lookups: Lookup[];
  /** The router's action per call (`ok` for a success); [] for the baselines. */
  actions: string[];
}

/** The judge's reading of a run. */
export interface Verdict {
  /** The end state is the oracle's, and the run reported it truthfully. */
  correct: boolean;
  /** The rows the judge read, in words. */
  finalState: string;
  /** Side-effect rows beyond those the goal needs. */
  duplicateSideEffects: number;
  /** When the correct action happened (a dispatch or lookup ended, or the run ended), ms since the epoch. */
  correctActionAtMs: number | null;
}

export interface PreparedRun {
  goal: string;
  script: Script;
  /** Arms the faults for this run (before it starts). */
  arrange?(): Promise<void> | void;
  /** Reads what the judge needs asynchronously (a database), after the run and before `judge`. */
  settle?(): Promise<void>;
  /** When a retry of failed dispatch `d` could first succeed, ms since the epoch; null when never. */
  curedAtMs(d: Dispatch): number | null;
  judge(o: RunOutcome): Verdict;
}

export interface Scenario {
  name: string;
  /** The failure class, or the way the world changes mid-run. */
  exercises: string;
  description: string;
  /** Retrying cannot cure its failure: the tax of a retry policy is measured on these. */
  persistent: boolean;
  /** Actions the router's records must include (`ok` for a success), besides the judge's verdict. */
  routerActions: readonly string[];
  prepare(run: RunContext): PreparedRun;
}

/** The same reactions for every scenario: fix the fields on repair, take the next alternative on replan/reject. */
export const REACTIONS = { repair: 'fix_fields', replan: 'next_alternative', reject: 'next_alternative' } as const;

/** End of the last successful dispatch of `tool`, or null. */
export function lastSuccessEnd(o: RunOutcome, tool: string): number | null {
  const ok = o.dispatches.filter((d) => d.tool === tool && d.failure === undefined);
  return ok.length === 0 ? null : Math.max(...ok.map((d) => d.endMs));
}

/** End of the first lookup of `tool` that found the write applied, or null. */
export function appliedLookupEnd(o: RunOutcome, tool: string): number | null {
  const hit = o.lookups.find((l) => l.tool === tool && l.kind === 'lookup' && l.state === 'applied');
  return hit ? hit.endMs : null;
}

/** End of the first `verify` of `tool` that found its postcondition holding, or null. */
export function holdsVerifyEnd(o: RunOutcome, tool: string): number | null {
  const hit = o.lookups.find((l) => l.tool === tool && l.kind === 'verify' && l.state === 'holds');
  return hit ? hit.endMs : null;
}

/**
 * A goal reached: the run submitted a result `matches` accepts and, for a write, `rows` is the one row the goal
 * needs (a read has no `rows`). The correct action is the moment the dispatch (or lookup) that made it true ended.
 */
export function judgeSuccess(
  o: RunOutcome,
  want: { matches: (result: unknown) => boolean; rows?: number; what: string; at: number | null },
): Verdict {
  const right = o.status === 'submitted' && want.matches(o.result);
  const correct = right && (want.rows === undefined || want.rows === 1);
  const state =
    want.rows === undefined ? `${right ? 'the right' : 'no right'} ${want.what}` : `${want.rows} ${want.what}`;
  return {
    correct,
    finalState: `${state}; ${o.status}`,
    duplicateSideEffects: Math.max(0, (want.rows ?? 0) - 1),
    correctActionAtMs: correct ? want.at : null,
  };
}

/**
 * An honest ending without the goal: nothing written (`rows` 0) and the run did not claim success — the router's
 * `expected` status, or `failed` for a baseline (it has no other). The correct action is the run's end.
 */
export function judgeHonestEnd(
  o: RunOutcome,
  want: { routerStatus: RunOutcome['status']; rows: number; what: string },
): Verdict {
  const ended = o.actions.length === 0 ? o.status === 'failed' : o.status === want.routerStatus;
  const correct = ended && want.rows === 0;
  return {
    correct,
    finalState: `${want.rows} ${want.what}; ${o.status}`,
    duplicateSideEffects: Math.max(0, want.rows - 1),
    correctActionAtMs: correct ? o.endMs : null,
  };
}

/** `value` has each of `fields` equal to `expected`'s. */
export function hasFields(value: unknown, expected: Record<string, unknown>): boolean {
  if (typeof value !== 'object' || value === null) return false;
  return Object.entries(expected).every(
    ([k, v]) => JSON.stringify((value as Record<string, unknown>)[k]) === JSON.stringify(v),
  );
}

/** A persistent failure: a retry can never succeed. */
export const never = (): null => null;
