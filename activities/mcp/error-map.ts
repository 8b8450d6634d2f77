/**
 * MCP failures → failure classes: matches `MCP_ERROR_RULES` (error-rules.ts) against an `McpCallError`'s facts
 * and answers as the tool's `classify` hook (a `ToolClassifier`), with a server's own codes and classify hook.
 *
 * A thrown error that no row names is left to the built-in classifier (recovery/classify: the HTTP rules for a
 * remote server's answer, the network rules over the error's `cause` chain, else `unrecoverable/tool_bug`).
 * Transient rows follow the phase rule (docs/DESIGN.md, "Phases"): not sent, or not processed → `transient` for
 * any tool; maybe sent → `transient` for a read (or a write whose receiver deduplicates), else `outcome_unknown`
 * (reconcile). Messages quote the server's words through `publicText` (redacted: absolute host paths become
 * `[path]`, URLs `[url]`, tokens `[redacted]`; at most 200 characters).
 */
import { FailureClass, FailureReason, type ToolFailure } from '../../recovery/failure';
import {
  applyToolClassifier,
  type CallContext,
  type ToolClassifier,
  type ToolClassifierAnswer,
} from '../../recovery/classify';
import { draftBySend, type SendFact } from '../../recovery/classify/sent';
import { conceptsOf } from '../../recovery/classify/words';
import { quoted } from '../../recovery/classify/text';
import { isMcpCallError, McpFailureSource, type McpFailureFacts } from './call-error';
import { isSessionGone } from './connection';
import { MCP_ERROR_RULES, type McpErrorRule, type McpRuleAnswer } from './error-rules';

/** A server's own error codes (matched lower-case, against the structured code or as a word of the text). */
export interface McpServerCodes {
  /** Codes that mean the credential must be refreshed, e.g. `['session_revoked', 'E_TOKEN']`. */
  authCodes?: readonly string[];
  /** Codes that mean "failed for now", e.g. `['E_BUSY']`: a read retries, a write reconciles. */
  transientCodes?: readonly string[];
}

/**
 * A server's classify hook: sees the failure's facts, the call and the answer so far (built-in rules merged with
 * the table's row); returns the fields to change, or `undefined` to keep it. Its answer is merged like a tool
 * classifier's (recovery/classify/override.ts): a changed `class` resets `reason` unless given.
 */
export type McpClassifyHook = (
  facts: McpFailureFacts,
  ctx: CallContext,
  answer: ToolFailure,
) => ToolClassifierAnswer | undefined;

/**
 * The first row of `MCP_ERROR_RULES` that matches `facts`, or undefined (then the built-in classifier decides). One
 * exception to "first match wins": when that row says `not_processed` and a later `maybe_sent` row matches by a
 * signal that row does not (a 504 whose text says "overloaded": the status names a row the words do not), the later
 * row is the answer — when facts disagree, "may have been sent" wins (docs/DESIGN.md, "Phases").
 */
export function matchMcpRule(facts: McpFailureFacts, server: McpServerCodes = {}): McpErrorRule | undefined {
  // A remote server's HTTP answer is read by the HTTP rules; only a lost session is the MCP table's.
  if (facts.outcome !== undefined) {
    return isSessionGone(facts.outcome) ? MCP_ERROR_RULES.find((r) => r.session === true) : undefined;
  }
  const matches = (r: McpErrorRule) => r.session !== true && structural(r, facts) && signalled(r, facts, server);
  const first = MCP_ERROR_RULES.find(matches);
  if (first?.answer.kind !== 'transient' || first.answer.sent !== 'not_processed') return first;
  const own = matchedSignals(first, facts, server);
  // A signal of its that holds makes a row signalled, so `structural` is all that is left of `matches`.
  const disagrees = (r: McpErrorRule) =>
    r.answer.kind === 'transient' &&
    r.answer.sent === 'maybe_sent' &&
    r.session !== true &&
    structural(r, facts) &&
    [...matchedSignals(r, facts, server)].some((kind) => !own.has(kind));
  return MCP_ERROR_RULES.slice(MCP_ERROR_RULES.indexOf(first) + 1).find(disagrees) ?? first;
}

/**
 * The send state a transient row's answer acts on. `not_processed` holds only when a structured signal of the
 * result says it (its status, error code or category): the server's words alone may tell of one step of the tool's
 * work ("payment pay_1 created, but the receipt e-mail was rate limited"), not that nothing was applied, so a row
 * matched by its words alone counts as `maybe_sent` (a read still retries; a write is reconciled).
 */
export function sendStateOf(rule: McpErrorRule, facts: McpFailureFacts): SendFact | undefined {
  if (rule.answer.kind !== 'transient') return undefined;
  if (rule.answer.sent !== 'not_processed' || rule.source !== McpFailureSource.RESULT) return rule.answer.sent;
  const structured = [...matchedSignals(rule, facts, {})].some((kind) => kind !== 'text');
  return structured ? 'not_processed' : 'maybe_sent';
}

function structural(r: McpErrorRule, facts: McpFailureFacts): boolean {
  return (
    (r.source === undefined || r.source === facts.source) &&
    (r.codes === undefined || (facts.rpcCode !== undefined && r.codes.includes(facts.rpcCode))) &&
    (r.errorName === undefined || r.errorName === facts.errorName)
  );
}

/** A row's signals (see the module docs of error-rules.ts): each one it names, and whether it holds. */
function signalChecks(r: McpErrorRule, facts: McpFailureFacts, server: McpServerCodes): [SignalKind, boolean][] {
  const { errorCode, category, status } = facts.signals;
  const checks: [SignalKind, boolean | undefined][] = [
    ['text', textSignal(r, facts.detail)],
    ['errorCode', r.errorCodes && errorCode !== undefined && r.errorCodes.includes(errorCode)],
    ['category', r.categories && category !== undefined && r.categories.includes(category)],
    ['status', r.statuses && status !== undefined && r.statuses.some(([lo, hi]) => status >= lo && status <= hi)],
    [
      'serverCode',
      r.serverCodes && namesCode(facts, r.serverCodes === 'auth' ? server.authCodes : server.transientCodes),
    ],
  ];
  return checks.filter((c): c is [SignalKind, boolean] => c[1] !== undefined);
}
type SignalKind = 'text' | 'errorCode' | 'category' | 'status' | 'serverCode';

/** The row's words signal: its pattern, or one of its concepts in the words (`undefined` when it names neither). */
function textSignal(r: McpErrorRule, detail: string): boolean | undefined {
  if (r.text === undefined && r.concepts === undefined) return undefined;
  if (r.text?.test(detail.trim())) return true;
  return r.concepts !== undefined && conceptsOf(detail).some((c) => r.concepts!.includes(c));
}

function signalled(r: McpErrorRule, facts: McpFailureFacts, server: McpServerCodes): boolean {
  const checks = signalChecks(r, facts, server);
  return checks.length === 0 || checks.some(([, holds]) => holds);
}

/** The kinds of signal by which `r` matches `facts`. */
function matchedSignals(r: McpErrorRule, facts: McpFailureFacts, server: McpServerCodes): Set<SignalKind> {
  return new Set(signalChecks(r, facts, server).flatMap(([kind, holds]) => (holds ? [kind] : [])));
}

/** The structured code is one of `codes`, or one of them stands as a word in the text (case-insensitive). */
function namesCode(facts: McpFailureFacts, codes: readonly string[] | undefined): boolean {
  if (!codes || codes.length === 0) return false;
  const lower = codes.map((c) => c.toLowerCase());
  if (facts.signals.errorCode !== undefined && lower.includes(facts.signals.errorCode)) return true;
  const words = new Set(facts.detail.toLowerCase().split(/[^a-z0-9_.-]+/));
  return lower.some((c) => words.has(c));
}

/**
 * The `classify` hook of an MCP server's tools: for an `McpCallError`, the answer of its row (with `server`'s
 * codes), then `hook`'s changes; `undefined` (keep the built-in answer) for anything else. Never throws on the
 * error it reads; a hook that throws is ignored.
 */
export function mcpClassifierFor(server: McpServerCodes = {}, hook?: McpClassifyHook): ToolClassifier {
  return (raw, ctx, builtIn) => {
    if (raw.kind !== 'thrown' || !isMcpCallError(raw.error)) return undefined;
    const facts = raw.error;
    const rule = matchMcpRule(facts, server);
    const table = rule ? answerFor(answerOf(rule, facts), facts, ctx) : undefined;
    if (!hook) return table;
    // The hook's answer, merged over the table's as a tool classifier's is (override.ts): one merge rule.
    const merged = table ? applyToolClassifier(raw, ctx, builtIn, () => table) : builtIn;
    const final = applyToolClassifier(raw, ctx, merged, () => hook(facts, ctx, merged));
    return final === merged ? table : final;
  };
}

/** A row's answer with the send state `sendStateOf` finds for these facts. */
function answerOf(rule: McpErrorRule, facts: McpFailureFacts): McpRuleAnswer {
  const sent = sendStateOf(rule, facts);
  return rule.answer.kind === 'transient' && sent !== undefined ? { ...rule.answer, sent } : rule.answer;
}

const TRANSIENT_REASON = {
  network: FailureReason.NETWORK,
  timeout: FailureReason.TIMEOUT,
  rate_limited: FailureReason.RATE_LIMITED,
  unavailable: FailureReason.UNAVAILABLE,
} as const;

/** A row's answer for this call. */
export function answerFor(answer: McpRuleAnswer, facts: McpFailureFacts, ctx: CallContext): ToolClassifierAnswer {
  const said = answer.quote ? quoted(facts.detail) : undefined;
  const serverSaid = said === undefined ? {} : { serverSaid: said };
  if (answer.kind === 'class') {
    return {
      class: answer.class,
      reason: answer.reason,
      retryable: false,
      replaySafe: answer.applied === 'no' || ctx.effect === 'read',
      publicMessage: `${ctx.tool}: ${answer.say}.`,
      ...serverSaid,
    };
  }
  const hint = facts.signals.retryAfterMs;
  const wait = hint === undefined ? '' : ` (retry after ${hint} ms)`;
  const meaning = {
    class: FailureClass.TRANSIENT,
    reason: TRANSIENT_REASON[answer.reason],
    head: `${ctx.tool}: ${answer.say}${wait}`,
  };
  const draft = draftBySend(meaning, answer.sent, ctx);
  return {
    class: draft.class,
    reason: draft.reason,
    retryable: draft.retryable,
    replaySafe: draft.replaySafe,
    publicMessage: String(draft.publicMessage),
    ...serverSaid,
    ...(hint === undefined || !draft.retryable ? {} : { retryAfterMs: hint }),
  };
}
