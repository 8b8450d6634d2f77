/**
 * mqtt (MQTT.js, IoT messaging, MQTT 5.0) against Debian's real `mosquitto` with a password file and an ACL, through
 * a TCP proxy for lost answers. MQTT.js raises `ErrorWithReasonCode` with `code` = the MQTT 5.0 reason code of the
 * CONNACK or PUBACK (MQTT 5.0 §2.4) and a message naming it ("Publish error: Not authorized"), and passes Node's
 * socket errors through. Reconnects are off (Temporal owns retries).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mqtt, { type MqttClient } from 'mqtt';
import type { Effect, UnseenCase, UnseenLibrary } from '../unseen/cases';
import { closedPort, findBinary, freePort, spawnServer, tcpProxy } from '../unseen/net-fixtures';

const AGENT = { username: 'agent', password: 'agent-password' };

/** mosquitto.conf(5): one listener, no anonymous clients, a password file and an ACL (root: the temp dir is 0700). */
function config(dir: string, port: number): string {
  return [
    'user root',
    `listener ${port} 127.0.0.1`,
    'allow_anonymous false',
    `password_file ${join(dir, 'passwd')}`,
    `acl_file ${join(dir, 'acl')}`,
    '',
  ].join('\n');
}

/** Connects (MQTT 5, no reconnects), runs `op`, and always ends the client. */
async function using(port: number, op: (c: MqttClient) => Promise<unknown>, password = AGENT.password): Promise<void> {
  const c = await mqtt.connectAsync(`mqtt://127.0.0.1:${port}`, {
    ...AGENT,
    password,
    protocolVersion: 5,
    reconnectPeriod: 0,
    connectTimeout: 3_000,
  });
  try {
    await op(c);
  } finally {
    await c.endAsync(true).catch(() => undefined);
  }
}

/** A QoS 1 publish: resolves on the broker's PUBACK; a connection closed first rejects (MQTT.js would wait on). */
const publish = (topic: string) => (c: MqttClient) =>
  new Promise((resolve, reject) => {
    c.once('close', () => reject(new Error('Connection closed')));
    c.publishAsync(topic, '{"orderId":42}', { qos: 1 }).then(resolve, reject);
  });
/** A read: subscribes and waits for the topic's retained message. */
const readRetained = (topic: string) => (c: MqttClient) =>
  new Promise((resolve, reject) => {
    c.once('message', resolve);
    c.once('close', () => reject(new Error('Connection closed')));
    c.subscribeAsync(topic, { qos: 1 }).catch(reject);
  });

export const mqttLibrary: UnseenLibrary = {
  name: 'mqtt',
  kind: 'IoT messaging (MQTT 5.0)',
  server: 'mosquitto 2.0 (Debian) with a password file and an ACL; a TCP proxy',
  async start() {
    const dir = mkdtempSync(join(tmpdir(), 'unseen4-mqtt-'));
    execFileSync(findBinary('mosquitto_passwd'), ['-b', '-c', join(dir, 'passwd'), AGENT.username, AGENT.password]);
    writeFileSync(join(dir, 'acl'), `user ${AGENT.username}\ntopic readwrite orders/#\ntopic read telemetry/#\n`);
    const port = await freePort();
    writeFileSync(join(dir, 'mosquitto.conf'), config(dir, port));
    const server = await spawnServer(findBinary('mosquitto'), ['-c', join(dir, 'mosquitto.conf')], port);
    await using(port, (c) => c.publishAsync('orders/42', '{"state":"open"}', { qos: 1, retain: true }));
    const proxy = await tcpProxy(port);
    const refused = await closedPort();
    /** Connects through the proxy, then cuts the connection once the next packet reached the broker. */
    const cut = (op: (c: MqttClient) => Promise<unknown>) => () =>
      using(proxy.port, async (c) => {
        proxy.mode = 'reset_after_request';
        try {
          await op(c);
        } finally {
          proxy.mode = 'forward';
        }
      });
    const one = (name: string, effect: Effect, run: () => Promise<unknown>): UnseenCase => ({
      id: `mqtt.${name}.${effect}`,
      effect,
      run,
    });
    const cases: UnseenCase[] = [
      one('refused', 'read', () => using(refused, readRetained('orders/42'))),
      one('refused', 'write', () => using(refused, publish('orders/new'))),
      one('connack-not-authorized-135', 'read', () => using(port, readRetained('orders/42'), 'wrong-password')),
      one('connack-not-authorized-135', 'write', () => using(port, publish('orders/new'), 'wrong-password')),
      one('puback-not-authorized-135', 'write', () => using(port, publish('payments/refund'))),
      one('puback-read-only-topic-135', 'write', () => using(port, publish('telemetry/thermostat'))),
      one('reset-after-request', 'read', cut(readRetained('orders/42'))),
      one('reset-after-request', 'write', cut(publish('orders/new'))),
    ];
    return {
      cases,
      stop: async () => {
        await proxy.stop();
        await server.stop();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  },
};
