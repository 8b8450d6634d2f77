/**
 * What each grammy case should route to. Sources: Telegram Bot API ("Making requests": error_code and description;
 * `ResponseParameters.retry_after`: "the number of seconds left to wait before the request can be repeated";
 * grammY docs "Flood Limits": a 429 asks the bot to wait `retry_after`), RFC 9110 and docs/DESIGN.md.
 */
import type { ExpectedTable } from './cases';

const FLOOD = 'Bot API: error_code 429 with parameters.retry_after, nothing was sent → retry after it';

export const GRAMMY_EXPECTED: ExpectedTable = {
  'grammy.refused.read': {
    class: 'transient',
    action: 'retry',
    source: 'DESIGN.md Phases: refused connection → retry',
  },
  'grammy.refused.write': {
    class: 'transient',
    action: 'retry',
    applied: 'no',
    source: 'DESIGN.md Phases: a refused connection left nothing; replay-safe for any tool → retry',
  },
  'grammy.answer-timeout.write': {
    class: 'outcome_unknown',
    action: 'reconcile',
    applied: 'maybe',
    source: 'DESIGN.md Phases: sendMessage was sent and no answer came → outcome_unknown → reconcile',
  },
  'grammy.flood-wait.read': { class: 'transient', action: 'retry', source: FLOOD },
  'grammy.flood-wait.write': { class: 'transient', action: 'retry', applied: 'no', source: FLOOD },
  'grammy.bad-token.read': {
    class: 'authentication',
    action: 'reauth',
    source: 'Bot API: error_code 401 Unauthorized (a bad bot token); DESIGN.md Routes: 401 → reauth',
  },
  'grammy.blocked-by-user.write': {
    class: 'authorization',
    action: 'stop',
    applied: 'no',
    source:
      'Bot API: error_code 403 "bot was blocked by the user"; DESIGN.md Routes: a 403 nobody here can lift → stop',
  },
  'grammy.not-enough-rights.write': {
    class: 'authorization',
    action: 'stop',
    applied: 'no',
    source:
      'Bot API: 400 "not enough rights" is a missing chat permission, not a bad argument; DESIGN.md Routes → stop',
  },
  'grammy.chat-not-found.write': {
    class: 'semantic_rejection',
    action: 'replan',
    applied: 'no',
    source: 'Bot API: 400 "chat not found", the target does not exist (a 404 in words) → replan',
  },
  'grammy.text-empty.write': {
    class: 'invalid_arguments',
    action: 'repair',
    applied: 'no',
    source: 'Bot API sendMessage: text is 1-4096 characters; 400 "message text is empty" → repair',
  },
  'grammy.text-too-long.write': {
    class: 'invalid_arguments',
    action: 'repair',
    applied: 'no',
    source: 'Bot API sendMessage: text is 1-4096 characters; 400 "message is too long" (issue 28: too_long) → repair',
  },
  'grammy.not-modified.write': {
    class: 'semantic_rejection',
    action: 'replan',
    applied: 'no',
    verify: true,
    source:
      'Bot API: 400 "message is not modified" = the message already holds this text; DESIGN.md "Already done is done"',
  },
  'grammy.unknown-method.read': {
    class: 'capability_missing',
    action: 'replan',
    source: 'Bot API: an unknown method answers error_code 404 "Not Found"; DESIGN.md classes: unknown tool → replan',
  },
  'grammy.bad-gateway.read': {
    class: 'transient',
    action: 'retry',
    source: 'RFC 9110 §15.6.3: 502; DESIGN.md classes: 502 is transient, a read is replay-safe → retry',
  },
};
