/**
 * Debian's real RabbitMQ (`rabbitmq-server` 3.10) as a user process: its own node name, AMQP and distribution ports
 * from free ports, its own `epmd` on a free port, and a temp dir for the cookie (HOME), the database
 * (RABBITMQ_MNESIA_BASE), the logs and the config; users, vhosts, permissions, exchanges and queues come from a
 * definitions file read at boot (rabbitmq.conf `load_definitions`), so no `rabbitmqctl` runs before the cases.
 * Sources: RabbitMQ docs, "Configuration" (environment variables, rabbitmq.conf), "Definition Export and Import",
 * "Access Control" (configure/write/read permissions as regular expressions; `amq.default` for the default
 * exchange), "Networking" (ERL_EPMD_PORT, RABBITMQ_DIST_PORT).
 *
 * The agent (`agent` on vhost `/`) may read `inbox`, `jobs`, `archive` and `agent.*`; write `orders`, `refunds`,
 * `jobs`, the default exchange and `agent.*`; configure `jobs`, `inbox` and `agent.*`. It has no permission on vhost
 * `billing`. `payroll` (a queue) and `audit` (an exchange) exist and are not the agent's; `archive` and `refunds` do
 * not exist. Messages over 4 KiB are refused (`max_message_size`).
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { findBinary, freePort, listening } from '../unseen/net-fixtures';

export const AGENT = { username: 'agent', password: 'agent-password' };
/** The largest message the broker takes, in bytes (rabbitmq.conf `max_message_size`). */
export const MAX_MESSAGE_BYTES = 4_096;
/** How long the broker may take to boot, in ms: about 20 s on a loaded 2-core machine. */
const BOOT_TIMEOUT_MS = 60_000;

const queue = (name: string, more: { arguments?: Record<string, unknown> } = {}) => ({
  name,
  vhost: '/',
  durable: true,
  auto_delete: false,
  arguments: more.arguments ?? {},
});
const exchange = (name: string, type: string) => ({
  name,
  vhost: '/',
  type,
  durable: true,
  auto_delete: false,
  internal: false,
  arguments: {},
});

/** The definitions (RabbitMQ docs, "Definition Export and Import"); plain passwords are hashed on import. */
function definitions(): unknown {
  return {
    users: [
      { name: AGENT.username, password: AGENT.password, tags: [] },
      { name: 'admin', password: 'admin-password', tags: ['administrator'] },
    ],
    vhosts: [{ name: '/' }, { name: 'billing' }],
    permissions: [
      {
        user: AGENT.username,
        vhost: '/',
        configure: '^(jobs|inbox|agent\\..*)$',
        write: '^(orders|refunds|jobs|amq\\.default|agent\\..*)$',
        read: '^(inbox|jobs|archive|orders|agent\\..*)$',
      },
      { user: 'admin', vhost: '/', configure: '.*', write: '.*', read: '.*' },
    ],
    queues: [queue('inbox'), queue('jobs'), queue('payroll')],
    exchanges: [exchange('orders', 'topic'), exchange('audit', 'fanout')],
    bindings: [
      {
        source: 'orders',
        vhost: '/',
        destination: 'inbox',
        destination_type: 'queue',
        routing_key: 'order.#',
        arguments: {},
      },
    ],
  };
}

function config(dir: string, port: number): string {
  return [
    `listeners.tcp.default = 127.0.0.1:${port}`,
    'loopback_users = none',
    `max_message_size = ${MAX_MESSAGE_BYTES}`,
    `load_definitions = ${join(dir, 'definitions.json')}`,
    'disk_free_limit.absolute = 1MB',
    'log.console = false',
    'log.file.level = warning',
    '',
  ].join('\n');
}

/** Starts a foreground process in its own process group (so stop takes its children too). */
function startGroup(bin: string, args: string[], env: NodeJS.ProcessEnv): ChildProcess {
  return spawn(bin, args, { env, stdio: 'ignore', detached: true });
}

/** Kills a group started by startGroup and waits for its leader to exit. */
async function killGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const exited = new Promise((r) => child.once('exit', r));
  process.kill(-child.pid, 'SIGKILL');
  await exited;
}

/** Waits until `port` accepts connections or `child` exits. @throws Error on exit or after `timeoutMs`. */
async function ready(child: ChildProcess, port: number, what: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await listening(port))) {
    if (child.exitCode !== null) throw new Error(`${what} exited with ${child.exitCode}`);
    if (Date.now() > deadline) throw new Error(`${what} did not listen on ${port} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export interface RabbitMq {
  /** `amqp://127.0.0.1:<port>` (no credentials). */
  url: string;
  port: number;
  /** Runs `rabbitmqctl` against this node. @returns its stdout. */
  ctl(args: string[]): Promise<string>;
  stop(): Promise<void>;
}

/** Starts epmd and RabbitMQ, and waits until the broker takes AMQP connections. */
export async function startRabbitMq(): Promise<RabbitMq> {
  const dir = mkdtempSync(join(tmpdir(), 'unseen4-rabbitmq-'));
  const [port, distPort, epmdPort] = await Promise.all([freePort(), freePort(), freePort()]);
  writeFileSync(join(dir, 'definitions.json'), JSON.stringify(definitions()));
  writeFileSync(join(dir, 'rabbitmq.conf'), config(dir, port));
  writeFileSync(join(dir, 'enabled_plugins'), '[].\n');
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: dir, // the Erlang cookie
    ERL_EPMD_PORT: String(epmdPort),
    RABBITMQ_NODENAME: `unseen4-${process.pid}@localhost`,
    RABBITMQ_NODE_IP_ADDRESS: '127.0.0.1',
    RABBITMQ_NODE_PORT: String(port),
    RABBITMQ_DIST_PORT: String(distPort),
    RABBITMQ_MNESIA_BASE: join(dir, 'mnesia'),
    RABBITMQ_LOG_BASE: join(dir, 'log'),
    RABBITMQ_CONFIG_FILE: join(dir, 'rabbitmq.conf'),
    RABBITMQ_ADVANCED_CONFIG_FILE: join(dir, 'advanced.config'),
    RABBITMQ_CONF_ENV_FILE: join(dir, 'rabbitmq-env.conf'),
    RABBITMQ_ENABLED_PLUGINS_FILE: join(dir, 'enabled_plugins'),
    RABBITMQ_PID_FILE: join(dir, 'rabbitmq.pid'),
    // The script then execs the VM itself (no wrapper shell that waits for `rabbitmqctl stop`).
    RUNNING_UNDER_SYSTEMD: 'true',
  };
  const epmd = startGroup(findBinary('epmd'), ['-port', String(epmdPort)], env);
  let broker: ChildProcess | undefined;
  // Detached groups outlive this process: a crash or a SIGTERM (the ratchet's timeout) takes them down too.
  const orphans = () => {
    for (const g of [broker, epmd]) if (g?.pid !== undefined && g.exitCode === null) process.kill(-g.pid, 'SIGKILL');
  };
  const onTerm = () => (orphans(), process.exit(143));
  process.once('exit', orphans);
  process.once('SIGTERM', onTerm);
  const stop = async () => {
    process.off('exit', orphans);
    process.off('SIGTERM', onTerm);
    if (broker) await killGroup(broker);
    await killGroup(epmd);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await ready(epmd, epmdPort, 'epmd', 10_000);
    broker = startGroup('/usr/lib/rabbitmq/bin/rabbitmq-server', [], env);
    await ready(broker, port, 'rabbitmq-server', BOOT_TIMEOUT_MS);
  } catch (e) {
    await stop();
    throw e;
  }
  return {
    url: `amqp://127.0.0.1:${port}`,
    port,
    ctl: async (args) =>
      (await promisify(execFile)('/usr/lib/rabbitmq/bin/rabbitmqctl', ['-q', ...args], { env, timeout: 30_000 }))
        .stdout,
    stop,
  };
}
