/**
 * Transport errors (no HTTP answer) → ToolFailure.
 *
 * Reads errors as Node and undici really raise them: `TypeError: fetch failed` whose `cause` carries the `code`
 * (`ECONNREFUSED` with `syscall: 'connect'`, undici's `SocketError` `UND_ERR_SOCKET`), bare errors with `code`,
 * nested causes, `AggregateError` (Happy Eyeballs connects), and the `DOMException`s `TimeoutError` /
 * `AbortError` of `AbortSignal.timeout()` / `abort()`. Every node of the cause chain is read (at most
 * `MAX_CHAIN_NODES`), through readers that never throw.
 *
 * The phase rule (docs/DESIGN.md, "Phases": an unknown outcome is not a failure):
 * - a failure BEFORE the request left the process (refused, DNS, connect timeout, `syscall: 'connect'`, a socket
 *   that wrote 0 bytes) is phase `dispatch`, `transient`, replay-safe for ANY tool, writes included;
 * - AFTER the request may have reached the server (reset, socket closed, headers/body timeout, an abort or
 *   timeout whose moment is unknown) a read is `transient`/retryable; a write whose receiver deduplicates is
 *   `transient`/retryable in phase `commit_unknown`; any other write is `outcome_unknown` in `commit_unknown`
 *   (reconcile), never `transient`.
 * When facts disagree, "may have been sent" wins (the safe side). The adapter's `requestSent` wins over all
 * inference. TLS certificate errors are `unrecoverable` (time does not fix a certificate); argument errors of
 * the HTTP client (`ERR_INVALID_URL`, `UND_ERR_INVALID_ARG`, …) are `unrecoverable/tool_bug`.
 * Pure: no I/O.
 */
import { FailureClass, FailureReason } from '../failure';
import type { FailureDraft } from './build';
import { draftBySend, refusedDraft } from './sent';
import type { CallContext } from './context';
import { asArray, isObjectLike, readNumber, readProp, readString } from './safe';
import { own } from './kinds';
import {
  CODE_RULES,
  CONNECT_SYSCALLS,
  IO_SYSCALLS,
  MESSAGE_RULES,
  NAME_RULES,
  rule,
  SendState,
  type TransportRule,
} from './network-rules';

/** At most this many errors of a cause chain / AggregateError tree are read. */
export const MAX_CHAIN_NODES = 32;
const MAX_DEPTH = 8;

const S = SendState;

/** A recognised fact of the chain: its rule, and where it came from (for the message). */
export interface TransportFact {
  readonly label: string;
  readonly rule: TransportRule;
  readonly sent: 'not_sent' | 'maybe_sent';
}

/**
 * The node's system error code: `code`, or — when a library puts its own code there (nodemailer's `ESOCKET`) —
 * the system one it keeps beside it (`originalCode`; node-fetch's `errno` as a string).
 */
function systemCode(node: unknown): string | undefined {
  const code = readString(node, 'code');
  if (code !== undefined && Object.hasOwn(CODE_RULES, code)) return code;
  return readString(node, 'originalCode') ?? readString(node, 'errno') ?? code;
}

/** A stage a library names (`timeoutType: 'GREETING_TIMEOUT'`, `stage: 'connect'`) in which the connection was not up. */
const CONNECT_STAGES =
  /^(?:conn|connect|connecting|connection|greeting|handshake|tls[_-]?handshake)(?:[_-]?timeout)?$/i;

/**
 * The failure happened while connecting, by a structured fact: `syscall` connect/getaddrinfo (Node's system errors),
 * or — when no syscall says the socket was already reading or writing — a `timeoutType`/`stage`/`phase` field that
 * names the connection or the server's greeting (nodemailer's `timeoutType: 'GREETING_TIMEOUT'`: the server never
 * said hello, so nothing was sent). Not a library's `command` label: nodemailer keeps `command: 'CONN'` on a socket
 * that failed during DATA, and when facts disagree "may have been sent" wins (docs/DESIGN.md, "Phases").
 */
function connecting(node: unknown): boolean {
  const syscall = readString(node, 'syscall') ?? '';
  if (CONNECT_SYSCALLS.test(syscall)) return true;
  if (IO_SYSCALLS.test(syscall)) return false;
  return ['timeoutType', 'stage', 'phase'].some((k) => CONNECT_STAGES.test(readString(node, k) ?? ''));
}

function decideSent(r: TransportRule, node: unknown): 'not_sent' | 'maybe_sent' {
  const syscall = readString(node, 'syscall') ?? '';
  switch (r.sent) {
    case S.NOT_SENT:
      return 'not_sent';
    case S.MAYBE_SENT: {
      // undici's SocketError reports the socket: a socket that wrote nothing sent nothing.
      const written = readNumber(readProp(node, 'socket'), 'bytesWritten');
      return written === 0 ? 'not_sent' : 'maybe_sent';
    }
    case S.BY_SYSCALL:
      return connecting(node) ? 'not_sent' : 'maybe_sent';
    case S.CONNECT_UNLESS_IO:
      return IO_SYSCALLS.test(syscall) ? 'maybe_sent' : 'not_sent';
  }
}

/**
 * Fields where libraries keep the error they wrap (besides `cause` and `errors[]`): node-fetch and grammy `error`,
 * NATS `chainedError`, Sequelize `original`/`parent`, `originalError`, .NET-style `innerError`, NATS JetStream
 * `api_error`, nodemailer `rejectedErrors[]`. Followed only when the value is an object.
 */
export const WRAPPER_FIELDS: readonly string[] = Object.freeze([
  'error',
  'chainedError',
  'original',
  'originalError',
  'parent',
  'innerError',
  'inner',
  'api_error',
]);
const WRAPPER_LISTS: readonly string[] = Object.freeze(['errors', 'rejectedErrors']);

/**
 * The nodes of an error's cause chain, its wrapped errors (`WRAPPER_FIELDS`) and its AggregateError tree, breadth
 * first, without repeats: at most `MAX_CHAIN_NODES` nodes and 8 levels, read through readers that never throw.
 */
export function errorChain(error: unknown): unknown[] {
  const out: unknown[] = [];
  const seen = new Set<unknown>();
  let level: unknown[] = [error];
  for (let depth = 0; depth < MAX_DEPTH && level.length > 0; depth++) {
    const next: unknown[] = [];
    for (const node of level) {
      if (!isObjectLike(node) || seen.has(node) || out.length >= MAX_CHAIN_NODES) continue;
      seen.add(node);
      out.push(node);
      next.push(readProp(node, 'cause'));
      for (const field of WRAPPER_FIELDS) {
        const inner = readProp(node, field);
        if (isObjectLike(inner)) next.push(inner);
      }
      for (const list of WRAPPER_LISTS)
        for (const e of (asArray(readProp(node, list)) ?? []).slice(0, MAX_CHAIN_NODES)) next.push(e);
    }
    level = next;
  }
  return out;
}

/**
 * A Node system error as a library re-threw it in its own words: `connect ECONNREFUSED 127.0.0.1:9200` is the form Node
 * writes for a `SystemError` (`<syscall> <code> <address>:<port>`: Node.js docs, "Class: SystemError"), a structured
 * fact in text form wherever it stands ("Client is closed because read ECONNRESET"), read as its code and syscall.
 */
function systemErrorIn(message: string): TransportFact | undefined {
  const m = /\b(connect|getaddrinfo|read|write) (E[A-Z]+)\b/.exec(message);
  const r = m ? own(CODE_RULES, m[2]!) : undefined;
  return m && r ? { label: m[2]!, rule: r, sent: decideSent(r, { syscall: m[1] }) } : undefined;
}

/** The transport fact of one error by its code or its name, if it has one. */
export function codeFactOf(node: unknown): TransportFact | undefined {
  const code = systemCode(node);
  const byCode =
    code === undefined
      ? undefined
      : (own(CODE_RULES, code) ?? (/^HPE_/.test(code) ? rule(S.MAYBE_SENT, 'network') : undefined));
  if (byCode && code) return { label: code, rule: byCode, sent: decideSent(byCode, node) };
  const name = readString(node, 'name');
  const byName = name === undefined ? undefined : own(NAME_RULES, name);
  return byName && name ? { label: name, rule: byName, sent: decideSent(byName, node) } : undefined;
}

/** The transport fact of one error's message: Node's form of a system error, or a transport phrase. */
export function messageFactOf(node: unknown): TransportFact | undefined {
  const message = readString(node, 'message');
  if (message === undefined) return undefined;
  const hit = MESSAGE_RULES.find(([re]) => re.test(message.trim()));
  return systemErrorIn(message) ?? (hit ? { label: 'network error', rule: hit[1], sent: 'maybe_sent' } : undefined);
}

/** Every recognised transport fact of an error's chain (codes and names; messages only when those find none). */
export function transportFacts(error: unknown): TransportFact[] {
  const chain = errorChain(error);
  const byCode = chain.map(codeFactOf).filter((f): f is TransportFact => f !== undefined);
  return byCode.length > 0 ? byCode : chain.map(messageFactOf).filter((f): f is TransportFact => f !== undefined);
}

/**
 * The draft of an error's transport facts, or `undefined` when none is a recognised transport fact (see the module
 * docs): a network failure by when it happened; a rejected TLS certificate (the request was not sent); a request the
 * HTTP client refused to build (a tool bug).
 * @param requestSent the adapter's knowledge; when a boolean it wins over inference.
 */
export function transportDraft(
  facts: readonly TransportFact[],
  requestSent: boolean | undefined,
  ctx: CallContext,
): FailureDraft | undefined {
  const network = facts.filter((f) => f.rule.kind === 'network');
  const tool = ctx.tool;
  if (network.length > 0) {
    const timeout = network.some((f) => f.rule.reason === 'timeout');
    const sent = requestSent ?? network.some((f) => f.sent === 'maybe_sent');
    const label = (network.find((f) => f.sent === 'maybe_sent') ?? network[0])!.label;
    const head = !sent
      ? `${tool}: ${timeout ? `the connection timed out (${label})` : `could not reach the service (${label})`}`
      : `${tool}: ${timeout ? `the request timed out (${label})` : `the connection failed (${label})`}`;
    const meaning = {
      class: FailureClass.TRANSIENT,
      reason: timeout ? FailureReason.TIMEOUT : FailureReason.NETWORK,
      head,
    };
    return draftBySend(meaning, sent ? 'maybe_sent' : 'not_sent', ctx);
  }
  const tls = facts.find((f) => f.rule.kind === 'tls');
  const bug = facts.find((f) => f.rule.kind === 'tool_bug');
  const refused = (reason: FailureReason, head: string) =>
    refusedDraft({ class: FailureClass.UNRECOVERABLE, reason, head });
  if (tls) {
    const head = `${tool}: the service's TLS certificate was rejected (${tls.label}); the request was not sent. Waiting will not fix this`;
    return refused(FailureReason.NETWORK, head);
  }
  if (!bug) return undefined;
  const head = `${tool}: the tool built a request its HTTP client refused (${bug.label}); this is a bug in the tool`;
  return {
    ...refused(FailureReason.TOOL_BUG, head),
    replaySafe: requestSent !== true || ctx.effect === 'read' || ctx.deduplicates,
  };
}
