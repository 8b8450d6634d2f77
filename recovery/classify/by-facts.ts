/**
 * A thrown error that no dialect claims and that carries no HTTP answer, read by its facts, whatever library raised
 * it (docs/DESIGN.md, "Facts, not libraries"):
 *   1. an SMTP reply — a 4yz/5yz reply code with its text (recovery/classify/smtp.ts);
 *   2. a transport fact — a system error code, a connect phase (recovery/classify/network.ts);
 *   3. a structured code said in words (`TIMEOUT`, `CONNECTION_REFUSED`, `PERMISSIONS_VIOLATION`, `RATE_LIMIT`) —
 *      the vocabulary (recovery/classify/words.ts) and `CONCEPT_ROWS`, each row with how sure it is that nothing
 *      was applied;
 *   4. the error's own words (its message, a description) — the same rows, except that words alone never make a
 *      write replayable: a transient meaning read from words is "may have been sent".
 * `undefined` when none of them speaks (the caller treats it as unrecognized).
 * Pure: no I/O.
 */
import { FailureClass, FailureReason, type ToolFailure } from '../failure';
import { buildFailure, type FailureDraft } from './build';
import type { CallContext } from './context';
import { classifyNetworkError, errorChain } from './network';
import { readProp, readString } from './safe';
import { draftBySend, refusedDraft, type SendFact } from './sent';
import { smtpMeaning, smtpReply } from './smtp';
import { conceptsOf, type Concept } from './words';

const C = FailureClass;
const R = FailureReason;

/** A concept's class, reason, the model's words, and what a structured code of it says was sent. */
interface ConceptRow {
  readonly class: FailureClass;
  readonly reason: FailureReason;
  readonly what: string;
  /** `refused` for a meaning that is itself a refusal (nothing applied); else what a structured code of it tells. */
  readonly sent: SendFact | 'refused';
}

const row = (cls: FailureClass, reason: FailureReason, what: string, sent: ConceptRow['sent']): ConceptRow => ({
  class: cls,
  reason,
  what,
  sent,
});

/** One row per concept; the compiler forces every concept to have one. Sources: recovery/classify/words.ts. */
// prettier-ignore
export const CONCEPT_ROWS: Readonly<Record<Concept, ConceptRow>> = Object.freeze({
  programming_error: row(C.UNRECOVERABLE, R.TOOL_BUG, "the tool's own code failed (a bug or a missing dependency); an operator must fix it", 'maybe_sent'),
  rate_limited: row(C.TRANSIENT, R.RATE_LIMITED, 'rate limited', 'not_processed'),
  quota: row(C.TRANSIENT, R.RATE_LIMITED, 'over its quota for now', 'not_processed'),
  billing: row(C.UNRECOVERABLE, R.UNSPECIFIED, 'the account cannot pay for this call; a person must act', 'refused'),
  scope_missing: row(C.CAPABILITY_MISSING, R.NOT_PERMITTED_TOOL, 'the credential lacks a permission (scope) this call needs', 'refused'),
  credential_expired: row(C.AUTHENTICATION, R.CREDENTIAL_EXPIRED, 'the credential is expired or revoked; it must be refreshed', 'refused'),
  credential_invalid: row(C.AUTHENTICATION, R.CREDENTIAL_MISSING, 'the credential was refused; a valid one is needed', 'refused'),
  unknown_operation: row(C.CAPABILITY_MISSING, R.UNKNOWN_TOOL, 'the service does not know this operation', 'refused'),
  forbidden: row(C.AUTHORIZATION, R.FORBIDDEN, 'the caller is not allowed to do this', 'refused'),
  unauthorized: row(C.AUTHENTICATION, R.CREDENTIAL_MISSING, 'the call was not authenticated; a valid credential is needed', 'refused'),
  already: row(C.SEMANTIC_REJECTION, R.CONFLICT, 'the state the call asks for may already hold', 'refused'),
  not_found: row(C.SEMANTIC_REJECTION, R.NOT_FOUND, 'something the call refers to was not found', 'refused'),
  conflict: row(C.SEMANTIC_REJECTION, R.CONFLICT, 'the call conflicts with the current state', 'refused'),
  incompatible_state: row(C.SEMANTIC_REJECTION, R.BUSINESS_RULE, 'the call does not fit the current state', 'refused'),
  too_large: row(C.INVALID_ARGUMENTS, R.SCHEMA, 'the arguments are too large; change them', 'refused'),
  invalid: row(C.INVALID_ARGUMENTS, R.SCHEMA, 'the arguments were rejected as invalid; change them', 'refused'),
  out_of_memory: row(C.TRANSIENT, R.UNAVAILABLE, 'the service is out of memory and refused the call for now', 'not_processed'),
  connection_refused: row(C.TRANSIENT, R.NETWORK, 'the connection was refused', 'not_sent'),
  overloaded: row(C.TRANSIENT, R.UNAVAILABLE, 'the service is overloaded', 'not_processed'),
  unavailable: row(C.TRANSIENT, R.UNAVAILABLE, 'the service is unavailable for now', 'not_processed'),
  timeout: row(C.TRANSIENT, R.TIMEOUT, 'the call timed out', 'maybe_sent'),
});

/** Fields whose string value is a structured code, on any node of the error. */
const CODE_FIELDS = ['code', 'errorCode', 'error_code', 'type', 'errorType', 'category', 'reason', 'status'];
/** Fields whose string value is the error's own words. */
const TEXT_FIELDS = ['message', 'description', 'detail', 'response', 'statusText', 'title'];

/** The error's structured codes and class names, then its words, each list at most 8 strings. */
function wordsOf(error: unknown): { codes: string[]; texts: string[] } {
  const codes: string[] = [];
  const texts: string[] = [];
  for (const node of errorChain(error)) {
    for (const k of CODE_FIELDS) {
      const v = readProp(node, k);
      if (typeof v === 'string' && v.length <= 100 && codes.length < 8) codes.push(v);
    }
    const name = readString(node, 'name');
    if (name !== undefined && name !== 'Error' && name.length <= 64 && codes.length < 8) codes.push(name);
    for (const k of TEXT_FIELDS) {
      const v = readProp(node, k);
      if (typeof v === 'string' && v.trim() !== '' && texts.length < 8) texts.push(v.slice(0, 500));
    }
  }
  return { codes, texts };
}

/** The SMTP reply of the chain: a reply code field with the reply's text beside it. */
function smtpDraft(error: unknown, ctx: CallContext): FailureDraft | undefined {
  for (const node of errorChain(error)) {
    const text = readString(node, 'response') ?? readString(node, 'message');
    const code = readProp(node, 'responseCode') ?? readProp(node, 'replyCode') ?? readProp(node, 'code');
    const reply = smtpReply(code, text);
    if (!reply) continue;
    const m = smtpMeaning(reply);
    return refusedDraft({ class: m.class, reason: m.reason, head: `${ctx.tool}: ${m.what}` });
  }
  return undefined;
}

/** The draft of a concept found in codes (`structured`) or only in words; the adapter's `requestSent` wins. */
function conceptDraft(
  concept: Concept,
  structured: boolean,
  requestSent: boolean | undefined,
  ctx: CallContext,
): FailureDraft {
  const r = CONCEPT_ROWS[concept];
  const approval = r.class === C.AUTHORIZATION && ctx.approvalCanLift;
  const meaning = {
    class: r.class,
    reason: approval ? R.APPROVAL_REQUIRED : r.reason,
    head: `${ctx.tool}: ${r.what}${approval ? ' without a human approval' : ''}`,
  };
  if (r.sent === 'refused') return refusedDraft(meaning);
  const sent: SendFact = requestSent === false ? 'not_sent' : structured ? r.sent : 'maybe_sent';
  return draftBySend(meaning, sent, ctx);
}

/**
 * Classifies `error` by its facts (see the module docs).
 * @param requestSent the adapter's knowledge; wins over the transport rules' inference.
 * @returns a frozen, valid failure, or `undefined` when no fact speaks.
 */
export function classifyByFacts(
  error: unknown,
  requestSent: boolean | undefined,
  ctx: CallContext,
): ToolFailure | undefined {
  const smtp = smtpDraft(error, ctx);
  if (smtp) return buildFailure(ctx, smtp);
  const transport = classifyNetworkError(error, requestSent, ctx);
  if (transport) return transport;
  const { codes, texts } = wordsOf(error);
  for (const [list, structured] of [
    [codes, true],
    [texts, false],
  ] as const) {
    for (const text of list) {
      const concept = conceptsOf(text)[0];
      if (concept !== undefined) return buildFailure(ctx, conceptDraft(concept, structured, requestSent, ctx));
    }
  }
  return undefined;
}

/** `CONCEPT_ROWS` as a Markdown table (docs/DESIGN.md's copy). */
export function conceptRowsMarkdown(): string {
  const lines = ['| concept | class / reason | said by a structured code | said by words alone |', '|---|---|---|---|'];
  for (const [concept, r] of Object.entries(CONCEPT_ROWS)) {
    const structured = r.sent === 'refused' ? 'refused: nothing applied' : r.sent.replace('_', ' ');
    const words = r.sent === 'refused' ? 'refused: nothing applied' : 'may have been sent';
    lines.push(`| \`${concept}\` | \`${r.class}\` / \`${r.reason}\` | ${structured} | ${words} |`);
  }
  return lines.join('\n');
}
