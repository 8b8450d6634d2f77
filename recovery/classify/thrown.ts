/**
 * Anything a tool threw → ToolFailure, in one pass (docs/DESIGN.md, "Facts, not libraries"): the error's facts are
 * read once — one walk over its cause chain, each error of it read by the code tables (protocols/), for an HTTP answer
 * it carries (wrapped-http.ts), for transport facts (network.ts) and for its words — then one decision:
 *   1. a code a table claims (a protocol's, a library's): its kind, refined by words only as its table allows; a kind
 *      that "may have been sent" yields to the chain's transport facts, which say precisely whether it left;
 *   2. an HTTP answer: the HTTP rules (http.ts);
 *   3. a transport fact: sent or not (network.ts); `requestSent` wins over inference;
 *   4. its words: a structured code or class name said in words (`PERMISSIONS_VIOLATION`, `OptimisticLockError`),
 *      then its message — the vocabulary (words.ts) names a kind, and words alone never make a write replayable;
 *   5. else no fact speaks: `toolBugFailure`, with the error's fingerprint for `classify.rules`.
 * A ZodError the tool raised is its own case: arguments it rejected, or a result it rejected.
 * Never throws. Pure: no I/O.
 */
import { FailureClass, FailureReason, Phase } from '../failure';
import type { ToolFailure } from '../failure';
import { buildFailure, type FailureDraft } from './build';
import type { CallContext } from './context';
import { httpDraft } from './http';
import { KIND_RULES, kindDraft, type CodeFacts } from './kinds';
import { codeFactOf, errorChain, messageFactOf, transportDraft, type TransportFact } from './network';
import { readCodes } from './protocols';
import { TEXT_FIELDS } from './protocols/table';
import { retryAfterMsFromHeaders } from './retry-after';
import { fingerprintOf } from './rules';
import { readProp, readString } from './safe';
import { draftBySend } from './sent';
import { kindOfWords } from './words';
import { fromNode, type WrappedHttp } from './wrapped-http';
import { classifyInvalidResult } from './result';
import { isZodError, zodArgumentsDraft } from './zod';

/**
 * What no fact speaks for (docs/DESIGN.md, "Facts, not libraries": unknown is not a bug). It carries its stable
 * fingerprint (recovery/classify/rules.ts), which operators route with `classify.rules`. Before the request left
 * (`requestSent === false`) it is `unrecoverable/unrecognized`, replay-safe; otherwise the request may have left (an
 * unknown `requestSent` included), and the one phase decision (recovery/classify/sent.ts) makes a write
 * `outcome_unknown`: never reported as a bug in the tool, never replayed blind. A read is escalated with its
 * fingerprint.
 */
export function toolBugFailure(error: unknown, requestSent: boolean | undefined, ctx: CallContext): ToolFailure {
  const name = readString(error, 'name');
  const shown = name !== undefined && /^[A-Za-z][A-Za-z0-9_]{0,40}$/.test(name) ? ` (${name})` : '';
  const fingerprint = fingerprintOf(error).id;
  const head = `${ctx.tool}: the tool failed with an error no rule recognises${shown}`;
  const meaning = { class: FailureClass.UNRECOVERABLE, reason: FailureReason.UNRECOGNIZED, head };
  const draft = draftBySend(meaning, requestSent === false ? 'not_sent' : 'maybe_sent', ctx);
  return buildFailure(ctx, { ...draft, fingerprint });
}

/** The facts of a thrown error (see the module docs). */
interface ThrownFacts {
  code?: CodeFacts;
  http?: WrappedHttp;
  transport: TransportFact[];
  /** Transport facts found only in messages: used when no code or name is one. */
  transportWords: TransportFact[];
  /** Structured codes and class names (`codes`), then the error's words (`texts`): at most 8 each. */
  codes: string[];
  texts: string[];
  /** The class names of the chain (`InvalidTokenError`), at most 4: words of an HTTP answer they carry. */
  names: string[];
}

/** Fields whose string value is a structured code, on any error of the chain. */
const CODE_FIELDS = ['code', 'errorCode', 'error_code', 'type', 'errorType', 'category', 'reason', 'status'];

/** Reads the facts of `error`: one walk over its chain. @param declared the table the tool named. */
function readFacts(error: unknown, declared: string | undefined): ThrownFacts {
  const f: ThrownFacts = { transport: [], transportWords: [], codes: [], texts: [], names: [] };
  const push = (list: string[], v: unknown, max: number) => {
    if (typeof v === 'string' && v.trim() !== '' && v.length <= max && list.length < 8) list.push(v.slice(0, 500));
  };
  for (const node of errorChain(error)) {
    f.code ??= readCodes(node, declared);
    f.http ??= fromNode(node);
    const byCode = codeFactOf(node);
    if (byCode) f.transport.push(byCode);
    const byMessage = messageFactOf(node);
    if (byMessage) f.transportWords.push(byMessage);
    for (const k of CODE_FIELDS) push(f.codes, readProp(node, k), 100);
    const name = readString(node, 'name');
    if (name !== 'Error') push(f.codes, name, 64);
    if (name !== 'Error' && name !== undefined && name.length <= 64 && f.names.length < 4) f.names.push(name);
    for (const k of [...TEXT_FIELDS, 'statusText', 'title']) push(f.texts, readProp(node, k), Infinity);
  }
  if (f.transport.length === 0) f.transport = f.transportWords;
  return f;
}

/** The one decision over `f` (see the module docs); `undefined` when no fact speaks. */
function decide(f: ThrownFacts, requestSent: boolean | undefined, ctx: CallContext): FailureDraft | undefined {
  const code = f.code;
  const network = f.transport.some((t) => t.rule.kind === 'network');
  if (code?.kind !== undefined && !(KIND_RULES[code.kind].phase === 'maybe' && network)) {
    const retryAfterMs =
      code.retryAfterMs ?? (code.http ? retryAfterMsFromHeaders(code.http.headers, ctx.nowMs) : undefined);
    return kindDraft(code.kind, retryAfterMs === undefined ? code : { ...code, retryAfterMs }, requestSent, ctx);
  }
  const http = (code?.kind === undefined ? code?.http : undefined) ?? f.http;
  if (http) return httpDraft(http.status, http.headers, http.body, ctx, f.names);
  const transport = transportDraft(f.transport, requestSent, ctx);
  if (transport) return transport;
  for (const [list, byWords] of [
    [f.codes, false],
    [f.texts, true],
  ] as const) {
    for (const text of list) {
      const kind = kindOfWords(text);
      // A timeout a code names, in the stage its words name (acquiring a connection): before the request left.
      const stage = !byWords && kind === 'client_timeout' && f.texts.some((t) => kindOfWords(t) === 'connect_timeout');
      if (kind !== undefined)
        return kindDraft(stage ? 'connect_timeout' : kind, { label: '' }, requestSent, ctx, byWords);
    }
  }
  return undefined;
}

/**
 * Classifies what a tool threw (see the module docs).
 * - ZodError: `requestSent === true` → the tool rejected what came back: `invalid_result/schema_violation`;
 *   otherwise the tool rejected its arguments: `invalid_arguments/schema` (phase `preflight`) with field issues.
 * @param ctx the call (validated by the caller); `ctx.dialect` is the table the tool named.
 */
export function classifyThrown(error: unknown, requestSent: boolean | undefined, ctx: CallContext): ToolFailure {
  if (isZodError(error)) {
    return requestSent === true
      ? classifyInvalidResult({ error }, ctx)
      : buildFailure(ctx, zodArgumentsDraft(error, ctx.tool, {}, Phase.PREFLIGHT));
  }
  const draft = decide(readFacts(error, ctx.dialect), requestSent, ctx);
  return draft === undefined ? toolBugFailure(error, requestSent, ctx) : buildFailure(ctx, draft);
}
