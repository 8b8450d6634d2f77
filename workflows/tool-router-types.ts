/**
 * The router's public shapes: its options, what `callTool` returns, and the state carried across continue-as-new.
 * Types only (workflows/tool-router.ts implements them). Sandbox-safe.
 */
import type { BackoffPolicy } from '../recovery/backoff';
import type { BudgetLedger, BudgetPolicy, ExhaustedBudget } from '../recovery/budgets';
import type { CallLedger } from '../recovery/call-ledger';
import type { ToolFailure } from '../recovery/failure';
import type { ModelFeedback } from '../recovery/feedback';
import type { RecoveryRecord } from '../recovery/records';
import type { RecoveryAction } from '../recovery/routes';
import type { OmittedValue } from '../recovery/bounds';
import type { Capability, ToolSpec } from '../recovery/tool-spec';
import type { ReconcileOptions } from './reconcile-call';
import type { ToolEffect, ToolInput, ToolName, ToolOutput } from './typed-tools';

/**
 * Options of `createToolRouter(options?)`: what belongs to the run (scopes, reconciliation, a restored state,
 * approval timings); budgets, backoff and per-tool overrides given here override the worker's field by field.
 * Checked first: a malformed option fails the run with a non-retryable `ApplicationFailure` of type
 * `invalid_input` naming the field.
 */
export interface ToolRouterOptions {
  /**
   * The tools this workflow may call (`toolCatalog(tools)` on the Node side). @default the worker's catalog, which a
   * bundle built with the plugin carries (docs/DESIGN.md, "Workflow code and the worker"); given, it replaces the
   * worker's catalog and policy (`budgets`, `backoff`, `toolOverrides`, `searchAttributes`) whole.
   */
  catalog?: readonly ToolSpec[];
  /** Scopes granted to this run; a tool with a scope outside them is not offered. @default [] */
  grantedScopes?: readonly string[];
  /** Budget limits; omitted fields take the worker's (temporal.config.json), then the design's defaults. */
  budgets?: Partial<BudgetPolicy>;
  /** Backoff policy; omitted fields take the defaults (recovery/backoff.ts). */
  backoff?: Partial<BackoffPolicy>;
  /**
   * How long an approval request waits for a decision before it expires and the call stops, in ms
   * (docs/approvals.md, "Lifecycle"). @default 86_400_000 (24 h)
   */
  approvalTimeoutMs?: number;
  /**
   * How long an approved call waits before it runs with the approval, in ms: until then the approval can be revoked
   * (`recovery.revokeApproval`). 0: it runs at once. @default 0
   */
  approvalHoldMs?: number;
  /**
   * Set the RecoveryStatus/RecoveryTool/RecoveryOperationId search attributes while a call waits for approval or
   * is reconciled (`plugin.workflowDefaults()` carries `false` from `RecoveryPlugin({ searchAttributes: false })`).
   * Needs them registered in the namespace. @default true
   */
  searchAttributes?: boolean;
  /** Per-tool overrides of `budgets` and `backoff` (temporal.config.json `tools.<name>`). */
  toolOverrides?: Record<
    string,
    { budgets?: Partial<BudgetPolicy> | undefined; backoff?: Partial<BackoffPolicy> | undefined }
  >;
  /** Lookup budget, lookup backoff and review timeout of reconciliations (workflows/reconcile.ts). */
  reconcile?: ReconcileOptions;
  /** State from `router.state()` of the previous run, after continue-as-new. */
  restore?: ToolRouterState;
  /**
   * Keep per-call budgets (retries, repairs; keyed by step id) across turns. For step ids that outlive a turn, as
   * agentWorkflow's (`<tool>#<n>`): a call repaired in one turn has fewer repairs left in the next. @default false
   */
  stepBudgetsAcrossTurns?: boolean;
}

/** Options of one `callTool`: the caller's call id and the stable step id the operation id is built from. */
export interface CallToolOptions {
  /**
   * The caller's id of this call (e.g. the model's tool_call id), 1 to 128 characters: records, outcomes, failures
   * and pending approvals carry it. @default the step id
   */
  callId?: string;
  /**
   * A stable id of the logical step. It keys the per-call budgets and derives the operation_id
   * (`<workflowId>:<stepId>`). @default `t<turn>:<tool>#<n>`, n = successful calls of that tool in the turn:
   * repeated attempts at one tool share a step until one succeeds.
   */
  stepId?: string;
}

/**
 * How a refused or unknown write was settled: found applied by lookup, replayed once after `not_applied`, replayed by a
 * reviewer, marked applied by a reviewer, or its postcondition found to hold already.
 */
export type Reconciled = 'lookup' | 'replay' | 'review_replay' | 'marked_applied' | 'already_satisfied';

/** What every outcome carries: the tool, the call's ids, and the attempts it took. */
interface OutcomeBase<N extends string> {
  tool: N;
  callId: string;
  operationId: string;
  /** Activity attempts, server-side retries included. */
  attempts: number;
  /** Activities the router scheduled for this call. */
  activities: number;
}

/** A success: `ended` says how, and `value` is what that way of ending has (docs/workflows.md, "What callTool returns"). */
interface Succeeded<N extends string> extends OutcomeBase<N> {
  ok: true;
  /** The value is a valid but empty result (e.g. an empty list): a success labelled as empty. */
  empty: boolean;
  /** The same call returned the same result NO_PROGRESS_REPEATS times: the plan makes no progress. */
  noProgress: boolean;
}

/** The tool ran (or a lookup found its write applied, or a replay ran it): `value` is its output, validated. */
export interface ToolRan<V = unknown, N extends string = string> extends Succeeded<N> {
  ended: 'ran';
  value: V;
  /** How an unknown write outcome was settled, when it was. */
  reconciled?: 'lookup' | 'replay' | 'review_replay';
}

/** A write that was applied but how, or with what, the router cannot give as the tool's output. */
export type ToolApplied<N extends string = string> = Succeeded<N> &
  (
    | { ended: 'marked_applied'; value: { resultRef: string }; reconciled: 'marked_applied' }
    | {
        ended: 'already_satisfied';
        value: { alreadySatisfied: true; state?: unknown };
        reconciled: 'already_satisfied';
      }
    | { ended: 'value_omitted'; value: OmittedValue; reconciled?: 'lookup' | 'replay' | 'review_replay' }
  );

/** A routed failure with the feedback for the model. */
export interface ToolFailed<N extends string = string> extends OutcomeBase<N> {
  ok: false;
  action: RecoveryAction;
  failure: ToolFailure;
  feedback: ModelFeedback;
  /** The run cannot go on by itself: stop, escalate, or a budget ran out. */
  terminal: boolean;
  /** The budget that ran out, when one did. */
  exhausted?: ExhaustedBudget;
  /** The gate refused the call: nothing was dispatched. */
  refused: boolean;
  /** An identical call was refused after a failure that asked for another way: the plan makes no progress. */
  noProgress: boolean;
}

/**
 * What `callTool` returns: a routed failure, or a success whose `ended` says how the call ended — `ran` (the tool's
 * output as `value`, typed `V`); for a write also `marked_applied` by a person (`{ resultRef }`), `already_satisfied`
 * (its postcondition held: `{ alreadySatisfied, state? }`) or `value_omitted` (applied; its result could not be carried:
 * the marker of recovery/bounds.ts). `N` is the tool's name and `E` its effect: a typed router's
 * (`createToolRouter<typeof tools>()`) are the tool's own, so a read's success is only `ran`.
 */
export type ToolOutcome<V = unknown, N extends string = string, E extends 'read' | 'write' = 'read' | 'write'> =
  | ToolRan<V, N>
  | ('write' extends E ? ToolApplied<N> : never)
  | ToolFailed<N>;

/** The router's state, plain JSON: carry it across continue-as-new with `restore`. */
export interface ToolRouterState {
  budgets: BudgetLedger;
  calls: CallLedger;
  /** tool → approvals granted; with the credential version it forms the grant version the gate compares. */
  grants: Record<string, number>;
  /** tool → the credential version last reported by the activity. */
  credentialVersions: Record<string, number>;
  /** step keys per turn: `t<turn>:<tool>` → successful calls. */
  successes: Record<string, number>;
  records: RecoveryRecord[];
  /** Records of earlier runs not carried across continue-as-new (workflows/router/compact.ts). */
  recordsOmitted?: number;
  /**
   * Turns in a row that named a tool this run cannot use, and the last of them (docs/DESIGN.md, "Budgets and
   * escalation"). Optional so that a state saved before it existed still restores.
   */
  unknownToolTurns?: { count: number; lastTurn: number };
  /**
   * step id → the argument hashes dispatched under it, first first. The first arguments of a step take the
   * operation_id `<workflowId>:<stepId>`; the n-th different arguments take `<workflowId>:<stepId>~<n>`, so one
   * idempotency key never stands for two different requests (a replan inside one step gets a fresh key; a retry or
   * reconciliation of the same arguments keeps its key). Optional so an older state still restores.
   */
  stepArgs?: Record<string, string[]>;
  /**
   * The intent a write's operation id names (docs/tools.md, "One intent, one key"; workflows/router/intent.ts): the run
   * id that began it, or `''` for a chain begun before intent keys (its keys stay `<workflowId>:<stepId>`). Absent
   * while no write asked for it, and when Temporal's facts cannot tell (a cron run's retry: its writes escalate).
   */
  intent?: string;
  /** Operation ids whose reconciliation is running; one left by an earlier run is reconciled again before anything. */
  reconciling?: string[];
  /** The last failure routed to replan/reject, until the next call starts (for `replanLatencyMs`). */
  pendingReplan?: { atMs: number; class: ToolFailure['class'] };
}

/**
 * A router. `T`, `typeof tools` (workflows/typed-tools.ts), types `callTool`: only a tool of `T` may be named, with
 * its input, and a success's `value` has its output type. Without `T`, `callTool` takes any name and arguments.
 */
export interface ToolRouter<T = unknown> extends ToolRouterBase {
  /** Runs a tool call; never throws for a routable failure. */
  callTool: CallTool<T>;
}

/** `callTool` of a router typed by `T`, or untyped (`T` unknown). */
export type CallTool<T> = unknown extends T
  ? (name: string, args: unknown, options?: CallToolOptions) => Promise<ToolOutcome>
  : <N extends ToolName<T>>(
      name: N,
      args: ToolInput<T, N>,
      options?: CallToolOptions,
    ) => Promise<ToolOutcome<ToolOutput<T, N>, N, ToolEffect<T, N>>>;

/** What every router has, typed or not: the interop adapters take it (workflows/interop). */
export interface ToolRouterBase {
  /** Opens the next turn: the per-turn replan budget starts again. */
  startTurn(): void;
  /**
   * Runs a call of a tool named at run time (a model's choice, an MCP server's tool, an interop framework's call):
   * `callTool` untyped. Never throws for a routable failure; an unknown name is `capability_missing`.
   */
  callToolByName(name: string, args: unknown, options?: CallToolOptions): Promise<ToolOutcome>;
  /** The tools this run may use, filtered by its scopes. */
  capabilities(): Capability[];
  /** Every recovery record so far. */
  records(): readonly RecoveryRecord[];
  /** A JSON copy of the state, for continue-as-new. */
  state(): ToolRouterState;
}
