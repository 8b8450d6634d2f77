/**
 * What every step of a call reads: the router's options and state (`RouterContext`), and the call's own scope
 * (`CallScope`: one object instead of loose variables). Small helpers over them: budgets, versions, scopes.
 * Sandbox-safe.
 */
import type { BackoffPolicy } from '../../recovery/backoff';
import { spend, type BudgetKind, type ExhaustedBudget } from '../../recovery/budgets';
import type { ToolFailure } from '../../recovery/failure';
import type { EvidenceKind } from '../../recovery/gate';
import type { RecoveryRecord } from '../../recovery/records';
import type { RecoveryAction } from '../../recovery/routes';
import { permittedCapabilities, type Capability, type ToolSpec } from '../../recovery/tool-spec';
import type { ApprovalDesk } from '../approvals';
import type { ApprovalGrant } from '../definitions';
import type { ReconcileResult } from '../reconcile';
import type { ReconcileOptions } from '../reconcile-call';
import { own } from '../router-helpers';
import type { TraceStep } from './trace';
import type { ToolRouterOptions, ToolRouterState } from '../tool-router-types';

/** The router of one workflow run. */
export interface RouterContext {
  /** The run's options over the worker's (workflows/worker-supplied.ts). */
  readonly options: ToolRouterOptions & { catalog: readonly ToolSpec[] };
  /** Mutable: each step replaces the parts it changes (the ledgers are immutable values). */
  readonly st: ToolRouterState;
  readonly catalog: ReadonlyMap<string, ToolSpec>;
  readonly scopes: readonly string[];
  readonly backoff: BackoffPolicy;
  readonly approvals: ApprovalDesk;
  readonly reconcile: ReconcileOptions;
  /** Reconciliations running in this run, by operation_id: a second one of the same operation joins the first. */
  readonly reconciliations: Map<string, Promise<ReconcileResult>>;
}

/** One call to `callTool`, from its start to its outcome. */
export interface CallScope {
  /** The tool name as given when it is a string, else `shownName`. */
  readonly name: string;
  /** The name was a string (only then can it name a tool). */
  readonly nameIsString: boolean;
  /** The name as records and messages show it: at most 64 characters, `(no name)` for an empty or odd one. */
  readonly shownName: string;
  readonly turn: number;
  /** `t<turn>:<name>`: counts the tool's successes in the turn (default step ids). */
  readonly successKey: string;
  readonly stepId: string;
  readonly callId: string;
  readonly diagnosticRef: string;
  /** Workflow time when the call started, ms since the epoch. */
  readonly startedAtMs: number;
  /** The replan this call follows, if it is the first call after one. */
  readonly afterReplan: ToolRouterState['pendingReplan'];
  args: unknown;
  /** `<workflowId>:<stepId>`, then `~n` for the n-th different arguments of the step. */
  operationId: string;
  /** Set once the capability check passed. */
  spec?: ToolSpec;
  /** sha256 of the canonical arguments the tool sees; set once they were hashed. */
  hash?: string;
  /** Activity attempts (server-side retries included) and activities scheduled. */
  attempts: number;
  activities: number;
  /** The change evidence that let the last re-execution run. */
  evidence?: EvidenceKind;
  /** The last failure this call recovered from by re-executing, and how: shown on its success record. */
  recovered?: { failure: ToolFailure; action: RecoveryAction };
  /** The approval this call runs with, after a 403 a person approved. */
  approval?: ApprovalGrant;
  /** The credential was refreshed for this call (one refresh per call). */
  reauthed: boolean;
  /** Workflow-side retries of a write refused before it was sent. */
  workflowRetries: number;
  /**
   * An attempt of this write may have been applied (phase `commit_unknown`, or a duplicate key): a later failure of the
   * call is then an unknown outcome, reconciled, never reported failed (docs/DESIGN.md, "Phases").
   */
  maybeApplied?: boolean;
  /** The finished workflow-side steps of this call's recovery, for its spans (workflows/router/trace.ts). */
  traceSteps?: TraceStep[];
}

/** A scope whose tool passed the capability check and whose arguments were hashed. */
export type ReadyScope = CallScope & { spec: ToolSpec; hash: string };

export function spendUnit(
  ctx: RouterContext,
  kind: BudgetKind,
  callKey?: string,
): { allowed: boolean; exhausted?: ExhaustedBudget } {
  const r = spend(ctx.st.budgets, kind, callKey);
  ctx.st.budgets = r.ledger;
  return r.exhausted ? { allowed: r.allowed, exhausted: r.exhausted } : { allowed: r.allowed };
}

export function budgetsLeft(ctx: RouterContext, callKey: string): RecoveryRecord['budgetsLeft'] {
  const { budgets } = ctx.st;
  const p = budgets.policy;
  const c = budgets.calls.find((x) => x.key === callKey);
  return {
    retries: p.perCallRetries - (c?.retries ?? 0),
    repairs: p.perCallRepairs - (c?.repairs ?? 0),
    replans: p.perTurnReplans - budgets.turn.replans,
    runAttempts: p.perRunAttempts - budgets.run.attempts,
  };
}

/** The credential and grant versions a call of `tool` with arguments `hash` runs with now. */
export function versions(ctx: RouterContext, tool: string, hash: string) {
  return {
    credentialVersion: own(ctx.st.credentialVersions, tool),
    // Grants are per call (tool + args hash): a person's approval of one call is not an approval of another.
    grantVersion: own(ctx.st.grants, `${tool}|${hash}`),
  };
}

export function permitted(ctx: RouterContext, spec: ToolSpec): boolean {
  return spec.scope === undefined || ctx.scopes.includes(spec.scope);
}

export function capabilities(ctx: RouterContext): Capability[] {
  return permittedCapabilities(ctx.options.catalog, ctx.scopes);
}
