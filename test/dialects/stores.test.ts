/**
 * Stores: SQLite for real (better-sqlite3, a file on disk, two connections), mysql2 against its own protocol
 * server (`mysql.createServer()`, which writes real ERR packets; its SQLSTATE field is always `_____`), ioredis
 * against a loopback server speaking RESP, and MongoDB: no mongod can run here, so E11000 and the error labels are
 * the driver's own classes constructed as the driver constructs them from a server reply, and a server selection
 * timeout is provoked for real against a closed port.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import Redis from 'ioredis';
import { MongoClient, MongoServerError } from 'mongodb';
import mysql from 'mysql2/promise';
import mysqlCore from 'mysql2';
import { expectClean, invoke, summary, toolCalling } from './invoke';

const tool = toolCalling;

async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise((r) => s.close(() => r(undefined)));
  return port;
}

describe('SQLite (better-sqlite3, real files)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rr-sqlite-'));
  const file = join(dir, 'db.sqlite');
  const db = new Database(file);
  db.exec('CREATE TABLE users (email TEXT UNIQUE NOT NULL, age INT CHECK (age >= 0))');
  db.prepare('INSERT INTO users VALUES (?, 1)').run('taken@example.org');
  afterAll(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test.each([
    [
      'SQLITE_CONSTRAINT_UNIQUE',
      "INSERT INTO users VALUES ('taken@example.org', 2)",
      { class: 'semantic_rejection', reason: 'conflict', action: 'replan' },
    ],
    [
      'SQLITE_CONSTRAINT_NOTNULL',
      'INSERT INTO users VALUES (NULL, 2)',
      { class: 'invalid_arguments', reason: 'schema', action: 'repair' },
    ],
    [
      'SQLITE_CONSTRAINT_CHECK',
      "INSERT INTO users VALUES ('n@example.org', -1)",
      { class: 'invalid_arguments', reason: 'business_rule', action: 'repair' },
    ],
    [
      'SQLITE_ERROR (no such table)',
      'INSERT INTO nope VALUES (1)',
      { class: 'unrecoverable', reason: 'tool_bug', action: 'escalate' },
    ],
  ])('%s → %o', async (name, sql, expected) => {
    const r = await invoke(
      tool('sqlite_write', 'write', () => db.exec(sql)),
      {},
      { label: ['better-sqlite3', name] },
    );
    expect(summary(r)).toEqual({ ...expected, retryAfterMs: undefined, phase: 'dispatch' });
    expectClean(r.failure.publicMessage, ['taken@example.org', 'INSERT', dir]);
  });

  test('SQLITE_BUSY (another connection holds the write lock) → transient/unavailable → retry, even for a write', async () => {
    const other = new Database(file, { timeout: 0 });
    const locker = new Database(file);
    locker.exec('BEGIN IMMEDIATE');
    try {
      const r = await invoke(
        tool('sqlite_write', 'write', () => other.exec("INSERT INTO users VALUES ('busy@example.org', 1)")),
        {},
        { label: ['better-sqlite3', 'SQLITE_BUSY'] },
      );
      expect(summary(r)).toEqual({
        class: 'transient',
        reason: 'unavailable',
        action: 'retry',
        retryAfterMs: undefined,
        phase: 'dispatch',
      });
    } finally {
      locker.exec('ROLLBACK');
      locker.close();
      other.close();
    }
  });
});

describe('mysql2 against its protocol server', () => {
  let server: ReturnType<typeof mysqlCore.createServer>;
  let port: number;
  /** The server side of mysql2's Connection, as its protocol-server API uses it (not in its typings). */
  type ServerConn = {
    serverHandshake(args: Record<string, number | string>): void;
    writeError(e: { code: number; message: string }): void;
    on(event: string, fn: () => void): void;
    stream: Socket;
  };
  let reply: (conn: ServerConn) => void;
  beforeAll(async () => {
    server = mysqlCore.createServer((c) => {
      const conn = c as unknown as ServerConn;
      conn.serverHandshake({
        protocolVersion: 10,
        serverVersion: '8.0.36',
        connectionId: 1,
        statusFlags: 2,
        characterSet: 8,
        capabilityFlags: 0xffffff,
      });
      conn.on('query', () => reply(conn));
      conn.on('error', () => undefined);
    });
    // mysql2's Server passes listen's arguments to its net.Server (`_server`); its typings name only the port.
    const net = (server as unknown as { _server: Server })._server;
    await new Promise<void>((r) => net.listen(0, '127.0.0.1', r));
    port = (net.address() as { port: number }).port;
  });
  afterAll(() => new Promise((r) => server.close(() => r(undefined))));
  const query = () =>
    tool('mysql_write', 'write', async () => {
      const c = await mysql.createConnection({ host: '127.0.0.1', port, user: 'u', password: 'mysql-secret-pw' });
      c.on('error', () => undefined);
      try {
        await c.query("INSERT INTO t VALUES ('value-secret')");
      } finally {
        c.destroy();
      }
    });

  test.each([
    [1062, 'ER_DUP_ENTRY', { class: 'semantic_rejection', reason: 'conflict', action: 'replan' }],
    [1213, 'ER_LOCK_DEADLOCK', { class: 'transient', reason: 'aborted', action: 'retry' }],
    [1205, 'ER_LOCK_WAIT_TIMEOUT', { class: 'transient', reason: 'timeout', action: 'retry' }],
    [1045, 'ER_ACCESS_DENIED_ERROR', { class: 'authentication', reason: 'credential_missing', action: 'reauth' }],
    [1146, 'ER_NO_SUCH_TABLE', { class: 'unrecoverable', reason: 'tool_bug', action: 'escalate' }],
  ])('errno %i %s → %o', async (code, name, expected) => {
    reply = (conn) => conn.writeError({ code, message: "Duplicate entry 'value-secret' for key 't.email'" });
    const r = await invoke(query(), {}, { label: ['mysql2', name] });
    expect(r.thrown).toMatchObject({ code: name, errno: code });
    expect(summary(r)).toEqual({ ...expected, retryAfterMs: undefined, phase: 'dispatch' });
    expectClean(r.failure.publicMessage, [port, 'value-secret', 'INSERT', 'mysql-secret-pw']);
  });

  test('PROTOCOL_CONNECTION_LOST after the INSERT was sent → outcome_unknown → reconcile', async () => {
    reply = (conn) => conn.stream.destroy();
    const r = await invoke(query(), {}, { label: ['mysql2', 'PROTOCOL_CONNECTION_LOST (write)'] });
    expect(r.thrown).toMatchObject({ code: 'PROTOCOL_CONNECTION_LOST' });
    expect(summary(r)).toEqual({
      class: 'outcome_unknown',
      reason: 'network',
      action: 'reconcile',
      retryAfterMs: undefined,
      phase: 'commit_unknown',
    });
  });
});

describe('ioredis against a RESP loopback server', () => {
  let server: Server;
  let port: number;
  let reply: (socket: Socket) => void;
  beforeAll(async () => {
    server = createServer((socket) => {
      socket.on('error', () => undefined);
      // Every command but SET (the client's connection set-up) is answered +OK; SET gets the scripted reply.
      socket.on('data', (chunk: Buffer) => {
        for (const cmd of chunk
          .toString('latin1')
          .split(/(?=\*\d+\r\n)/)
          .filter((c) => c !== '')) {
          if (/^\*\d+\r\n\$3\r\nSET\r\n/i.test(cmd)) reply(socket);
          else socket.write('+OK\r\n');
        }
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as { port: number }).port;
  });
  afterAll(() => new Promise((r) => server.close(() => r(undefined))));
  const set = () =>
    tool('cache_set', 'write', async () => {
      const redis = new Redis({
        host: '127.0.0.1',
        port,
        enableReadyCheck: false,
        maxRetriesPerRequest: 0,
        retryStrategy: () => null,
        lazyConnect: true,
      });
      redis.on('error', () => undefined);
      try {
        await redis.connect();
        await redis.set('session:secret-key', 'secret-value');
      } finally {
        redis.disconnect();
      }
    });

  test.each([
    [
      'READONLY',
      "-READONLY You can't write against a read only replica.\r\n",
      { class: 'transient', reason: 'unavailable', action: 'retry' },
    ],
    [
      'LOADING',
      '-LOADING Redis is loading the dataset in memory\r\n',
      { class: 'transient', reason: 'unavailable', action: 'retry' },
    ],
    [
      'BUSY',
      '-BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSCRIPT.\r\n',
      { class: 'transient', reason: 'unavailable', action: 'retry' },
    ],
    [
      'WRONGTYPE',
      '-WRONGTYPE Operation against a key holding the wrong kind of value\r\n',
      { class: 'unrecoverable', reason: 'tool_bug', action: 'escalate' },
    ],
  ])('%s error reply → %o', async (name, wire, expected) => {
    reply = (socket) => socket.write(wire);
    const r = await invoke(set(), {}, { label: ['ioredis', `${name} reply`] });
    expect(summary(r)).toEqual({ ...expected, retryAfterMs: undefined, phase: 'dispatch' });
    expectClean(r.failure.publicMessage, [port, 'secret-key', 'secret-value']);
  });

  test('connection lost after SET was sent ("Connection is closed.") → outcome_unknown → reconcile', async () => {
    reply = (socket) => socket.destroy();
    const r = await invoke(set(), {}, { label: ['ioredis', 'Connection is closed. (write)'] });
    expect(summary(r)).toEqual({
      class: 'outcome_unknown',
      reason: 'network',
      action: 'reconcile',
      retryAfterMs: undefined,
      phase: 'commit_unknown',
    });
  });
});

describe('MongoDB driver', () => {
  // As the driver builds it from a server reply ({ ok: 0, code, errmsg, errorLabels }: MongoServerError's constructor).
  const serverError = (reply: Record<string, unknown>) => new MongoServerError({ ok: 0, ...reply } as never);
  const throwing = (e: unknown) => tool('mongo_write', 'write', () => Promise.reject(e));

  test('E11000 duplicate key → semantic_rejection/conflict → replan; the key value is not quoted', async () => {
    const e = serverError({
      code: 11000,
      codeName: 'DuplicateKey',
      errmsg:
        'E11000 duplicate key error collection: app.users index: email_1 dup key: { email: "dup-secret@example.org" }',
    });
    const r = await invoke(throwing(e), {}, { label: ['mongodb', 'E11000 (constructed)'] });
    expect(summary(r)).toEqual({
      class: 'semantic_rejection',
      reason: 'conflict',
      action: 'replan',
      retryAfterMs: undefined,
      phase: 'dispatch',
    });
    expectClean(r.failure.publicMessage, ['dup-secret@example.org']);
  });

  test('TransientTransactionError label → transient/aborted → retry', async () => {
    const e = serverError({
      code: 112,
      codeName: 'WriteConflict',
      errmsg: 'Write conflict',
      errorLabels: ['TransientTransactionError'],
    });
    const r = await invoke(throwing(e), {}, { label: ['mongodb', 'TransientTransactionError (constructed)'] });
    expect(summary(r)).toEqual({
      class: 'transient',
      reason: 'aborted',
      action: 'retry',
      retryAfterMs: undefined,
      phase: 'dispatch',
    });
  });

  test('RetryableWriteError on a network blip (the driver already retried once) on a write → reconcile', async () => {
    const e = serverError({
      code: 91,
      codeName: 'ShutdownInProgress',
      errmsg: 'shutting down',
      errorLabels: ['RetryableWriteError'],
    });
    const r = await invoke(throwing(e), {}, { label: ['mongodb', 'RetryableWriteError 91 (constructed)'] });
    expect(summary(r)).toEqual({
      class: 'outcome_unknown',
      reason: 'network',
      action: 'reconcile',
      retryAfterMs: undefined,
      phase: 'commit_unknown',
    });
  });

  test('MongoServerSelectionError against a closed port (real) → not sent → retry, even for a write', async () => {
    const port = await closedPort();
    const insert = tool('mongo_insert', 'write', async () => {
      const client = new MongoClient(`mongodb://127.0.0.1:${port}/app`, { serverSelectionTimeoutMS: 200 });
      try {
        await client.db().collection('users').insertOne({ email: 'x@example.org' });
      } finally {
        await client.close();
      }
    });
    const r = await invoke(insert, {}, { label: ['mongodb', 'MongoServerSelectionError (real)'] });
    expect(r.thrown).toMatchObject({ name: 'MongoServerSelectionError' });
    expect(summary(r)).toEqual({
      class: 'transient',
      reason: 'network',
      action: 'retry',
      retryAfterMs: undefined,
      phase: 'dispatch',
    });
    expectClean(r.failure.publicMessage, [port]);
  });
});
