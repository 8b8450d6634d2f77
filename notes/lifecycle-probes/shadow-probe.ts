/**
 * Probe: a write's lost answer as a client library throws it (live) and as history records it (the shadow report),
 * classified both ways. Run: `npx ts-node --transpile-only notes/lifecycle-probes/shadow-probe.ts`.
 */
import { recordedError } from '../../operator/history-failure';
import { classifyActivityFailure } from '../../plugin/shadow/decide';

const samples: Record<string, Error & Record<string, unknown>> = {
  pg: Object.assign(new Error('Connection terminated unexpectedly'), {}),
  mysql2: Object.assign(new Error('Connection lost: The server closed the connection.'), { code: 'PROTOCOL_CONNECTION_LOST', fatal: true }),
  redis: Object.assign(new Error('Socket closed unexpectedly'), { name: 'SocketClosedUnexpectedlyError' }),
  mongo: Object.assign(new Error('connection 1 to 127.0.0.1:27017 closed'), { name: 'MongoNetworkError' }),
  axiosReset: Object.assign(new Error('socket hang up'), { name: 'AxiosError', code: 'ECONNRESET' }),
  gotReset: Object.assign(new Error('read ECONNRESET'), { name: 'RequestError', code: 'ECONNRESET' }),
  undiciTerminated: Object.assign(new TypeError('terminated'), { cause: Object.assign(new Error('other side closed'), { name: 'SocketError', code: 'UND_ERR_SOCKET' }) }),
  grpc: Object.assign(new Error('14 UNAVAILABLE: Connection dropped'), { code: 14, details: 'Connection dropped' }),
  stripeConn: Object.assign(new Error('An error occurred with our connection to Stripe. Request was retried 2 times.'), { type: 'StripeConnectionError', name: 'StripeConnectionError' }),
  abortTimeout: Object.assign(new Error('The operation was aborted due to timeout'), { name: 'TimeoutError', code: 23 }),
};

function asRecorded(e: Error & Record<string, unknown>): object {
  const cause = e.cause as (Error & Record<string, unknown>) | undefined;
  return {
    message: e.message,
    applicationFailureInfo: { type: e.name },
    ...(cause ? { cause: { message: cause.message, applicationFailureInfo: { type: cause.name } } } : {}),
  };
}

const facts = { activityType: 'chargeCard', activityId: '1', attempt: 1 };
for (const [name, e] of Object.entries(samples)) {
  const live = classifyActivityFailure(e, facts, { effect: 'write' }, Date.now()).failure;
  const rec = classifyActivityFailure(recordedError(asRecorded(e) as never), facts, { effect: 'write' }, Date.now()).failure;
  console.log(name.padEnd(18), `${live.class}/${live.reason}`.padEnd(32), `${rec.class}/${rec.reason}`);
}
