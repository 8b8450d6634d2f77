/**
 * SQLite errors: better-sqlite3's `SqliteError` and node-sqlite3 carry the result code in `code`
 * (`SQLITE_CONSTRAINT_UNIQUE`, or the primary `SQLITE_CONSTRAINT` with the constraint named in the message);
 * Node's `node:sqlite` carries `code: 'ERR_SQLITE_ERROR'` and the name in `errstr`.
 * Looked up by extended code, then by primary code. Only the constraint type is read from a message, never values.
 * Pure: no I/O.
 */
import { readString } from '../safe';
import { Dialect, ErrorKind as K, own, rowsFrom, type DialectReader, type DialectRow } from './kinds';

const sq = rowsFrom('SQLite, "Result and Error Codes" (sqlite.org/rescode.html)');

/** Result codes (extended first, then primary) → row. */
// prettier-ignore
export const SQLITE_CODES: Readonly<Record<string, DialectRow>> = Object.freeze({
  SQLITE_CONSTRAINT_UNIQUE: sq(K.CONFLICT),
  SQLITE_CONSTRAINT_PRIMARYKEY: sq(K.CONFLICT),
  SQLITE_CONSTRAINT_NOTNULL: sq(K.INVALID_ARGUMENT),
  SQLITE_CONSTRAINT_CHECK: sq(K.RULE_VIOLATION),
  SQLITE_CONSTRAINT_FOREIGNKEY: sq(K.PRECONDITION_FAILED),
  SQLITE_CONSTRAINT_TRIGGER: sq(K.BUSINESS_RULE), // RAISE(ABORT, …) in a trigger
  SQLITE_CONSTRAINT_DATATYPE: sq(K.INVALID_ARGUMENT), // STRICT tables
  SQLITE_CONSTRAINT: sq(K.RULE_VIOLATION),
  SQLITE_BUSY_SNAPSHOT: sq(K.ABORTED),
  SQLITE_BUSY: sq(K.UNAVAILABLE), // another connection holds the lock; nothing was written
  SQLITE_LOCKED: sq(K.UNAVAILABLE),
  SQLITE_INTERRUPT: sq(K.SERVER_TIMEOUT), // sqlite3_interrupt(): the statement was rolled back
  SQLITE_NOMEM: sq(K.UNAVAILABLE),
  SQLITE_READONLY: sq(K.UNSUPPORTED),
  SQLITE_FULL: sq(K.RESOURCE_FAILURE),
  SQLITE_IOERR: sq(K.RESOURCE_FAILURE),
  SQLITE_CORRUPT: sq(K.RESOURCE_FAILURE),
  SQLITE_NOTADB: sq(K.RESOURCE_FAILURE),
  SQLITE_CANTOPEN: sq(K.UNSUPPORTED),
  SQLITE_PERM: sq(K.FORBIDDEN),
  SQLITE_AUTH: sq(K.FORBIDDEN),
  SQLITE_MISMATCH: sq(K.INVALID_ARGUMENT),
  SQLITE_TOOBIG: sq(K.INVALID_ARGUMENT),
  SQLITE_RANGE: sq(K.TOOL_BUG),
  SQLITE_ERROR: sq(K.TOOL_BUG), // a syntax error, no such table or column
  SQLITE_MISUSE: sq(K.TOOL_BUG),
  SQLITE_SCHEMA: sq(K.ABORTED),
});

/** The constraint type node-sqlite3 names in the message of a primary `SQLITE_CONSTRAINT`. */
const CONSTRAINT_IN_MESSAGE: readonly (readonly [RegExp, string])[] = [
  [/\bUNIQUE constraint failed\b/, 'SQLITE_CONSTRAINT_UNIQUE'],
  [/\bPRIMARY KEY constraint failed\b/, 'SQLITE_CONSTRAINT_PRIMARYKEY'],
  [/\bNOT NULL constraint failed\b/, 'SQLITE_CONSTRAINT_NOTNULL'],
  [/\bCHECK constraint failed\b/, 'SQLITE_CONSTRAINT_CHECK'],
  [/\bFOREIGN KEY constraint failed\b/, 'SQLITE_CONSTRAINT_FOREIGNKEY'],
];

function sqliteCode(node: unknown): string | undefined {
  const code = readString(node, 'code');
  if (code !== undefined && /^SQLITE_[A-Z_]{2,40}$/.test(code)) return code;
  const errstr = readString(node, 'errstr');
  return code === 'ERR_SQLITE_ERROR' && errstr !== undefined && /^SQLITE_[A-Z_]{2,40}$/.test(errstr)
    ? errstr
    : undefined;
}

export const sqliteReader: DialectReader = {
  dialect: Dialect.SQLITE,
  read(node) {
    let code = sqliteCode(node);
    if (code === undefined) return undefined;
    if (code === 'SQLITE_CONSTRAINT') {
      const message = readString(node, 'message') ?? '';
      code = CONSTRAINT_IN_MESSAGE.find(([re]) => re.test(message))?.[1] ?? code;
    }
    const primary = code.split('_').slice(0, 2).join('_');
    const row = own(SQLITE_CODES, code) ?? own(SQLITE_CODES, primary) ?? sq(K.SERVER_ERROR);
    return {
      dialect: Dialect.SQLITE,
      kind: row.kind,
      label: `SQLite ${code}`,
      ...(row.kind === K.TOOL_BUG ? {} : { code: code.toLowerCase() }),
    };
  },
};
