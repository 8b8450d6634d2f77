/**
 * `callTool` in workflow code: every tool call as a Temporal activity, every failure routed.
 *
 *   const router = createToolRouter({ catalog, grantedScopes: ['billing'] });
 *   router.startTurn();
 *   const out = await router.callTool('create_invoice', args);
 *   if (!out.ok) feedModel(out.feedback);
 *
 * Per call (the design's seeds 000 and 004; the issue "callTool in workflow code"):
 *   1. capability check — an unknown tool, or one the caller's scopes do not grant, is `capability_missing` with
 *      the permission-filtered capability list; nothing is dispatched.
 *   2. the Change-before-Retry gate — an identical call (tool, canonical args hash, credential/grant version)
 *      after a failure runs again only with TRUE evidence from the records; otherwise it is refused without
 *      dispatch and counted against the budget of the failure's route.
 *   3. dispatch — the `invokeTool` activity with options derived from the tool (recovery/activity-options.ts);
 *      Temporal owns the retries of replay-safe calls.
 *   4. route — `routeFor(failure)`; re-auth and approved 403s re-execute once with evidence; repair, replan and
 *      reject return feedback within budgets; exhausted budgets escalate.
 *
 * Loops end on their own (cases C06, C07, C09, C10):
 *   - invalid arguments: each repair, and each refused identical call, spends the per-call repair budget (keyed by
 *     the step id); when it is spent the outcome is terminal with action `stop`.
 *   - an identical call refused after a failure routed to `replan` or `reject` is no progress (case C10: "stop after
 *     2 identical outcomes", the failure and its repeat): the outcome is terminal, action `stop`, `noProgress: true`.
 *     Without this a model re-issuing the call once per turn would never stop, since the replan budget is per turn.
 *   - unknown or not-granted tools (`capability_missing`): the turns in a row that named one are counted for the
 *     run (at most one per turn; a call to an available tool starts the count again). The turn that reaches
 *     `consecutiveUnknownToolTurns` (default 2) ends the run: action `escalate`, `exhausted:
 *     'consecutive_unknown_tool_turns'` (case C09: "stop after N=2 unknown-tool turns"). Inside one turn the
 *     per-turn replan budget bounds them.
 *   - a success whose identical (tool, args, result) was seen NO_PROGRESS_REPEATS times is flagged `noProgress`;
 *     the caller stops (toolPlanWorkflow does).
 * It never throws for a routable failure (case C09: an exception escaping workflow code fails the workflow task
 * and is retried, it does not end the run); cancellation propagates.
 *
 * Sandbox-safe: imports only `@temporalio/workflow`, the pure core and types.
 */
import {
  ApplicationFailure,
  isCancellation,
  log,
  proxyActivities,
  setHandler,
  sleep,
  workflowInfo,
} from '@temporalio/workflow';
import type { createToolActivities, ToolInvocationResult } from '../activities/invoke-tool';
import { activityOptionsFor } from '../recovery/activity-options';
import { DEFAULT_BACKOFF_POLICY, nextDelay, type BackoffPolicy } from '../recovery/backoff';
import { ExhaustedBudget, spend, startCall, startRun, startTurn, type BudgetKind } from '../recovery/budgets';
import {
  EMPTY_CALL_LEDGER,
  NO_PROGRESS_REPEATS,
  clearFailure,
  gateIdenticalCall,
  lastFailure,
  recordFailure,
  recordOutcome,
} from '../recovery/call-ledger';
import { argsHash, canonicalize, hashCanonical } from '../recovery/canonical';
import { isRecoveryInputError } from '../recovery/errors';
import { FailureClass, FailureReason, MAX_PUBLIC_MESSAGE_CHARS, Phase, type ToolFailure } from '../recovery/failure';
import { feedbackFor } from '../recovery/feedback';
import type { EvidenceKind } from '../recovery/gate';
import { TerminalState, type RecoveryRecord } from '../recovery/records';
import { RecoveryAction, routeFor } from '../recovery/routes';
import { publicObservedState } from '../recovery/observed-state';
import { isReplaySafe, permittedCapabilities, type Capability, type ToolSpec } from '../recovery/tool-spec';
import { fromActivityError } from './activity-failure';
import { createApprovalDesk } from './approvals';
import { isDuplicateKey, type ReconcileResult } from './reconcile';
import { reconcileCall, type ReconcileOptions } from './reconcile-call';
import { recoveryRecordsQuery, type ApprovalGrant } from './definitions';
import { telemetry } from './telemetry-sinks';
import { hashedArgs, isEmptyResult, MAX_ARGS_CHARS, outcomeDigest, own, structuredCloneJson } from './router-helpers';
import type { CallToolOptions, ToolOutcome, ToolRouter, ToolRouterOptions, ToolRouterState } from './tool-router-types';

export type { CallToolOptions, ToolOutcome, ToolRouter, ToolRouterOptions, ToolRouterState } from './tool-router-types';
export { isEmptyResult, MAX_ARGS_CHARS } from './router-helpers';

type ToolActivities = ReturnType<typeof createToolActivities>;

const DEFAULT_APPROVAL_TIMEOUT_MS = 24 * 60 * 60 * 1000;

/**
 * A conflict answering a re-execution under the same idempotency key, as what it may be: the first write landed.
 * Routed to reconcile, which looks it up before anything else (docs/DESIGN.md, "Reconcile").
 */
function landedMaybe(conflict: ToolFailure): ToolFailure {
  return {
    ...conflict,
    class: FailureClass.OUTCOME_UNKNOWN,
    phase: Phase.COMMIT_UNKNOWN,
    retryable: false,
    replaySafe: false,
    publicMessage:
      'A repeat of this write was refused as a duplicate of its idempotency key: the first one may have been applied.',
  };
}

/** Creates the router and registers its approval signal and queries. Call once per workflow run. */
export function createToolRouter(options: ToolRouterOptions): ToolRouter {
  const catalog = new Map(options.catalog.map((t) => [t.name, t]));
  const scopes = options.grantedScopes ?? [];
  const backoff: BackoffPolicy = { ...DEFAULT_BACKOFF_POLICY, ...options.backoff };
  const approvalTimeoutMs = options.approvalTimeoutMs ?? DEFAULT_APPROVAL_TIMEOUT_MS;
  const useSearchAttributes = options.searchAttributes ?? true;
  const reconcileOptions: ReconcileOptions = { searchAttributes: useSearchAttributes, ...options.reconcile };
  const st: ToolRouterState = options.restore
    ? structuredCloneJson(options.restore)
    : {
        budgets: startRun(options.budgets ?? {}),
        calls: EMPTY_CALL_LEDGER,
        grants: {},
        credentialVersions: {},
        successes: {},
        records: [],
      };
  const approvals = createApprovalDesk({ timeoutMs: approvalTimeoutMs, searchAttributes: useSearchAttributes });

  setHandler(recoveryRecordsQuery, () => st.records);

  const permitted = (spec: ToolSpec) => spec.scope === undefined || scopes.includes(spec.scope);
  const capabilities = () => permittedCapabilities(options.catalog, scopes);
  // Grants are per call (tool + args hash): a person's approval of one call is not an approval of another.
  const versions = (tool: string, hash: string) => ({
    credentialVersion: own(st.credentialVersions, tool),
    grantVersion: own(st.grants, `${tool}|${hash}`),
  });

  /** The operation_id of `hash` under `stepId` (see `ToolRouterState.stepArgs`). */
  function operationIdFor(base: string, stepId: string, hash: string): string {
    st.stepArgs ??= {};
    const seen = Object.prototype.hasOwnProperty.call(st.stepArgs, stepId) ? (st.stepArgs[stepId] ?? []) : [];
    let index = seen.indexOf(hash);
    if (index < 0) {
      index = seen.length;
      st.stepArgs[stepId] = [...seen, hash];
    }
    return index === 0 ? base : `${base}~${index + 1}`;
  }

  function startTurnNow(): void {
    st.budgets = startTurn(st.budgets, { keepCalls: options.stepBudgetsAcrossTurns === true });
  }

  function spendUnit(kind: BudgetKind, callKey?: string): { allowed: boolean; exhausted?: ExhaustedBudget } {
    const r = spend(st.budgets, kind, callKey);
    st.budgets = r.ledger;
    return r.exhausted ? { allowed: r.allowed, exhausted: r.exhausted } : { allowed: r.allowed };
  }

  function budgetsLeft(callKey: string): RecoveryRecord['budgetsLeft'] {
    const p = st.budgets.policy;
    const c = st.budgets.calls.find((x) => x.key === callKey);
    return {
      retries: p.perCallRetries - (c?.retries ?? 0),
      repairs: p.perCallRepairs - (c?.repairs ?? 0),
      replans: p.perTurnReplans - st.budgets.turn.replans,
      runAttempts: p.perRunAttempts - st.budgets.run.attempts,
    };
  }

  async function callTool(name: string, args: unknown, given: CallToolOptions = {}): Promise<ToolOutcome> {
    const callOptions: CallToolOptions = typeof given === 'object' && given !== null ? given : {};
    if (st.budgets.turn.index === 0) startTurnNow();
    const startedAtMs = Date.now();
    /** The name as records and messages show it: a model may send an empty, huge or non-string name. */
    const shownName = typeof name === 'string' && name !== '' ? name.slice(0, 64) : '(no name)';
    // Never a template string or String() of an untrusted name: `{ toString: 1 }` makes both throw.
    const toolName = typeof name === 'string' ? name : shownName;
    const turn = st.budgets.turn.index;
    const successKey = `t${turn}:${toolName}`;
    if (callOptions.stepId !== undefined && (typeof callOptions.stepId !== 'string' || callOptions.stepId === '')) {
      throw ApplicationFailure.nonRetryable('callTool: options.stepId must be a non-empty string', 'invalid_input');
    }
    const stepId = callOptions.stepId ?? `${successKey}#${own(st.successes, successKey)}`;
    if (
      callOptions.callId !== undefined &&
      (typeof callOptions.callId !== 'string' || callOptions.callId === '' || callOptions.callId.length > 128)
    ) {
      throw ApplicationFailure.nonRetryable('callTool: options.callId must be 1 to 128 characters', 'invalid_input');
    }
    const callId = callOptions.callId ?? stepId;
    let operationId = `${workflowInfo().workflowId}:${stepId}`;
    const diagnosticRef = `${workflowInfo().workflowId}/${callId}`;
    // The ledger holds the calls started in this turn (and, with stepBudgetsAcrossTurns, in earlier ones).
    if (!st.budgets.calls.some((c) => c.key === stepId)) st.budgets = startCall(st.budgets, stepId);
    let attempts = 0;
    let activities = 0;
    let evidence: EvidenceKind | undefined;
    /** The last failure this call recovered from by re-executing, and how: shown on its success record. */
    let recovered: { failure: ToolFailure; action: RecoveryAction } | undefined;
    const afterReplan = st.pendingReplan;
    delete st.pendingReplan;

    /**
     * Writes the call's recovery record: kept in state (query `recovery.records`), logged through Temporal's
     * workflow logger (one structured line, with the workflow's id and run id added by the SDK; not during
     * replay), and handed to the telemetry sink (metrics).
     */
    const record = (
      terminal: RecoveryRecord['terminal'],
      failure?: ToolFailure,
      action?: RecoveryAction,
      exhausted?: ExhaustedBudget,
    ) => {
      const r: RecoveryRecord = {
        callId,
        tool: shownName,
        turn,
        attempts,
        activities,
        budgetsLeft: budgetsLeft(stepId),
        terminal,
        durationMs: Date.now() - startedAtMs,
      };
      if (failure) Object.assign(r, { class: failure.class, reason: failure.reason, phase: failure.phase });
      if (action) r.action = action;
      if (evidence) r.evidence = evidence;
      if (afterReplan) {
        r.replanLatencyMs = startedAtMs - afterReplan.atMs;
        r.replanAfter = afterReplan.class;
      }
      st.records.push(r);
      log.info('recovery record', { ...r, ...(exhausted ? { exhausted } : {}) });
      telemetry.record(r);
      if (action === RecoveryAction.REPLAN || action === RecoveryAction.REJECT) {
        st.pendingReplan = { atMs: Date.now(), class: r.class ?? FailureClass.UNRECOVERABLE };
      }
    };

    /** Ends the call with a routed failure, spending the budget its action draws from. */
    const routed = (
      failure: ToolFailure,
      extra: {
        refused?: boolean;
        capabilities?: Capability[];
        message?: string;
        forceAction?: RecoveryAction;
        observedState?: unknown;
        exhausted?: ExhaustedBudget;
      } = {},
    ): ToolOutcome => {
      let action = extra.forceAction ?? routeFor(failure).action;
      let exhausted: ExhaustedBudget | undefined = extra.exhausted;
      let noProgress = false;
      const budgetKind: BudgetKind | undefined =
        action === RecoveryAction.REPAIR
          ? 'repair'
          : action === RecoveryAction.REPLAN || action === RecoveryAction.REJECT
            ? 'replan'
            : undefined;
      if (extra.refused && budgetKind === 'replan') {
        // The model was told to choose another way and sent the identical call again: no progress (case C10).
        noProgress = true;
        action = RecoveryAction.STOP;
      }
      let terminal = action === RecoveryAction.STOP || action === RecoveryAction.ESCALATE;
      if (budgetKind && !noProgress) {
        const r = spendUnit(budgetKind, budgetKind === 'repair' ? stepId : undefined);
        if (!r.allowed) {
          exhausted = r.exhausted;
          action = budgetKind === 'repair' ? RecoveryAction.STOP : RecoveryAction.ESCALATE;
          terminal = true;
        }
      }
      const feedback = feedbackFor(failure, action, {
        ...(extra.capabilities ? { capabilities: extra.capabilities } : {}),
        ...(extra.message ? { message: extra.message } : {}),
        ...(extra.observedState !== undefined ? { observedState: extra.observedState } : {}),
      });
      const terminalState = extra.refused
        ? TerminalState.REFUSED
        : action === RecoveryAction.ESCALATE
          ? TerminalState.ESCALATED
          : action === RecoveryAction.STOP
            ? TerminalState.STOPPED
            : action === RecoveryAction.RECONCILE
              ? TerminalState.RECONCILING
              : TerminalState.FED_BACK;
      record(terminalState, failure, action, exhausted);
      const out: ToolOutcome = {
        ok: false,
        tool: toolName,
        callId,
        operationId,
        action,
        failure,
        feedback,
        terminal,
        refused: extra.refused ?? false,
        noProgress,
        attempts,
        activities,
      };
      if (exhausted) out.exhausted = exhausted;
      return out;
    };

    const runtimeFailure = (
      cls: ToolFailure['class'],
      reason: ToolFailure['reason'],
      publicMessage: string,
      more: Partial<ToolFailure> = {},
    ): ToolFailure => ({
      tool: shownName,
      callId,
      class: cls,
      reason,
      phase: Phase.PREFLIGHT,
      retryable: false,
      replaySafe: true,
      publicMessage: publicMessage.slice(0, MAX_PUBLIC_MESSAGE_CHARS),
      diagnosticRef,
      ...more,
    });

    // 1. capability check: discovery is not authorisation.
    const spec = typeof name === 'string' ? catalog.get(name) : undefined;
    if (!spec || !permitted(spec)) {
      const reason = spec ? FailureReason.NOT_PERMITTED_TOOL : FailureReason.UNKNOWN_TOOL;
      const message = spec
        ? `The tool "${shownName}" is not available to this caller.`
        : `There is no tool named "${shownName}".`;
      const streak = st.unknownToolTurns ?? { count: 0, lastTurn: 0 };
      if (streak.lastTurn !== turn) st.unknownToolTurns = { count: streak.count + 1, lastTurn: turn };
      const limit = st.budgets.policy.consecutiveUnknownToolTurns;
      if ((st.unknownToolTurns?.count ?? 0) >= limit) {
        return routed(runtimeFailure(FailureClass.CAPABILITY_MISSING, reason, message), {
          capabilities: capabilities(),
          forceAction: RecoveryAction.ESCALATE,
          exhausted: ExhaustedBudget.CONSECUTIVE_UNKNOWN_TOOL_TURNS,
          message: `${message} ${limit} turns in a row named a tool this run cannot use, so the run stops here.`,
        });
      }
      return routed(runtimeFailure(FailureClass.CAPABILITY_MISSING, reason, message), { capabilities: capabilities() });
    }
    // The model named an available tool: the unknown-tool streak is over.
    st.unknownToolTurns = { count: 0, lastTurn: 0 };

    let hash: string;
    try {
      const canonical = canonicalize(hashedArgs(spec, args));
      if (canonical.length > MAX_ARGS_CHARS) {
        return routed(
          runtimeFailure(
            FailureClass.INVALID_ARGUMENTS,
            FailureReason.SCHEMA,
            `The arguments are too large (over ${MAX_ARGS_CHARS} characters as JSON).`,
            {
              issues: [
                {
                  path: [],
                  expected: `at most ${MAX_ARGS_CHARS} characters of JSON`,
                  received: `${canonical.length} characters`,
                  suggestion: 'Send less data, or a reference to it.',
                },
              ],
            },
          ),
        );
      }
      hash = hashCanonical(canonical);
    } catch (err) {
      return routed(
        runtimeFailure(FailureClass.INVALID_ARGUMENTS, FailureReason.SCHEMA, 'The arguments are not a JSON value.', {
          issues: [
            {
              path: isRecoveryInputError(err) ? [...err.path] : [],
              expected: 'a JSON value',
              received: 'not JSON',
              suggestion: 'Send plain JSON arguments.',
            },
          ],
        }),
      );
    }

    operationId = operationIdFor(operationId, stepId, hash);

    // 2. the Change-before-Retry gate, against the records of this exact call.
    const previous = lastFailure(st.calls, name, hash);
    if (previous) {
      const decision = gateIdenticalCall(
        previous,
        { tool: spec.name, argsHash: hash, ...versions(spec.name, hash) },
        Date.now(),
      );
      if (!decision.allowed) {
        log.info('gate refused an identical call', {
          tool: name,
          callId,
          reason: decision.reason,
          message: decision.message,
        });
        return routed(previous.failure, {
          refused: true,
          message: `This exact call already failed (${previous.failure.publicMessage}) and nothing has changed since, so it was not run again.`,
        });
      }
      evidence = decision.evidence.kind;
    }

    // 3. dispatch, and 4. route; re-executions (reauth, approval, workflow-side retry) loop with fresh evidence.
    const override = Object.prototype.hasOwnProperty.call(options.toolOverrides ?? {}, name)
      ? options.toolOverrides?.[name]
      : undefined;
    const activityOptions = activityOptionsFor(
      spec,
      { ...st.budgets.policy, ...override?.budgets },
      { ...backoff, ...override?.backoff },
    );
    const { invokeTool } = proxyActivities<ToolActivities>(activityOptions);
    let reauthed = false;
    let approval: ApprovalGrant | undefined;
    let workflowRetries = 0;
    for (;;) {
      const room = spendUnit('attempt');
      if (!room.allowed) {
        return routed(
          runtimeFailure(
            FailureClass.UNRECOVERABLE,
            FailureReason.UNSPECIFIED,
            'The run has used all the tool attempts it is allowed.',
          ),
          { forceAction: RecoveryAction.ESCALATE, ...(room.exhausted ? { exhausted: room.exhausted } : {}) },
        );
      }
      activities += 1;
      const versionUsed = versions(spec.name, hash);
      let result: ToolInvocationResult;
      try {
        result = await invokeTool({
          tool: name,
          args,
          callId,
          operationId,
          ...(approval ? { approval } : {}),
          ...(reauthed ? { refreshOnAuthFailure: false } : {}),
        });
      } catch (err) {
        const { failure: f, meta } = fromActivityError(err, spec, callId, diagnosticRef);
        const used = meta.attempt ?? 1;
        // A duplicate-key conflict answering a re-execution under the same key may mean the first write landed:
        // look it up instead of routing a conflict (a committed write is never reported failed).
        let failure = spec.effect === 'write' && (activities > 1 || used > 1) && isDuplicateKey(f) ? landedMaybe(f) : f;
        attempts += used;
        chargeServerRetries(used - 1);
        if (meta.credentialVersion !== undefined) st.credentialVersions[name] = meta.credentialVersion;
        const action = routeFor(failure).action;
        const endedAtMs = Date.now();
        const failed = (earliestRetryAtMs?: number) => {
          st.calls = recordFailure(st.calls, {
            tool: name,
            argsHash: hash,
            ...versionUsed,
            failure,
            endedAtMs,
            ...(earliestRetryAtMs === undefined ? {} : { earliestRetryAtMs }),
          });
        };

        if (action === RecoveryAction.REAUTH) {
          // The broker refreshed the credential in the worker (single-flight); replay once with the new version.
          failed();
          if (!reauthed && allowAgain(hash)) {
            reauthed = true;
            recovered = { failure, action };
            continue;
          }
          return routed(failure, {
            forceAction: RecoveryAction.ESCALATE,
            message: 'The credential was refused even after a refresh; a person must re-authorise.',
          });
        }
        if (action === RecoveryAction.REQUEST_APPROVAL) {
          failed();
          if (!approval) {
            const decision = await approvals.wait({
              callId,
              tool: spec.name,
              operationId,
              message: failure.publicMessage,
              argsDigest: hash,
              argsPreview: publicObservedState(hashedArgs(spec, args)) ?? null,
            });
            if (decision?.approved) {
              const { approved: _approved, ...grant } = decision;
              approval = grant;
              st.grants[`${name}|${hash}`] = own(st.grants, `${name}|${hash}`) + 1;
              recovered = { failure, action };
              if (allowAgain(hash)) continue;
            }
            return routed(failure, {
              forceAction: RecoveryAction.STOP,
              message: decision
                ? 'A person declined this action.'
                : 'No approval arrived in time; the action was not taken.',
            });
          }
          return routed(failure, {
            forceAction: RecoveryAction.STOP,
            message: 'The action is still forbidden after approval.',
          });
        }
        if (action === RecoveryAction.RETRY) {
          if (!isReplaySafe(spec) && failure.replaySafe) {
            // Server-side retries are off for this write, and this failure happened before anything was applied:
            // the workflow retries it after backoff, within the per-call budget.
            const retry = spendUnit('retry', stepId);
            const delay = nextDelay({
              retryNumber: workflowRetries + 1,
              retryAfterMs: failure.retryAfterMs,
              policy: backoff,
              random: Math.random,
            });
            if (retry.allowed && delay.kind === 'wait') {
              workflowRetries += 1;
              failed(endedAtMs + delay.delayMs);
              recovered = { failure, action };
              await sleep(delay.delayMs);
              if (allowAgain(hash)) continue;
            }
          }
          // Every allowed attempt was made: the failure is persistent for this run.
          failure = { ...failure, retryable: false };
          if (failure.reason === FailureReason.CIRCUIT_OPEN && spec.effect === 'write') {
            failed();
            return routed(failure, {
              forceAction: RecoveryAction.ESCALATE,
              exhausted: ExhaustedBudget.PER_CALL_RETRIES,
              message:
                'The service behind this tool kept failing and its calls stayed paused, so this write was never sent. A person must run it once the service recovers.',
            });
          }
        }
        if (action === RecoveryAction.RECONCILE) {
          // The write may have been applied: look it up by operation_id before anything is replayed.
          failed();
          let settled: ReconcileResult;
          try {
            settled = await reconcileCall({ spec, args, callId, operationId, failure, ...reconcileOptions });
          } catch (reconcileErr) {
            if (isCancellation(reconcileErr)) throw reconcileErr;
            return routed(failure, {
              forceAction: RecoveryAction.ESCALATE,
              message: `The reconciliation of operation ${operationId} did not finish; a person must check whether the write was applied before anything is replayed.`,
            });
          }
          attempts += settled.replays;
          activities += settled.replays;
          if (settled.state === 'applied' || settled.state === 'marked_applied') {
            evidence = 'state_verified';
            recovered = { failure, action };
            return settled.state === 'applied'
              ? succeed(settled.value, settled.via)
              : succeed({ resultRef: settled.resultRef }, 'marked_applied');
          }
          if (settled.state === 'abandoned') {
            return routed(failure, {
              forceAction: RecoveryAction.STOP,
              message: 'A person reviewed this write and abandoned it; it was not replayed.',
            });
          }
          if (settled.state === 'review_timed_out') {
            return routed(failure, {
              forceAction: RecoveryAction.ESCALATE,
              message: 'No review decision arrived in time; the write was not replayed.',
            });
          }
          // The replay failed in a known way: route that failure, never as a retry of a write under reconciliation.
          failure = { ...settled.failure, retryable: false };
        }
        failed();
        const digest = argsHash({ class: failure.class, reason: failure.reason, status: failure.status ?? null });
        st.calls = recordOutcome(st.calls, name, hash, digest).ledger;
        return routed(failure, meta.observedState === undefined ? {} : { observedState: meta.observedState });
      }
      attempts += result.attempt;
      chargeServerRetries(result.attempt - 1);
      if (result.credentialVersion !== undefined) st.credentialVersions[name] = result.credentialVersion;
      // Temporal retried this activity: only transient, replay-safe failures are retried server-side.
      if (result.attempt > 1) {
        recovered = {
          failure: runtimeFailure(FailureClass.TRANSIENT, FailureReason.UNSPECIFIED, 'Retried by Temporal.', {
            phase: Phase.DISPATCH,
          }),
          action: RecoveryAction.RETRY,
        };
      }
      return succeed(result.value);
    }

    /** Ends the call with a success: forgets its failure, counts the outcome for no-progress detection. */
    function succeed(value: unknown, reconciled?: Extract<ToolOutcome, { ok: true }>['reconciled']): ToolOutcome {
      st.calls = clearFailure(st.calls, name, hash);
      st.successes[successKey] = own(st.successes, successKey) + 1;
      const seen = recordOutcome(st.calls, name, hash, outcomeDigest(value));
      st.calls = seen.ledger;
      // A success after a recovery says which: class of the failure it recovered from, and the action that did it.
      if (recovered) record(TerminalState.SUCCEEDED, recovered.failure, recovered.action);
      else record(TerminalState.SUCCEEDED);
      return {
        ok: true,
        tool: toolName,
        callId,
        operationId,
        value,
        empty: isEmptyResult(value),
        noProgress: seen.seen >= NO_PROGRESS_REPEATS,
        attempts,
        activities,
        ...(reconciled ? { reconciled } : {}),
      };
    }

    /** The gate's word on running the same call again now, from the records (evidence found, never claimed). */
    function allowAgain(h: string): boolean {
      const prev = lastFailure(st.calls, name, h);
      if (!prev) return true;
      const decision = gateIdenticalCall(
        prev,
        { tool: toolName, argsHash: h, ...versions(toolName, hash) },
        Date.now(),
      );
      if (decision.allowed) evidence = decision.evidence.kind;
      else log.warn('gate refused a re-execution', { tool: name, callId, reason: decision.reason });
      return decision.allowed;
    }

    /** Temporal's own retries of this call count against the per-call retry budget, for the record. */
    function chargeServerRetries(n: number): void {
      for (let i = 0; i < n; i++) spendUnit('retry', stepId);
    }
  }

  return {
    startTurn: startTurnNow,
    callTool,
    capabilities,
    records: () => st.records,
    state: () => structuredCloneJson(st),
  };
}
