/**
 * What each nats case should route to. Sources: NATS docs, "Request-Reply" (no responders: the server answers a
 * request that no subscriber took with a 503 status, so nothing received it), "Authorization" (-ERR 'Permissions
 * Violation'), "Authentication" (-ERR 'Authorization Violation'), the client protocol's `max_payload`, the JetStream
 * API errors (`api_error.code` is HTTP-like, `err_code` the JetStream code) and docs/DESIGN.md.
 */
import type { ExpectedTable } from './cases';

const NOT_SENT = 'DESIGN.md Phases: a refused connection left nothing; replay-safe for any tool → retry';
const CONNECTING = 'DESIGN.md classes: a connect timeout (no INFO/CONNECT exchange) sent nothing → retry';
const NO_RESPONDERS =
  'NATS docs, no responders: status 503, no subscriber received the request, nothing applied → retry';

export const NATS_EXPECTED: ExpectedTable = {
  'nats.refused.read': { class: 'transient', action: 'retry', source: NOT_SENT },
  'nats.refused.write': { class: 'transient', action: 'retry', applied: 'no', source: NOT_SENT },
  'nats.connect-timeout.read': { class: 'transient', action: 'retry', source: CONNECTING },
  'nats.connect-timeout.write': { class: 'transient', action: 'retry', applied: 'no', source: CONNECTING },
  'nats.no-responders.read': { class: 'transient', action: 'retry', source: NO_RESPONDERS },
  'nats.no-responders.write': { class: 'transient', action: 'retry', applied: 'no', source: NO_RESPONDERS },
  'nats.request-timeout.read': {
    class: 'transient',
    action: 'retry',
    source: 'DESIGN.md classes: a read whose answer timed out is transient and replay-safe → retry',
  },
  'nats.request-timeout.write': {
    class: 'outcome_unknown',
    action: 'reconcile',
    applied: 'maybe',
    source: 'DESIGN.md Phases: the request reached a subscriber and no reply came → outcome_unknown → reconcile',
  },
  'nats.bad-password.read': {
    class: 'authentication',
    action: 'reauth',
    source: "NATS docs: -ERR 'Authorization Violation' on CONNECT is a rejected credential; DESIGN.md Routes → reauth",
  },
  'nats.publish-denied.write': {
    class: 'authorization',
    action: 'stop',
    applied: 'no',
    source: "NATS docs: -ERR 'Permissions Violation for Publish': forbidden by policy; DESIGN.md Routes → stop",
  },
  'nats.max-payload.write': {
    class: 'invalid_arguments',
    action: 'repair',
    applied: 'no',
    source:
      'NATS protocol: a message over max_payload is refused before it is sent; only a smaller one passes → repair',
  },
  'nats.stream-not-found.read': {
    class: 'semantic_rejection',
    action: 'replan',
    source: 'JetStream API error code 404, err_code 10059 "stream not found"; DESIGN.md classes: a 404 → replan',
  },
  'nats.wrong-last-sequence.write': {
    class: 'semantic_rejection',
    action: 'replan',
    applied: 'no',
    source:
      'JetStream API error 400, err_code 10071 "wrong last sequence" (optimistic concurrency, like 412); DESIGN.md → replan',
  },
};
