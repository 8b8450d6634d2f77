/**
 * Mail submission replies (SMTP) as facts, whatever library carried them: a reply code (RFC 5321 §4.2) on a field of
 * its own, with the enhanced status code (RFC 3463) at the start of the reply text. Every 4yz or 5yz reply is the
 * server refusing that command — the message was not accepted, so nothing was applied (RFC 5321 §4.2.1, and §4.1.1.4:
 * a failure reply to the end of DATA means the receiver does not deliver it) — so each row is `refused`.
 * Pure: no I/O.
 */
import { FailureClass, FailureReason } from '../failure';

/** A reply code and its enhanced status code `class.subject.detail`, when the text carries one. */
export interface SmtpReply {
  readonly code: number;
  readonly enhanced?: { readonly cls: number; readonly subject: number; readonly detail: number };
}

/** What a reply means: class, reason, the words for the model, and the row's source. */
export interface SmtpMeaning {
  readonly class: FailureClass;
  readonly reason: FailureReason;
  readonly what: string;
  readonly source: string;
}

const C = FailureClass;
const R = FailureReason;
const m = (cls: FailureClass, reason: FailureReason, what: string, source: string): SmtpMeaning => ({
  class: cls,
  reason,
  what,
  source,
});

const ENHANCED = /(?:^|\s)([245])\.(\d{1,3})\.(\d{1,3})(?=\s|$)/;
const REPLY_AT_START = /^([2-5]\d\d)[\s-]/;

/**
 * The SMTP reply carried by `code` (a number or numeric string) and `text` (the reply line), or `undefined` when they
 * are not one: a reply is a code of 4yz or 5yz whose text starts with the same code, or carries an enhanced status
 * code of the same class (RFC 3463 §2: the class digit repeats the reply's first digit). An HTTP status is never both.
 */
export function smtpReply(code: unknown, text: string | undefined): SmtpReply | undefined {
  const n = typeof code === 'number' ? code : typeof code === 'string' && /^\d{3}$/.test(code) ? Number(code) : NaN;
  if (!Number.isInteger(n) || n < 400 || n > 599 || text === undefined) return undefined;
  const e = ENHANCED.exec(text);
  const enhanced = e ? { cls: Number(e[1]), subject: Number(e[2]), detail: Number(e[3]) } : undefined;
  const startsWithCode = REPLY_AT_START.exec(text.trim())?.[1] === String(n);
  if (!startsWithCode && enhanced?.cls !== Math.floor(n / 100)) return undefined;
  return enhanced && enhanced.cls === Math.floor(n / 100) ? { code: n, enhanced } : { code: n };
}

/** What the reply means (the rows below, enhanced code first, then the reply code). */
export function smtpMeaning(reply: SmtpReply): SmtpMeaning {
  const e = reply.enhanced;
  if (Math.floor(reply.code / 100) === 4) {
    return m(
      C.TRANSIENT,
      R.UNAVAILABLE,
      `the mail server refused it for now (${label(reply)})`,
      'RFC 5321 §4.2.1: 4yz is a transient negative completion; the command may be sent again later',
    );
  }
  if (e?.subject === 7) {
    if (e.detail === 0 || e.detail === 8 || e.detail === 9 || reply.code === 530 || reply.code === 535)
      return m(
        C.AUTHENTICATION,
        R.CREDENTIAL_MISSING,
        `the mail server refused the credentials (${label(reply)})`,
        'RFC 4954 §6: 530 5.7.0 Authentication required, 535 5.7.8 Authentication credentials invalid, 534 5.7.9',
      );
    return m(
      C.AUTHORIZATION,
      R.POLICY_DENIED,
      `the mail server refused it by policy (${label(reply)})`,
      'RFC 3463 §3.8: X.7.x security or policy status (5.7.1 delivery not authorized, message refused)',
    );
  }
  if (e?.subject === 1 && (e.detail === 3 || e.detail === 7))
    return m(
      C.INVALID_ARGUMENTS,
      R.SCHEMA,
      `the mail server refused an address's syntax (${label(reply)})`,
      'RFC 3463 §3.2: X.1.3 bad destination mailbox address syntax, X.1.7 bad sender mailbox syntax',
    );
  if (e?.subject === 1)
    return m(
      C.SEMANTIC_REJECTION,
      R.NOT_FOUND,
      `the mail server has no such mailbox or domain (${label(reply)})`,
      'RFC 3463 §3.2: X.1.x addressing status (5.1.1 bad destination mailbox)',
    );
  if ((e?.subject === 3 && e.detail === 4) || (e?.subject === 2 && e.detail === 3) || reply.code === 552)
    return m(
      C.INVALID_ARGUMENTS,
      R.SCHEMA,
      `the message is too big for the mail server (${label(reply)})`,
      'RFC 3463 §3.5 X.3.4 message too big for system, §3.3 X.2.3; RFC 5321 §4.2.2 552',
    );
  if (e?.subject === 5 || (reply.code >= 500 && reply.code <= 504) || reply.code === 553)
    return m(
      C.INVALID_ARGUMENTS,
      R.SCHEMA,
      `the mail server refused the command's syntax or arguments (${label(reply)})`,
      'RFC 5321 §4.2.2: 500-504 syntax and parameter errors, 553 mailbox name not allowed; RFC 3463 §3.6 X.5.x',
    );
  if (reply.code === 530 || reply.code === 535)
    return m(
      C.AUTHENTICATION,
      R.CREDENTIAL_MISSING,
      `the mail server refused the credentials (${label(reply)})`,
      'RFC 4954 §6: 530 Authentication required, 535 Authentication credentials invalid',
    );
  return m(
    C.SEMANTIC_REJECTION,
    R.UNSPECIFIED,
    `the mail server refused it (${label(reply)})`,
    'RFC 5321 §4.2.1: 5yz is a permanent negative completion; the same command fails again',
  );
}

/** `SMTP 550 5.1.1`: the codes alone, never the server's words. */
function label(reply: SmtpReply): string {
  const e = reply.enhanced;
  return `SMTP ${reply.code}${e ? ` ${e.cls}.${e.subject}.${e.detail}` : ''}`;
}
