/**
 * What each nodemailer case should route to. Reply codes: RFC 5321 §4.2.1 (2yz done, 4yz transient negative:
 * "the command was not accepted, and the requested action did not occur", 5yz permanent) and §4.2.5; enhanced
 * codes: RFC 3463; SMTP AUTH: RFC 4954 §6. Routes: docs/DESIGN.md, "Routes" and "Phases".
 */
import type { ExpectedTable } from './cases';

const T4 = 'RFC 5321 §4.2.1: 4yz transient negative, the action did not occur → retry (not applied)';
const NOT_SENT = 'DESIGN.md Phases: a refused connection left nothing; replay-safe for any tool → retry';
const GREETING =
  'DESIGN.md classes: timeout before send; no 220 greeting came, so no command was sent (RFC 5321 §3.1) → retry';
const AUTH = 'RFC 4954 §6: 535 5.7.8 credentials invalid; DESIGN.md Routes: a rejected credential → reauth';
const LOST = 'DESIGN.md Phases: the message was sent (DATA) and no reply came: outcome_unknown → reconcile';

export const NODEMAILER_EXPECTED: ExpectedTable = {
  'nodemailer.greeting-421.read': {
    class: 'transient',
    action: 'retry',
    source: `RFC 5321 §3.8: 421 at greeting; ${T4}`,
  },
  'nodemailer.greeting-421.write': {
    class: 'transient',
    action: 'retry',
    applied: 'no',
    source: `RFC 5321 §3.8: 421 at greeting, nothing was sent; ${T4}`,
  },
  'nodemailer.greeting-timeout.read': { class: 'transient', action: 'retry', source: GREETING },
  'nodemailer.greeting-timeout.write': { class: 'transient', action: 'retry', applied: 'no', source: GREETING },
  'nodemailer.refused.read': { class: 'transient', action: 'retry', source: NOT_SENT },
  'nodemailer.refused.write': { class: 'transient', action: 'retry', applied: 'no', source: NOT_SENT },
  'nodemailer.auth-535.read': { class: 'authentication', action: 'reauth', source: AUTH },
  'nodemailer.auth-535.write': { class: 'authentication', action: 'reauth', applied: 'no', source: AUTH },
  'nodemailer.auth-454.write': {
    class: 'transient',
    action: 'retry',
    applied: 'no',
    source: 'RFC 4954 §6: 454 4.7.0 temporary authentication failure; RFC 5321 §4.2.1 4yz → retry',
  },
  'nodemailer.mail-from-530.write': {
    class: 'authentication',
    action: 'reauth',
    applied: 'no',
    source: 'RFC 4954 §6: 530 5.7.0 authentication required (credential missing) → reauth',
  },
  'nodemailer.mail-from-451.write': {
    class: 'transient',
    action: 'retry',
    applied: 'no',
    source: `RFC 6647 greylisting; ${T4}`,
  },
  'nodemailer.mail-from-421.write': { class: 'transient', action: 'retry', applied: 'no', source: `421 4.4.5; ${T4}` },
  'nodemailer.mail-from-553.write': {
    class: 'invalid_arguments',
    action: 'repair',
    applied: 'no',
    source: "RFC 3463 X.1.7 bad sender's mailbox address syntax: the argument must change → repair",
  },
  'nodemailer.rcpt-450.write': {
    class: 'transient',
    action: 'retry',
    applied: 'no',
    source: `450 4.2.1 mailbox busy; ${T4}`,
  },
  'nodemailer.rcpt-452.write': {
    class: 'transient',
    action: 'retry',
    applied: 'no',
    source: `RFC 5321 §4.5.3.1.10: 452 too many recipients, send the rest later; ${T4}`,
  },
  'nodemailer.rcpt-550.write': {
    class: 'semantic_rejection',
    action: 'replan',
    applied: 'no',
    source: 'RFC 3463 X.1.1 bad destination mailbox: the recipient does not exist (a 404 of the mail world) → replan',
  },
  'nodemailer.data-451.write': {
    class: 'transient',
    action: 'retry',
    applied: 'no',
    source: `451 4.3.0 at end of DATA; ${T4}`,
  },
  'nodemailer.data-452.write': {
    class: 'transient',
    action: 'retry',
    applied: 'no',
    source: `452 4.3.1 storage; ${T4}`,
  },
  'nodemailer.data-552.write': {
    class: 'invalid_arguments',
    action: 'repair',
    applied: 'no',
    source: 'RFC 3463 X.3.4 message too big for system: only a smaller message can pass (issue 28: too_large) → repair',
  },
  'nodemailer.data-554.write': {
    class: 'authorization',
    action: 'stop',
    applied: 'no',
    source:
      'RFC 3463 X.7.1 delivery not authorized, message refused (policy); DESIGN.md Routes: a policy refusal → stop',
  },
  'nodemailer.data-reset.write': { class: 'outcome_unknown', action: 'reconcile', applied: 'maybe', source: LOST },
  'nodemailer.data-no-reply.write': { class: 'outcome_unknown', action: 'reconcile', applied: 'maybe', source: LOST },
};
