/**
 * `callTool` in workflow code: every tool call as a Temporal activity, every failure routed.
 *
 *   const router = createToolRouter({ grantedScopes: ['billing'] }); // the catalog and policy: the worker's
 *   router.startTurn();
 *   const out = await router.callTool('create_invoice', args);
 *   if (!out.ok) feedModel(out.feedback);
 *
 * A call (docs/DESIGN.md, "The loop"), each step in its own module under workflows/router/:
 *   1. preflight (preflight.ts) — the capability check (an unknown or ungranted tool is `capability_missing` with the
 *      permitted capabilities; nothing is dispatched), the arguments' canonical hash and the operation_id, then the
 *      Change-before-Retry gate against the records of this exact call;
 *   2. dispatch (dispatch.ts) — the `invokeTool` activity with options derived from the tool
 *      (recovery/activity-options.ts); Temporal owns the retries of replay-safe calls;
 *   3. recover (steps.ts decides, recoveries.ts performs) — the route table picks the action, a pure decision per
 *      action returns the next step as data and one effects loop performs it: re-auth and
 *      approval run the call again once with evidence, retry waits within budget, reconcile looks the write up;
 *      repair, replan and reject return feedback within budgets; spent budgets escalate (outcomes.ts).
 * Loops end on their own: spent repair budgets stop; an identical call refused after a replan is no progress; turns
 * in a row naming unknown tools escalate; a success with the same result twice is flagged `noProgress`.
 * It never throws for a routable failure (an exception escaping workflow code fails the workflow task, which is
 * retried, instead of ending the run); cancellation propagates.
 *
 * Sandbox-safe: imports only `@temporalio/workflow`, the pure core and types.
 */
import { proxyActivities, setHandler } from '@temporalio/workflow';
import { activityOptionsFor } from '../recovery/activity-options';
import { DEFAULT_BACKOFF_POLICY, type BackoffPolicy } from '../recovery/backoff';
import { startRun, startTurn } from '../recovery/budgets';
import { EMPTY_CALL_LEDGER } from '../recovery/call-ledger';
import { FailureClass, FailureReason } from '../recovery/failure';
import { RecoveryAction } from '../recovery/routes';
import type { ToolSpec } from '../recovery/tool-spec';
import { createApprovalDesk } from './approvals';
import { checkRouterOptions } from './router-options';
import { recoveryRecordsQuery } from './definitions';
import { capabilities, spendUnit, type ReadyScope, type RouterContext } from './router/context';
import { dispatched, dispatchFailed, startDispatch, type Dispatched, type ToolActivities } from './router/dispatch';
import { routed, runtimeFailure, succeed } from './router/outcomes';
import { checkCapability, gate, hashArguments, openCall } from './router/preflight';
import { sentBefore } from './router/intent';
import { recover } from './router/recoveries';
import { structuredCloneJson } from './router-helpers';
import { withWorkerDefaults } from './worker-supplied';
import type { CallToolOptions, ToolOutcome, ToolRouter, ToolRouterOptions, ToolRouterState } from './tool-router-types';

export type {
  CallTool,
  CallToolOptions,
  Reconciled,
  ToolOutcome,
  ToolRouter,
  ToolRouterBase,
  ToolRouterOptions,
  ToolRouterState,
} from './tool-router-types';
export type { ToolInput, ToolName, ToolOutput, ToolsIn } from './typed-tools';
export { isEmptyResult, MAX_ARGS_CHARS } from './router-helpers';

const DEFAULT_APPROVAL_TIMEOUT_MS = 24 * 60 * 60 * 1000;

/**
 * Creates the router and registers its approval handlers and the records query. Call once per workflow run.
 * @throws ApplicationFailure `invalid_input` (non-retryable: the run fails, naming the field) when `options` are
 *   malformed (workflows/router-options.ts).
 */
export function createToolRouter<T = unknown>(options: ToolRouterOptions = {}): ToolRouter<T> {
  checkRouterOptions(options);
  return buildToolRouter(options) as ToolRouter<T>;
}

/**
 * `createToolRouter` for options already checked (the plugin's workflows check their own inputs).
 * @throws ApplicationFailure `invalid_input` when neither `given` nor the worker has a catalog (worker-supplied.ts).
 */
export function buildToolRouter(given: ToolRouterOptions): ToolRouter {
  const options = withWorkerDefaults(given, 'createToolRouter options');
  const searchAttributes = options.searchAttributes ?? true;
  const ctx: RouterContext = {
    options,
    // A state carried without an intent is of a chain begun on the old keys (./router/intent.ts).
    st: options.restore ? { intent: '', ...structuredCloneJson(options.restore) } : freshState(options),
    catalog: new Map(options.catalog.map((t) => [t.name, t])),
    scopes: options.grantedScopes ?? [],
    backoff: { ...DEFAULT_BACKOFF_POLICY, ...options.backoff },
    approvals: createApprovalDesk({
      timeoutMs: options.approvalTimeoutMs ?? DEFAULT_APPROVAL_TIMEOUT_MS,
      holdMs: options.approvalHoldMs ?? 0,
      searchAttributes,
    }),
    reconcile: { searchAttributes, ...options.reconcile },
    reconciliations: new Map(),
  };
  setHandler(recoveryRecordsQuery, () => ctx.st.records);
  const startTurnNow = () => {
    ctx.st.budgets = startTurn(ctx.st.budgets, { keepCalls: options.stepBudgetsAcrossTurns === true });
  };

  async function callTool(name: string, args: unknown, callOptions: CallToolOptions = {}): Promise<ToolOutcome> {
    if (ctx.st.budgets.turn.index === 0) startTurnNow();
    const scope = openCall(ctx, name, args, callOptions);
    const early = checkCapability(ctx, scope) ?? hashArguments(ctx, scope as ReadyScope);
    if (early) return early;
    const ready = scope as ReadyScope;
    // A write an earlier attempt or run may have sent is looked up first (./router/intent.ts), before the gate.
    const before = sentBefore(ctx, ready);
    const next = before ? await recover(ctx, ready, before) : { kind: 'end' as const, outcome: gate(ctx, ready) };
    if (next.kind === 'end' && next.outcome) return next.outcome;
    const { invokeTool } = proxyActivities<ToolActivities>(
      activityOptionsFor(ready.spec, ...policyFor(ctx, ready.spec)),
    );
    for (;;) {
      const room = spendUnit(ctx, 'attempt');
      if (!room.allowed) {
        const message = 'The run has used all the tool attempts it is allowed.';
        return routed(
          ctx,
          ready,
          runtimeFailure(ready, FailureClass.UNRECOVERABLE, FailureReason.UNSPECIFIED, message),
          {
            forceAction: RecoveryAction.ESCALATE,
            ...(room.exhausted ? { exhausted: room.exhausted } : {}),
          },
        );
      }
      // The activity awaited here, not in a helper: no promise beyond its own (docs/DESIGN.md, "Performance").
      const started = startDispatch(ctx, ready);
      let done: Dispatched;
      try {
        done = dispatched(ctx, ready, await invokeTool(started.input));
      } catch (err) {
        done = dispatchFailed(ctx, ready, started, err);
      }
      if (done.ok) return succeed(ctx, ready, done.value);
      const next = await recover(ctx, ready, done.attempt);
      if (next.kind === 'end') return next.outcome;
    }
  }

  return {
    startTurn: startTurnNow,
    callTool,
    callToolByName: callTool,
    capabilities: () => capabilities(ctx),
    records: () => ctx.st.records,
    state: () => structuredCloneJson(ctx.st),
  };
}

function freshState(options: ToolRouterOptions): ToolRouterState {
  return {
    budgets: startRun(options.budgets ?? {}),
    calls: EMPTY_CALL_LEDGER,
    grants: {},
    credentialVersions: {},
    successes: {},
    records: [],
  };
}

/** The budgets and backoff a tool's activity options derive from: the run's, with the tool's overrides. */
function policyFor(ctx: RouterContext, spec: ToolSpec): [ToolRouterState['budgets']['policy'], BackoffPolicy] {
  const overrides = ctx.options.toolOverrides ?? {};
  const override = Object.hasOwn(overrides, spec.name) ? overrides[spec.name] : undefined;
  return [
    { ...ctx.st.budgets.policy, ...override?.budgets },
    { ...ctx.backoff, ...override?.backoff },
  ];
}
