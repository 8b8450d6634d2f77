/**
 * amqplib (AMQP 0-9-1 messaging) against Debian's real RabbitMQ (./rabbitmq.ts), through a TCP proxy for lost
 * answers. amqplib raises a plain `Error` whose `code` is the AMQP reply code (AMQP 0-9-1 §1.2 "Constants": 320
 * connection-forced, 403 access-refused, 404 not-found, 405 resource-locked, 406 precondition-failed) when the
 * server closes a channel ("Channel closed by server: 404 (NOT-FOUND) with message \"NOT_FOUND - no exchange …\"")
 * or the connection ("Connection closed: 320 (CONNECTION-FORCED) …", on the connection's `close` event), and no
 * `code` when the server refuses the handshake ("Handshake terminated by server: 403 (ACCESS-REFUSED) …"); Node's
 * socket errors pass through.
 *
 * Each tool waits on the operation and on the channel's and the connection's `error` and `close` events, as
 * amqplib's docs ask ("Channel events", "Connection events": a server-closed channel or connection reports its
 * reason there); a write publishes on a confirm channel and waits for the broker's ack (RabbitMQ docs, "Publisher
 * Confirms").
 */
import amqp, { type ChannelModel, type ConfirmChannel } from 'amqplib';
import type { Effect, UnseenCase, UnseenLibrary } from '../unseen/cases';
import { closedPort, tcpProxy } from '../unseen/net-fixtures';
import { AGENT, MAX_MESSAGE_BYTES, startRabbitMq } from './rabbitmq';

/** An AMQP URL for `port` as the agent (`password` to override). */
const urlOf = (port: number, password = AGENT.password) =>
  `amqp://${AGENT.username}:${encodeURIComponent(password)}@127.0.0.1:${port}/`;

/**
 * Connects, opens a confirm channel and runs `op`; the first of its failure, the channel's `error` and the
 * connection's `error` or `close` (amqplib passes a server's close reason to `close`) ends the call. Always closes.
 */
async function using(url: string, op: (ch: ConfirmChannel, c: ChannelModel) => Promise<unknown>): Promise<void> {
  const c = await amqp.connect(url, { timeout: 5_000 });
  c.on('error', () => undefined); // reported below; an unheard 'error' would end the process
  try {
    const ch = await c.createConfirmChannel();
    ch.on('error', () => undefined);
    await new Promise((resolve, reject) => {
      c.once('error', reject);
      c.once('close', (err?: Error) => reject(err ?? new Error('Connection closed')));
      ch.once('error', reject);
      op(ch, c).then(resolve, reject);
    });
  } finally {
    await c.close().catch(() => undefined);
  }
}

/** A write: publishes `bytes` bytes to `exchange` and waits for the broker's confirm. */
const publish =
  (exchange: string, key = 'order.created', bytes = 64) =>
  (ch: ConfirmChannel) =>
    new Promise<void>((resolve, reject) => {
      ch.publish(exchange, key, Buffer.alloc(bytes, 1), { persistent: true }, (err: unknown) =>
        err ? reject(err instanceof Error ? err : new Error(String(err))) : resolve(),
      );
    });
/** A read: takes one message from `queue` (none is an answer too). */
const get = (queue: string) => (ch: ConfirmChannel) => ch.get(queue);
/** A read that waits for the next message on `queue`; `started` runs once the consumer is registered. */
const nextMessage =
  (queue: string, started: () => void = () => undefined) =>
  async (ch: ConfirmChannel) => {
    let arrived: (m: unknown) => void = () => undefined;
    const next = new Promise((resolve) => (arrived = resolve));
    await ch.consume(queue, (m) => arrived(m), { noAck: true });
    started();
    return next;
  };

export const amqplibLibrary: UnseenLibrary = {
  name: 'amqplib',
  kind: 'message broker (AMQP 0-9-1)',
  server: `RabbitMQ 3.10 (Debian): definitions with per-user permissions, max_message_size ${MAX_MESSAGE_BYTES}`,
  async start() {
    const rabbit = await startRabbitMq();
    const proxy = await tcpProxy(rabbit.port);
    const url = urlOf(rabbit.port);
    const refused = urlOf(await closedPort());
    // Holds `agent.replies`, an exclusive queue: only its declaring connection may use it (RabbitMQ docs, "Queues").
    const holder = await amqp.connect(url);
    holder.on('error', () => undefined);
    await (await holder.createChannel()).assertQueue('agent.replies', { exclusive: true });
    // A message in `inbox` (bound to `orders` by `order.#`), so the queue is not empty.
    await using(url, publish('orders'));
    /** Connects through the proxy, then cuts the connection once the next request reached the broker. */
    const cut = (op: (ch: ConfirmChannel) => Promise<unknown>) => () =>
      using(urlOf(proxy.port), async (ch) => {
        proxy.mode = 'reset_after_request';
        try {
          await op(ch);
        } finally {
          proxy.mode = 'forward';
        }
      });
    /**
     * An operator closes every connection (`rabbitmqctl close_all_connections`: 320 CONNECTION_FORCED). If the
     * command fails the case would wait forever and, as a listed miss, pass unseen: the run ends loudly instead (its
     * exit handler still kills the broker).
     */
    const operatorCloses = () =>
      void rabbit.ctl(['close_all_connections', 'maintenance window']).catch((e: unknown) => {
        console.error('rabbitmqctl close_all_connections failed:', e);
        process.exit(3);
      });
    const one = (name: string, effect: Effect, run: () => Promise<unknown>): UnseenCase => ({
      id: `amqplib.${name}.${effect}`,
      effect,
      run,
    });
    const cases: UnseenCase[] = [
      one('refused', 'read', () => using(refused, get('inbox'))),
      one('refused', 'write', () => using(refused, publish('orders'))),
      one('login-access-refused-403', 'read', () => using(urlOf(rabbit.port, 'wrong'), get('inbox'))),
      one('login-access-refused-403', 'write', () => using(urlOf(rabbit.port, 'wrong'), publish('orders'))),
      one('access-refused-403', 'read', () => using(url, get('payroll'))),
      one('access-refused-403', 'write', () => using(url, publish('audit', ''))),
      one('not-found-404', 'read', () => using(url, get('archive'))),
      one('not-found-404', 'write', () => using(url, publish('refunds'))),
      one('resource-locked-405', 'read', () => using(url, nextMessage('agent.replies'))),
      one('inequivalent-arg-406', 'write', () => using(url, (ch) => ch.assertQueue('jobs', { durable: false }))),
      one('queue-not-empty-406', 'write', () => using(url, (ch) => ch.deleteQueue('inbox', { ifEmpty: true }))),
      one('message-too-large-406', 'write', () =>
        using(url, publish('orders', 'order.created', 2 * MAX_MESSAGE_BYTES)),
      ),
      // Last of the cases on the broker: `close_all_connections` closes the holder's connection too.
      one('connection-forced-320', 'read', () => using(url, nextMessage('jobs', operatorCloses))),
      one('reset-after-request', 'read', cut(get('inbox'))),
      one('reset-after-request', 'write', cut(publish('orders'))),
    ];
    return {
      cases,
      stop: async () => {
        await holder.close().catch(() => undefined);
        await proxy.stop();
        await rabbit.stop();
      },
    };
  },
};
