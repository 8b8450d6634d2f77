/**
 * The Kafka table (recovery/classify/protocols/tables.ts, `KAFKA`): a broker's error codes as KafkaJS raises them
 * (`KafkaJSProtocolError`: `type` is the code's name, `code` its number, `retriable` the protocol's column), read
 * only when the error shows it speaks Kafka. Pure: errors built in KafkaJS's documented shape; no broker.
 */
import { classify, type CallContext } from '../../../recovery/classify';
import { routeFor } from '../../../recovery/routes';
import { ctxOf, READ, WRITE } from '../classify-helpers';

const kafka = (code: number, type: string, message: string) =>
  Object.assign(new Error(message), { name: 'KafkaJSProtocolError', type, code, retriable: false });

function route(error: unknown, ctx: CallContext = WRITE) {
  const f = classify({ kind: 'thrown', error }, ctx);
  return {
    class: f.class,
    action: routeFor(f).action,
    applied: f.replaySafe ? 'no' : 'maybe',
    message: f.publicMessage,
  };
}

test.each([
  [19, 'NOT_ENOUGH_REPLICAS', 'transient', 'retry', 'no'], // rejected: fewer in-sync replicas than required
  [20, 'NOT_ENOUGH_REPLICAS_AFTER_APPEND', 'outcome_unknown', 'reconcile', 'maybe'], // written, under-replicated
  [7, 'REQUEST_TIMED_OUT', 'outcome_unknown', 'reconcile', 'maybe'],
  [29, 'TOPIC_AUTHORIZATION_FAILED', 'authorization', 'stop', 'no'],
  [58, 'SASL_AUTHENTICATION_FAILED', 'authentication', 'reauth', 'no'],
  [10, 'MESSAGE_TOO_LARGE', 'invalid_arguments', 'repair', 'no'],
  [89, 'THROTTLING_QUOTA_EXCEEDED', 'transient', 'retry', 'no'],
] as const)('a produce answered %i %s → %s/%s, applied %s', (code, type, cls, action, applied) => {
  const r = route(kafka(code, type, 'The broker refused the request'));
  expect(r).toMatchObject({ class: cls, action, applied });
  expect(r.message).toContain(`Kafka ${code} ${type}`);
});

test('a read answered 3 UNKNOWN_TOPIC_OR_PARTITION → replan', () => {
  expect(
    route(kafka(3, 'UNKNOWN_TOPIC_OR_PARTITION', 'This server does not host this topic-partition'), READ),
  ).toMatchObject({ class: 'semantic_rejection', action: 'replan' });
});

test('a code without a fact of Kafka is not read as Kafka; the tool may name it (`errors: "kafka"`)', () => {
  const bare = Object.assign(new Error('rejected'), { code: 29 });
  expect(route(bare).message).not.toContain('Kafka');
  expect(route(bare, ctxOf({ tool: 'publish', effect: 'write', dialect: 'kafka' }))).toMatchObject({
    class: 'authorization',
    message: 'publish: Kafka 29 TOPIC_AUTHORIZATION_FAILED: the caller is not allowed to do this.',
  });
});
