/**
 * One complete descriptor per recovery action (docs/DESIGN.md, "Routes"): what the model is told to do next, the
 * budget a call ending with it draws from and what it becomes when that budget is spent, the terminal state of its
 * record, how telemetry counts it, and its decision (./steps.ts). Each states its `nextStep` and `decide`, so the
 * compiler forces a new action's step; the other fields default to `USUAL`. Pure: no I/O.
 */
import type { BudgetKind } from './budgets';
import { TerminalState } from './records';
import { end, retry, type Decide, type Step } from './steps';

/** One action's descriptor: a row of `ACTIONS` (see the module docs). */
export interface ActionDescriptor {
  /** What the model is told to do next, one sentence (the feedback's `nextStep`). */
  readonly nextStep: string;
  /** The budget a call that ends with this action draws from, or `null`. */
  readonly budget: BudgetKind | null;
  /** What the call ends with instead when that budget is spent (`null` without a budget). */
  readonly whenBudgetSpent: 'stop' | 'escalate' | null;
  /** The call cannot go on by itself: the outcome is terminal. */
  readonly ends: boolean;
  /** The terminal state of the call's recovery record when its failure is routed to this action. */
  readonly terminal: TerminalState;
  /** Telemetry: the model was asked for another way (time to replan starts). */
  readonly asksForAnotherWay: boolean;
  /** Telemetry: a person was handed the call. */
  readonly escalates: boolean;
  /** The first step after a failure routed here, or `null`: the call ends with its route. Inline, it says `: Step`. */
  readonly decide: Decide | null;
}

const T = TerminalState;

/** The fields an action has unless it says otherwise: no budget, the call goes on, its record is fed back. */
const USUAL = {
  budget: null,
  whenBudgetSpent: null,
  ends: false,
  terminal: T.FED_BACK,
  asksForAnotherWay: false,
  escalates: false,
} as const satisfies Omit<ActionDescriptor, 'nextStep' | 'decide'>;

/** A descriptor from its `nextStep`, its `decide` (both required, so a new action names its step) and what differs. */
const action = (d: Pick<ActionDescriptor, 'nextStep' | 'decide'> & Partial<ActionDescriptor>): ActionDescriptor =>
  Object.freeze({ ...USUAL, ...d });

/** Every action's descriptor, by action. One table: `RecoveryAction` is its keys. */
export const ACTIONS = Object.freeze({
  /** Return field-level feedback; only a call with changed arguments may run (docs/DESIGN.md, "Routes"). */
  repair: action({
    nextStep: 'Fix the listed fields and call again with changed arguments; the same arguments will be refused.',
    budget: 'repair',
    whenBudgetSpent: 'stop',
    decide: null,
  }),
  /** Run the same call again after backoff, within budget (docs/DESIGN.md, "Routes"). */
  retry: action({
    nextStep: 'The runtime retries this call itself after a backoff; do not repeat it.',
    decide: retry,
  }),
  /** A trusted component refreshes the credential, then the call may run once more (docs/DESIGN.md, "Routes"). */
  reauth: action({
    nextStep: 'The runtime refreshed the credential and replays the call; do not repeat it.',
    /** One refresh per call (the broker's, single-flight), never a loop on a rotating refresh token: then a person. */
    decide: (call, { failure }): Step => {
      const escalate = end(failure, 'escalate', {
        message: 'The credential was refused even after a refresh; a person must re-authorise.',
      });
      return call.reauthed ? escalate : { kind: 'run_again', failure, action: 'reauth', otherwise: escalate };
    },
  }),
  /** Ask a human to approve; the call waits for a new grant (a missing permission; docs/DESIGN.md, "Routes"). */
  request_approval: action({
    nextStep: 'A person must approve this action; wait for the decision and do not try to work around it.',
    /** Ask for an approval bound to these exact arguments (workflows/router/steps.ts `afterApproval` decides on it). */
    decide: (call, { failure }): Step =>
      call.approved
        ? end(failure, 'stop', { message: 'The action is still forbidden after approval.' })
        : { kind: 'ask_person', failure },
  }),
  /** Tell the model what failed and what is available; it chooses another path (docs/DESIGN.md, "Routes"). */
  replan: action({
    nextStep:
      'Choose another way: another tool or changed arguments that fit the observed state, or stop and tell the user.',
    budget: 'replan',
    whenBudgetSpent: 'escalate',
    asksForAnotherWay: true,
    decide: null,
  }),
  /** Look the outcome up by idempotency key before anything is replayed (docs/DESIGN.md, "Reconcile"). */
  reconcile: action({
    nextStep: 'The outcome of this write is being verified by its idempotency key; do not issue it again.',
    terminal: T.RECONCILING,
    /** A child workflow looks the write up by operation_id. */
    decide: (_call, { failure }): Step => ({ kind: 'reconcile', failure }),
  }),
  /** Mark the observation failed; never pass the result on as success (docs/DESIGN.md, "Routes"). */
  reject: action({
    nextStep: 'The result was not usable and is not a fact; do not rely on it. Try another source or stop.',
    budget: 'replan',
    whenBudgetSpent: 'escalate',
    asksForAnotherWay: true,
    decide: null,
  }),
  /** Hand over to a human or operator; the run cannot fix this itself (docs/DESIGN.md, "Budgets and escalation"). */
  escalate: action({
    nextStep: 'This needs a person; stop and tell the user that it was handed over.',
    ends: true,
    terminal: T.ESCALATED,
    escalates: true,
    decide: null,
  }),
  /** Stop this path; a policy refusal is not something to get around (docs/DESIGN.md, "Routes"). */
  stop: action({
    nextStep: 'This action is not allowed; stop this path and tell the user honestly.',
    ends: true,
    terminal: T.STOPPED,
    decide: null,
  }),
});

/** What the runtime does next: a key of `ACTIONS`. A const object (`RecoveryAction.RETRY`) plus a type of the same name. */
export type RecoveryAction = keyof typeof ACTIONS;
/** The actions by name (`RecoveryAction.RETRY === 'retry'`), built from `ACTIONS`' keys: a new action needs no edit here. */
export const RecoveryAction = Object.freeze(
  Object.fromEntries(Object.keys(ACTIONS).map((a) => [a.toUpperCase(), a])),
) as { readonly [A in RecoveryAction as Uppercase<A>]: A };
export const RECOVERY_ACTIONS = Object.keys(ACTIONS) as [RecoveryAction, ...RecoveryAction[]];
