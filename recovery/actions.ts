/**
 * One complete descriptor per recovery action (docs/DESIGN.md, "Routes"): what the model is told to do next, the
 * budget a call ending with it draws from and what it becomes when that budget is spent, the terminal state of its
 * record, and how telemetry counts it. A `Record` over every action, so the compiler forces each field of each new
 * action; the workflow's decisions are the other half (workflows/router/steps.ts `RECOVERIES`, also total).
 * Pure: no I/O.
 */
import type { BudgetKind } from './budgets';
import { TerminalState } from './records';
import { RecoveryAction } from './routes';

export interface ActionDescriptor {
  /** What the model is told to do next, one sentence (the feedback's `nextStep`). */
  readonly nextStep: string;
  /** The budget a call that ends with this action draws from, or `null`. */
  readonly budget: BudgetKind | null;
  /** What the call ends with instead when that budget is spent (`null` without a budget). */
  readonly whenBudgetSpent: RecoveryAction | null;
  /** The call cannot go on by itself: the outcome is terminal. */
  readonly ends: boolean;
  /** The terminal state of the call's recovery record when its failure is routed to this action. */
  readonly terminal: TerminalState;
  /** Telemetry: the model was asked for another way (time to replan starts). */
  readonly asksForAnotherWay: boolean;
  /** Telemetry: a person was handed the call. */
  readonly escalates: boolean;
}

const A = RecoveryAction;
const T = TerminalState;

/** Every action's descriptor. One table. */
export const ACTIONS: Readonly<Record<RecoveryAction, ActionDescriptor>> = Object.freeze({
  repair: {
    nextStep: 'Fix the listed fields and call again with changed arguments; the same arguments will be refused.',
    budget: 'repair',
    whenBudgetSpent: A.STOP,
    ends: false,
    terminal: T.FED_BACK,
    asksForAnotherWay: false,
    escalates: false,
  },
  retry: {
    nextStep: 'The runtime retries this call itself after a backoff; do not repeat it.',
    budget: null,
    whenBudgetSpent: null,
    ends: false,
    terminal: T.FED_BACK,
    asksForAnotherWay: false,
    escalates: false,
  },
  reauth: {
    nextStep: 'The runtime refreshed the credential and replays the call; do not repeat it.',
    budget: null,
    whenBudgetSpent: null,
    ends: false,
    terminal: T.FED_BACK,
    asksForAnotherWay: false,
    escalates: false,
  },
  request_approval: {
    nextStep: 'A person must approve this action; wait for the decision and do not try to work around it.',
    budget: null,
    whenBudgetSpent: null,
    ends: false,
    terminal: T.FED_BACK,
    asksForAnotherWay: false,
    escalates: false,
  },
  replan: {
    nextStep:
      'Choose another way: another tool or changed arguments that fit the observed state, or stop and tell the user.',
    budget: 'replan',
    whenBudgetSpent: A.ESCALATE,
    ends: false,
    terminal: T.FED_BACK,
    asksForAnotherWay: true,
    escalates: false,
  },
  reconcile: {
    nextStep: 'The outcome of this write is being verified by its idempotency key; do not issue it again.',
    budget: null,
    whenBudgetSpent: null,
    ends: false,
    terminal: T.RECONCILING,
    asksForAnotherWay: false,
    escalates: false,
  },
  reject: {
    nextStep: 'The result was not usable and is not a fact; do not rely on it. Try another source or stop.',
    budget: 'replan',
    whenBudgetSpent: A.ESCALATE,
    ends: false,
    terminal: T.FED_BACK,
    asksForAnotherWay: true,
    escalates: false,
  },
  escalate: {
    nextStep: 'This needs a person; stop and tell the user that it was handed over.',
    budget: null,
    whenBudgetSpent: null,
    ends: true,
    terminal: T.ESCALATED,
    asksForAnotherWay: false,
    escalates: true,
  },
  stop: {
    nextStep: 'This action is not allowed; stop this path and tell the user honestly.',
    budget: null,
    whenBudgetSpent: null,
    ends: true,
    terminal: T.STOPPED,
    asksForAnotherWay: false,
    escalates: false,
  },
} satisfies Record<RecoveryAction, ActionDescriptor>);
