/**
 * The payments service's store: a primary SQLite database (better-sqlite3) that keeps every committed POST as a row,
 * and a replica database the read path may serve from, fed with each commit after a lag, or replaced by a restore of
 * a backup taken before a commit (`backup()` then a new `Database(file)`). With `dedupe`, the store also keeps one
 * idempotency record per key, as draft-ietf-httpapi-idempotency-key-header describes: a key in flight answers
 * 409, a finished key replays its first answer, the same key with another payload is 422.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';

export interface Payment {
  paymentId: string;
  invoice: string;
  amountCents: number;
  status: 'captured';
}

/** What the dedupe check says about a key before a POST is processed. */
export type KeyState =
  | { kind: 'new' }
  | { kind: 'in_flight' }
  | { kind: 'done'; payment: Payment }
  | { kind: 'mismatch' };

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS payments (
    seq INTEGER PRIMARY KEY AUTOINCREMENT, payment_id TEXT NOT NULL, idem_key TEXT NOT NULL,
    invoice TEXT NOT NULL, amount_cents INTEGER NOT NULL, status TEXT NOT NULL);
  CREATE INDEX IF NOT EXISTS payments_key ON payments (idem_key);
  CREATE INDEX IF NOT EXISTS payments_invoice ON payments (invoice);`;
const SELECT = 'SELECT payment_id AS paymentId, invoice, amount_cents AS amountCents, status FROM payments';

interface Row extends Payment {
  seq: number;
  idemKey: string;
}

export class PaymentsStore {
  readonly primary: Database.Database;
  private replica: Database.Database;
  /** Replication resumes at this time (ms since the epoch) after a restore. */
  private pausedUntil = 0;
  private readonly idem = new Map<string, { state: 'in_flight' | 'done'; body: string; payment?: Payment }>();
  private nextId = 1;
  private backups = 0;

  constructor(
    private readonly lagMs: number,
    private readonly tmpDir: string,
  ) {
    this.primary = new Database(':memory:');
    this.primary.exec(SCHEMA);
    this.replica = new Database(':memory:');
    this.replica.exec(SCHEMA);
  }

  /** The dedupe state of `key` for a request body `body` (its JSON text), and marks a new key in flight. */
  claim(key: string, body: string): KeyState {
    const rec = this.idem.get(key);
    if (!rec) {
      this.idem.set(key, { state: 'in_flight', body });
      return { kind: 'new' };
    }
    if (rec.body !== body) return { kind: 'mismatch' };
    return rec.state === 'done' && rec.payment ? { kind: 'done', payment: rec.payment } : { kind: 'in_flight' };
  }

  /** Forgets an in-flight key whose request ended without a commit (so the client may send it again). */
  release(key: string): void {
    if (this.idem.get(key)?.state === 'in_flight') this.idem.delete(key);
  }

  /** Commits one payment row (and finishes its idempotency record); replicates it after the lag. */
  commit(key: string, invoice: string, amountCents: number): Payment {
    const paymentId = `pay_${this.nextId++}`;
    const { lastInsertRowid } = this.primary
      .prepare('INSERT INTO payments (payment_id, idem_key, invoice, amount_cents, status) VALUES (?, ?, ?, ?, ?)')
      .run(paymentId, key, invoice, amountCents, 'captured');
    const payment: Payment = { paymentId, invoice, amountCents, status: 'captured' };
    const rec = this.idem.get(key);
    if (rec) this.idem.set(key, { ...rec, state: 'done', payment });
    const row: Row = { ...payment, seq: Number(lastInsertRowid), idemKey: key };
    const delay = Math.max(this.lagMs, this.pausedUntil - Date.now());
    if (delay <= 0) this.replicate(row);
    else setTimeout(() => this.replicate(row), delay).unref();
    return payment;
  }

  /**
   * Replaces the replica with a restore of a backup of the primary taken now, and holds replication for `forMs` ms;
   * then the replica catches up with every row it lacks.
   */
  async restoreReplicaFromBackup(forMs: number): Promise<void> {
    const file = join(this.tmpDir, `replica-backup-${this.backups++}.sqlite`);
    await this.primary.backup(file);
    this.replica.close();
    this.replica = new Database(file);
    this.pausedUntil = Date.now() + forMs;
    setTimeout(() => this.catchUp(), forMs).unref();
  }

  /** The payment committed under `key`, as the read path sees it. */
  readByKey(key: string): Payment | undefined {
    return this.replica.prepare(`${SELECT} WHERE idem_key = ? ORDER BY seq LIMIT 1`).get(key) as Payment | undefined;
  }

  /** Payments for `invoice`, as the read path sees them. */
  readByInvoice(invoice: string): Payment[] {
    return this.replica.prepare(`${SELECT} WHERE invoice = ? ORDER BY seq`).all(invoice) as Payment[];
  }

  /** Rows in the primary: all, or those of one idempotency key. */
  rows(key?: string): number {
    const q =
      key === undefined
        ? this.primary.prepare('SELECT COUNT(*) AS n FROM payments')
        : this.primary.prepare('SELECT COUNT(*) AS n FROM payments WHERE idem_key = ?');
    return (q.get(...(key === undefined ? [] : [key])) as { n: number }).n;
  }

  close(): void {
    this.primary.close();
    this.replica.close();
  }

  private replicate(row: Row): void {
    if (!this.replica.open) return;
    this.replica
      .prepare(
        'INSERT OR IGNORE INTO payments (seq, payment_id, idem_key, invoice, amount_cents, status) VALUES (?, ?, ?, ?, ?, ?)',
      )
      .run(row.seq, row.paymentId, row.idemKey, row.invoice, row.amountCents, row.status);
  }

  private catchUp(): void {
    if (!this.primary.open) return;
    const rows = this.primary
      .prepare(
        `SELECT seq, payment_id AS paymentId, idem_key AS idemKey, invoice, amount_cents AS amountCents, status FROM payments`,
      )
      .all() as Row[];
    for (const row of rows) this.replicate(row);
  }
}
