/**
 * Fast acceptance of the workflows' inputs, ahead of their zod schemas: `toolPlanWorkflow`'s input
 * (`toolPlanInputSchema()`), `agentWorkflow`'s options (`agentOptionsSchema()`) and each planner answer the agent
 * reads (`plannerDecisionSchema()`). Each answers `true` only for an input its schema accepts; `false` means "ask
 * the schema", which gives the verdict and the error message as before (the parts' checks and why:
 * recovery/plain-inputs.ts; test/unit/plain-inputs.property.test.ts holds these to the schemas). Sandbox-safe: no
 * zod, no I/O.
 */
import { every, fieldsOf, isName, isPlainObject, type Fields } from '../recovery/plain-checks';
import { AGENT_OPTION_BOUNDS as B } from './definitions';
import {
  isBoolean,
  isIntIn,
  isRecordOf,
  optional,
  plainlyValidBackoffOverride,
  plainlyValidBudgetOverride,
  plainlyValidToolSpec,
} from '../recovery/plain-inputs';

/** The keys `agentWorkflow`'s options share with `toolPlanWorkflow`'s input. */
const SHARED_KEYS = [
  'catalog',
  'grantedScopes',
  'budgets',
  'backoff',
  'approvalTimeoutMs',
  'approvalHoldMs',
  'searchAttributes',
  'toolOverrides',
  'reconcile',
] as const;
const TOOL_PLAN_KEYS = new Set<string>([...SHARED_KEYS, 'calls', 'stopOnTerminal', 'failOnTerminal']);
const AGENT_KEYS = new Set<string>([
  ...SHARED_KEYS,
  'maxTurns',
  'maxInvalidDecisions',
  'planner',
  'continueAsNewAfterTurns',
]);
const CALL_KEYS = new Set(['tool', 'args', 'stepId', 'sameTurn']);
const OVERRIDE_KEYS = new Set(['budgets', 'backoff']);
const RECONCILE_KEYS = new Set([
  'lookupBudget',
  'replayBudget',
  'lookupTimeoutMs',
  'lookupBackoff',
  'reviewTimeoutMs',
  'searchAttributes',
]);
const TOOL_CALLS_KEYS = new Set(['kind', 'calls']);
const DECISION_CALL_KEYS = new Set(['callId', 'tool', 'args']);
const SUBMIT_KEYS = new Set(['kind', 'result']);
const STOP_KEYS = new Set(['kind', 'reason']);
const PLANNER_KEYS = new Set(['startToCloseTimeoutMs', 'maximumAttempts', 'taskQueue', 'heartbeatTimeoutMs']);

const intFrom = (min: number, max?: number) => (v: unknown) => isIntIn(v, min, max);

function plainToolOverride(v: unknown): boolean {
  const f = fieldsOf(v, OVERRIDE_KEYS);
  return (
    f !== undefined &&
    optional(f.budgets, plainlyValidBudgetOverride) &&
    optional(f.backoff, plainlyValidBackoffOverride)
  );
}

function plainReconcile(v: unknown): boolean {
  const f = fieldsOf(v, RECONCILE_KEYS);
  if (f === undefined) return false;
  return (
    optional(f.lookupBudget, intFrom(0)) &&
    optional(f.replayBudget, intFrom(0)) &&
    optional(f.lookupTimeoutMs, intFrom(1)) &&
    optional(f.lookupBackoff, plainlyValidBackoffOverride) &&
    optional(f.reviewTimeoutMs, intFrom(0)) &&
    optional(f.searchAttributes, isBoolean)
  );
}

/** The fields both inputs share, already known to be an object with no key outside its schema's. */
function plainShared(f: Fields): boolean {
  if (!optional(f.catalog, (c) => every(c, plainlyValidToolSpec))) return false;
  if (!optional(f.grantedScopes, (s) => every(s, (x) => typeof x === 'string'))) return false;
  if (!optional(f.budgets, plainlyValidBudgetOverride) || !optional(f.backoff, plainlyValidBackoffOverride)) {
    return false;
  }
  if (!optional(f.approvalTimeoutMs, intFrom(0)) || !optional(f.approvalHoldMs, intFrom(0))) return false;
  if (!optional(f.searchAttributes, isBoolean)) return false;
  return optional(f.toolOverrides, (o) => isRecordOf(o, plainToolOverride)) && optional(f.reconcile, plainReconcile);
}

function plainCall(v: unknown): boolean {
  const f = fieldsOf(v, CALL_KEYS);
  return f !== undefined && typeof f.tool === 'string' && optional(f.stepId, isName) && optional(f.sameTurn, isBoolean);
}

const ROUTER_KEYS = new Set<string>([...SHARED_KEYS, 'stepBudgetsAcrossTurns']);

/**
 * True when `options` passes `routerOptionsSchema()` (workflows/router-options.ts) for plain reasons; false: ask the
 * schema (always, for options with a `restore`).
 */
export function plainlyValidRouterOptions(options: unknown): boolean {
  try {
    const f = fieldsOf(options, ROUTER_KEYS);
    return f !== undefined && plainShared(f) && optional(f.stepBudgetsAcrossTurns, isBoolean);
  } catch {
    return false;
  }
}

/** True when `input` passes `toolPlanInputSchema()` for plain reasons; false: ask the schema. */
export function plainlyValidToolPlanInput(input: unknown): boolean {
  try {
    const f = fieldsOf(input, TOOL_PLAN_KEYS);
    if (f === undefined || !plainShared(f) || !every(f.calls, plainCall)) return false;
    return optional(f.stopOnTerminal, isBoolean) && optional(f.failOnTerminal, isBoolean);
  } catch {
    return false;
  }
}

function plainPlanner(v: unknown): boolean {
  const f = fieldsOf(v, PLANNER_KEYS);
  if (f === undefined) return false;
  return (
    optional(f.startToCloseTimeoutMs, intFrom(...B.plannerStartToCloseTimeoutMs)) &&
    optional(f.maximumAttempts, intFrom(...B.plannerMaximumAttempts)) &&
    optional(f.taskQueue, isName) &&
    optional(f.heartbeatTimeoutMs, intFrom(...B.plannerHeartbeatTimeoutMs))
  );
}

/** True when `options` passes `agentOptionsSchema()` for plain reasons; false: ask the schema. */
export function plainlyValidAgentOptions(options: unknown): boolean {
  try {
    const f = fieldsOf(options, AGENT_KEYS);
    if (f === undefined || !plainShared(f)) return false;
    if (!optional(f.maxTurns, intFrom(...B.maxTurns))) return false;
    if (!optional(f.maxInvalidDecisions, intFrom(...B.maxInvalidDecisions)) || !optional(f.planner, plainPlanner)) {
      return false;
    }
    return optional(f.continueAsNewAfterTurns, intFrom(1));
  } catch {
    return false;
  }
}

/** A `tool_calls` decision's calls: at least one, each `{ callId, tool, args }`, no callId twice. */
function plainDecisionCalls(calls: unknown): boolean {
  // Only index keys (and no holes): the parsed copy the schema would return has nothing else.
  if (!Array.isArray(calls) || calls.length === 0 || Object.keys(calls).length !== calls.length) return false;
  const seen = new Set<string>();
  for (const c of calls) {
    const f = fieldsOf(c, DECISION_CALL_KEYS);
    if (f === undefined || !isName(f.callId) || typeof f.tool !== 'string' || seen.has(f.callId)) return false;
    seen.add(f.callId);
  }
  return true;
}

/**
 * True when `answer` passes `plannerDecisionSchema()` for plain reasons, and so parses to a value equal to itself
 * (every branch is strict, no field has a default); false: ask the schema.
 */
export function plainlyValidDecision(answer: unknown): boolean {
  try {
    if (!isPlainObject(answer)) return false;
    switch (answer.kind) {
      case 'tool_calls':
        return fieldsOf(answer, TOOL_CALLS_KEYS) !== undefined && plainDecisionCalls(answer.calls);
      case 'submit':
        return fieldsOf(answer, SUBMIT_KEYS) !== undefined && answer.result !== undefined;
      case 'stop':
        return fieldsOf(answer, STOP_KEYS) !== undefined && isName(answer.reason);
      default:
        return false;
    }
  } catch {
    return false;
  }
}
