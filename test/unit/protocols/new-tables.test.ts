/**
 * The tables added for the fifth held-out set (recovery/classify/protocols/tables.ts: `CQL`, `POP3`, `XMPP`, `MSSQL`,
 * `NTSTATUS`; SQLSTATE read from `sqlState`/`state`; a Redis reply read from its own form): each read only when the
 * error shows it speaks the protocol, each code in its own table's words. Pure: errors built in each client's shape
 * (test/unseen5/cases.ts names the sources); no server.
 */
import { classify, type CallContext } from '../../../recovery/classify';
import { routeFor } from '../../../recovery/routes';
import { READ, WRITE } from '../classify-helpers';

function route(error: unknown, ctx: CallContext = WRITE) {
  const f = classify({ kind: 'thrown', error }, ctx);
  return {
    class: f.class,
    action: routeFor(f).action,
    applied: f.replaySafe ? 'no' : 'maybe',
    message: f.publicMessage,
  };
}
const named = (name: string, message: string, fields: Record<string, unknown>) =>
  Object.assign(new Error(message), { name, ...fields });

const ROWS = [
  [
    'CQL 4096 Unavailable',
    named('ResponseError', 'Cannot achieve consistency level QUORUM', { code: 0x1000 }),
    'transient',
    'retry',
    'no',
  ],
  [
    'CQL 4352 Write_timeout',
    named('ResponseError', 'Operation timed out - received only 1 responses.', { code: 0x1100 }),
    'outcome_unknown',
    'reconcile',
    'maybe',
  ],
  [
    'CQL 9216 Already_exists',
    named('ResponseError', 'Cannot add already existing table "t"', { code: 0x2400 }),
    'semantic_rejection',
    'replan',
    'no',
  ],
  ['POP3 IN-USE', new Error('-ERR [IN-USE] Mailbox is locked by another session'), 'transient', 'retry', 'no'],
  [
    'XMPP not-authorized',
    named('StanzaError', 'not-authorized - Credentials required', { condition: 'not-authorized' }),
    'authentication',
    'reauth',
    'no',
  ],
  [
    'XMPP remote-server-timeout',
    named('StanzaError', 'remote-server-timeout', { condition: 'remote-server-timeout' }),
    'outcome_unknown',
    'reconcile',
    'maybe',
  ],
  [
    'SQL Server 1205 deadlock_victim',
    named('RequestError', 'Transaction was deadlocked. Rerun the transaction.', { number: 1205, state: 51, class: 13 }),
    'transient',
    'retry',
    'no',
  ],
  [
    'SMB STATUS_DISK_FULL',
    Object.assign(new Error('STATUS_DISK_FULL (0xC000007F) : disk full'), { code: 'STATUS_DISK_FULL' }),
    'unrecoverable',
    'escalate',
    'no',
  ],
  [
    'PostgreSQL 40001 serialization_failure',
    Object.assign(new Error('SQL0911N rolled back'), { sqlcode: -911, state: '40001' }),
    'transient',
    'retry',
    'no',
  ],
  ['Redis OOM', new Error("OOM command not allowed when used memory > 'maxmemory'."), 'transient', 'retry', 'no'],
] as const;

test.each(ROWS.map(([label, error, cls, action, applied]) => [label, cls, action, applied, error] as const))(
  'a write answered %s → %s/%s, applied %s',
  (label, cls, action, applied, error) => {
    const r = route(error);
    expect(r).toMatchObject({ class: cls, action, applied });
    expect(r.message).toContain(label);
  },
);

test("a code without the protocol's facts is read in no new table", () => {
  expect(route(Object.assign(new Error('refused'), { code: 0x2100 }), READ).message).not.toContain('CQL');
  expect(route(Object.assign(new Error('refused'), { number: 229 }), READ).message).not.toContain('SQL Server');
  expect(route(Object.assign(new Error('x'), { condition: 'forbidden' }), READ).message).not.toContain('XMPP');
  // An IMAP tagged NO is IMAP's, not POP3's; a MySQL error's sqlState stays MySQL's.
  expect(route(new Error('A1 NO [INUSE] Mailbox in use'), READ).message).toContain('IMAP INUSE');
  const mysql = named('Error', "Duplicate entry '1' for key 'PRIMARY'", {
    code: 'ER_DUP_ENTRY',
    errno: 1062,
    sqlState: '23000',
  });
  expect(route(mysql).message).toContain('MySQL ER_DUP_ENTRY');
});
