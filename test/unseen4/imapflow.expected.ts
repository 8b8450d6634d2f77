/**
 * What each imapflow case should route to. Sources: RFC 3501 (§7.1 status responses: a tagged NO is "operational
 * error message from the server", the command was not carried out; §7.1 TRYCREATE: "the target mailbox does not
 * exist (as opposed to some other reason) … the operation can succeed if the mailbox is first created"), RFC 5530
 * response codes (AUTHENTICATIONFAILED "Authentication failed for some reason on which the server is unwilling to
 * elaborate", UNAVAILABLE "Temporary failure because a subsystem is down", NOPERM "The access control system (e.g.,
 * ACL) does not permit this user to carry out an operation", NONEXISTENT "The operation attempts to access
 * something which does not exist", ALREADYEXISTS "The operation attempts to create something which already exists",
 * OVERQUOTA "The user would be over quota after the operation", CANNOT "This operation violates some invariant of
 * the server and can never succeed"), Dovecot's texts, and docs/DESIGN.md. An IMAP response code outranks the
 * library's own flag: imapflow sets `authenticationFailed` on every failed LOGIN, UNAVAILABLE included.
 */
import type { ExpectedTable4 } from './cases';

const NOT_SENT = 'DESIGN.md Phases: a refused connection left nothing; replay-safe for any tool → retry';
const AUTHN =
  'RFC 5530 AUTHENTICATIONFAILED on LOGIN (Dovecot "Authentication failed."); DESIGN.md classes: a rejected credential → reauth';
const UNAVAILABLE =
  'RFC 5530 UNAVAILABLE: "Temporary failure because a subsystem is down" (Dovecot "Temporary authentication failure": the password database is down); not the credential, although imapflow flags authenticationFailed → transient → retry';
const NOPERM =
  'RFC 5530 NOPERM: "The access control system (e.g., ACL) does not permit this user to carry out an operation" (Dovecot "Permission denied"); DESIGN.md Routes → stop';
const NOT_FOUND_DESIGN = 'DESIGN.md classes: 404-like → replan';

export const IMAPFLOW_EXPECTED: ExpectedTable4 = {
  'imapflow.refused.read': { class: 'transient', action: 'retry', harm: 'costly', source: NOT_SENT },
  'imapflow.refused.write': { class: 'transient', action: 'retry', applied: 'no', harm: 'costly', source: NOT_SENT },
  'imapflow.authenticationfailed.read': { class: 'authentication', action: 'reauth', harm: 'costly', source: AUTHN },
  'imapflow.authenticationfailed.write': {
    class: 'authentication',
    action: 'reauth',
    applied: 'no',
    harm: 'costly',
    source: `${AUTHN}; nothing was appended`,
  },
  'imapflow.unavailable.read': { class: 'transient', action: 'retry', harm: 'costly', source: UNAVAILABLE },
  'imapflow.unavailable.write': {
    class: 'transient',
    action: 'retry',
    applied: 'no',
    harm: 'costly',
    source: `${UNAVAILABLE}; the login failed, nothing was appended`,
  },
  'imapflow.noperm.read': { class: 'authorization', action: 'stop', harm: 'costly', source: NOPERM },
  'imapflow.noperm.write': {
    class: 'authorization',
    action: 'stop',
    applied: 'no',
    harm: 'costly',
    source: `${NOPERM} (ACL grants lookup and read, not insert)`,
  },
  'imapflow.mailbox-does-not-exist.read': {
    class: 'semantic_rejection',
    action: 'replan',
    harm: 'costly',
    source: `RFC 3501 §6.3.1 SELECT: NO "no such mailbox" (Dovecot "Mailbox doesn't exist: Archive", no response code); ${NOT_FOUND_DESIGN}`,
  },
  'imapflow.nonexistent.write': {
    class: 'semantic_rejection',
    action: 'replan',
    applied: 'no',
    harm: 'costly',
    source: `RFC 5530 NONEXISTENT on DELETE: "something which does not exist"; ${NOT_FOUND_DESIGN}`,
  },
  'imapflow.trycreate.write': {
    class: 'semantic_rejection',
    action: 'replan',
    applied: 'no',
    harm: 'costly',
    source:
      'RFC 3501 §7.1 TRYCREATE on APPEND: the target mailbox does not exist, the operation can succeed once it is created (another call first) → replan',
  },
  'imapflow.alreadyexists.write': {
    class: 'semantic_rejection',
    action: 'replan',
    applied: 'no',
    harm: 'costly',
    source:
      'RFC 5530 ALREADYEXISTS on RENAME (Dovecot "Target mailbox already exists"): the state refuses the call, Drafts was not renamed → replan',
  },
  'imapflow.overquota.write': {
    class: 'unrecoverable',
    action: 'escalate',
    applied: 'no',
    harm: 'mild',
    source:
      'RFC 5530 OVERQUOTA (Dovecot "Quota exceeded (mailbox for user is full)"): the message was not appended; docs/tools.md kinds: quota → unrecoverable → escalate',
  },
  'imapflow.cannot-name-too-long.write': {
    class: 'invalid_arguments',
    action: 'repair',
    applied: 'no',
    harm: 'costly',
    source:
      'RFC 5530 CANNOT: "violates some invariant of the server and can never succeed" — here Dovecot "Mailbox name too long": the argument as sent cannot pass, a shorter name can (DESIGN.md vocabulary too_large) → repair',
  },
  'imapflow.reset-after-request.read': {
    class: 'transient',
    action: 'retry',
    harm: 'costly',
    source: 'DESIGN.md classes: a read whose connection was reset after its command left is replay-safe → retry',
  },
  'imapflow.reset-after-request.write': {
    class: 'outcome_unknown',
    action: 'reconcile',
    applied: 'maybe',
    harm: 'unsafe',
    source: 'DESIGN.md Phases: a connection lost after an APPEND was sent is outcome_unknown → reconcile',
  },
};
