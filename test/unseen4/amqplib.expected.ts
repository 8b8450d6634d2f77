/**
 * What each amqplib case should route to. Sources: AMQP 0-9-1 (§1.2 "Constants": a reply code of class "soft
 * error" closes the channel, "hard error" the connection; the operation that caused it was not performed), the
 * constants' texts — 320 connection-forced "An operator intervened to close the connection for some reason. The
 * client may retry at some later date.", 403 access-refused "The client attempted to work with a server entity to
 * which it has no access due to security settings.", 404 not-found "… a server entity that does not exist.", 405
 * resource-locked "… to which it has no access because another client is working with it.", 406
 * precondition-failed "The client requested a method that was not allowed because some precondition failed." —
 * RabbitMQ's docs ("Access Control": a login refused with 403 ACCESS_REFUSED; "Queues": an inequivalent
 * redeclaration and an exclusive queue used by another connection; `max_message_size`), and docs/DESIGN.md. An AMQP
 * reply code is read in AMQP's table: 406 is not HTTP's Not Acceptable, 405 not HTTP's Method Not Allowed, 320 not a
 * number of anything else.
 */
import type { ExpectedTable4 } from './cases';

const NOT_SENT = 'DESIGN.md Phases: a refused connection left nothing; replay-safe for any tool → retry';
const LOGIN =
  'RabbitMQ Access Control: a failed login is refused with 403 ACCESS_REFUSED ("Login was refused using authentication mechanism PLAIN") during the handshake; DESIGN.md classes: a rejected credential → reauth';
const FORBIDDEN =
  "AMQP 0-9-1 403 access-refused (soft error; RabbitMQ: \"access to queue 'payroll' … refused for user 'agent'\", a permission, not the login); DESIGN.md Routes → stop";
const NOT_FOUND =
  'AMQP 0-9-1 404 not-found: "a server entity that does not exist" (RabbitMQ "NOT_FOUND - no queue/exchange …"); DESIGN.md classes: 404-like → replan';

export const AMQPLIB_EXPECTED: ExpectedTable4 = {
  'amqplib.refused.read': { class: 'transient', action: 'retry', harm: 'costly', source: NOT_SENT },
  'amqplib.refused.write': { class: 'transient', action: 'retry', applied: 'no', harm: 'costly', source: NOT_SENT },
  'amqplib.login-access-refused-403.read': { class: 'authentication', action: 'reauth', harm: 'costly', source: LOGIN },
  'amqplib.login-access-refused-403.write': {
    class: 'authentication',
    action: 'reauth',
    applied: 'no',
    harm: 'costly',
    source: `${LOGIN}; nothing was published`,
  },
  'amqplib.access-refused-403.read': { class: 'authorization', action: 'stop', harm: 'costly', source: FORBIDDEN },
  'amqplib.access-refused-403.write': {
    class: 'authorization',
    action: 'stop',
    applied: 'no',
    harm: 'costly',
    source: `${FORBIDDEN}; RabbitMQ "write access to exchange 'audit' … refused": the message was not routed`,
  },
  'amqplib.not-found-404.read': { class: 'semantic_rejection', action: 'replan', harm: 'costly', source: NOT_FOUND },
  'amqplib.not-found-404.write': {
    class: 'semantic_rejection',
    action: 'replan',
    applied: 'no',
    harm: 'costly',
    source: `${NOT_FOUND}; a publish to a missing exchange is refused (the channel closes), nothing was routed`,
  },
  'amqplib.resource-locked-405.read': {
    class: 'semantic_rejection',
    action: 'replan',
    harm: 'costly',
    source:
      'AMQP 0-9-1 405 resource-locked; RabbitMQ Queues: an exclusive queue "can only be used … by its declaring connection" (it lives as long as that connection): the world\'s state refuses the call, waiting has no bound, not a permission → replan',
  },
  'amqplib.inequivalent-arg-406.write': {
    class: 'semantic_rejection',
    action: 'replan',
    applied: 'no',
    harm: 'costly',
    source:
      'AMQP 0-9-1 406 precondition-failed; RabbitMQ Queues: redeclaring with other properties fails with "inequivalent arg \'durable\'": the queue exists as it is (a precondition on the state, as RFC 9110 412) → replan',
  },
  'amqplib.queue-not-empty-406.write': {
    class: 'semantic_rejection',
    action: 'replan',
    applied: 'no',
    harm: 'costly',
    source:
      'AMQP 0-9-1 406 precondition-failed on queue.delete if-empty ("queue \'inbox\' … not empty"): the state refuses the call, the queue was not deleted → replan',
  },
  'amqplib.message-too-large-406.write': {
    class: 'invalid_arguments',
    action: 'repair',
    applied: 'no',
    harm: 'costly',
    source:
      'RabbitMQ max_message_size: a larger message is refused with 406 PRECONDITION_FAILED "message size … is larger than configured max size"; the message as sent is the problem (RFC 9110 413 analogue; DESIGN.md vocabulary too_large → invalid_arguments) → repair',
  },
  'amqplib.connection-forced-320.read': {
    class: 'transient',
    action: 'retry',
    harm: 'costly',
    source:
      'AMQP 0-9-1 320 connection-forced: "An operator intervened to close the connection … The client may retry at some later date" (rabbitmqctl close_all_connections); a read → transient → retry',
  },
  'amqplib.reset-after-request.read': {
    class: 'transient',
    action: 'retry',
    harm: 'costly',
    source: 'DESIGN.md classes: a read whose connection was reset after its request left is replay-safe → retry',
  },
  'amqplib.reset-after-request.write': {
    class: 'outcome_unknown',
    action: 'reconcile',
    applied: 'maybe',
    harm: 'unsafe',
    source:
      'DESIGN.md Phases: a connection lost after a publish was sent and before its confirm is outcome_unknown → reconcile',
  },
};
