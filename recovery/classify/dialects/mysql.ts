/**
 * MySQL and MariaDB errors as mysql2 (and mysql) raise them: a server error has `code` (`ER_DUP_ENTRY`), `errno`
 * (1062) and `sqlState` (`23000`); a client error has `code` only (`PROTOCOL_CONNECTION_LOST`) and `fatal`.
 * `sqlMessage` and `sql` carry values and SQL text: never read.
 * Looked up by `code`, then by `errno`, then by the SQLSTATE class of `sqlState`.
 * Pure: no I/O.
 */
import { readNumber, readProp, readString } from '../safe';
import { Dialect, ErrorKind as K, own, rowsFrom, type DialectReader, type DialectRow } from './kinds';

const SERVER = 'MySQL 8.0 Reference, "Server Error Message Reference" (server-error-reference.html)';
const CLIENT = 'mysql2 3.x lib/base/connection.js, lib/commands/query.js and lib/base/pool.js';
const my = rowsFrom(SERVER);
const client = rowsFrom(CLIENT);

/** Server and client error names → row. */
// prettier-ignore
export const MYSQL_CODES: Readonly<Record<string, DialectRow>> = Object.freeze({
  ER_DUP_ENTRY: my(K.CONFLICT), // 1062
  ER_DUP_KEY: my(K.CONFLICT), // 1022
  ER_DUP_UNIQUE: my(K.CONFLICT), // 1169
  ER_LOCK_DEADLOCK: my(K.ABORTED), // 1213: the transaction was rolled back
  ER_LOCK_WAIT_TIMEOUT: my(K.SERVER_TIMEOUT), // 1205: the statement was rolled back
  ER_LOCK_NOWAIT: my(K.SERVER_TIMEOUT), // 3572
  ER_QUERY_TIMEOUT: my(K.SERVER_TIMEOUT), // 3024: max_execution_time
  ER_QUERY_INTERRUPTED: my(K.SERVER_TIMEOUT), // 1317: KILL QUERY
  ER_ACCESS_DENIED_ERROR: my(K.AUTH_FAILED), // 1045: wrong user or password
  ER_ACCESS_DENIED_NO_PASSWORD_ERROR: my(K.AUTH_FAILED), // 1698
  ER_DBACCESS_DENIED_ERROR: my(K.FORBIDDEN), // 1044
  ER_TABLEACCESS_DENIED_ERROR: my(K.FORBIDDEN), // 1142
  ER_COLUMNACCESS_DENIED_ERROR: my(K.FORBIDDEN), // 1143
  ER_SPECIFIC_ACCESS_DENIED_ERROR: my(K.FORBIDDEN), // 1227
  ER_CON_COUNT_ERROR: my(K.UNAVAILABLE, undefined, 'not_sent'), // 1040: too many connections
  ER_USER_LIMIT_REACHED: my(K.UNAVAILABLE, undefined, 'not_sent'), // 1226
  ER_TOO_MANY_USER_CONNECTIONS: my(K.UNAVAILABLE, undefined, 'not_sent'), // 1203
  ER_OPTION_PREVENTS_STATEMENT: my(K.UNAVAILABLE), // 1290: --read-only
  ER_SERVER_SHUTDOWN: my(K.CONNECTION_LOST), // 1053
  ER_BAD_NULL_ERROR: my(K.INVALID_ARGUMENT), // 1048
  ER_DATA_TOO_LONG: my(K.INVALID_ARGUMENT), // 1406
  ER_TRUNCATED_WRONG_VALUE: my(K.INVALID_ARGUMENT), // 1292
  ER_TRUNCATED_WRONG_VALUE_FOR_FIELD: my(K.INVALID_ARGUMENT), // 1366
  ER_WARN_DATA_OUT_OF_RANGE: my(K.INVALID_ARGUMENT), // 1264
  ER_NO_DEFAULT_FOR_FIELD: my(K.INVALID_ARGUMENT), // 1364
  ER_CHECK_CONSTRAINT_VIOLATED: my(K.RULE_VIOLATION), // 3819
  ER_NO_REFERENCED_ROW_2: my(K.PRECONDITION_FAILED), // 1452: the referenced row is missing
  ER_ROW_IS_REFERENCED_2: my(K.PRECONDITION_FAILED), // 1451: other rows still reference it
  ER_SIGNAL_EXCEPTION: my(K.BUSINESS_RULE), // 1644: SIGNAL in a procedure or trigger
  ER_NO_SUCH_TABLE: my(K.TOOL_BUG), // 1146
  ER_BAD_FIELD_ERROR: my(K.TOOL_BUG), // 1054
  ER_PARSE_ERROR: my(K.TOOL_BUG), // 1064
  ER_BAD_DB_ERROR: my(K.TOOL_BUG), // 1049
  ER_NET_PACKET_TOO_LARGE: my(K.INVALID_ARGUMENT), // 1153
  ER_RECORD_FILE_FULL: my(K.RESOURCE_FAILURE), // 1114
  ER_DISK_FULL: my(K.RESOURCE_FAILURE), // 1021
  ER_NOT_SUPPORTED_YET: my(K.UNSUPPORTED), // 1235
  PROTOCOL_CONNECTION_LOST: client(K.CONNECTION_LOST),
  PROTOCOL_SEQUENCE_TIMEOUT: client(K.CLIENT_TIMEOUT), // the query's `timeout` option: sent, may still run
  PROTOCOL_ENQUEUE_AFTER_FATAL_ERROR: client(K.NOT_SENT, undefined, 'not_sent'),
  PROTOCOL_ENQUEUE_AFTER_QUIT: client(K.NOT_SENT, undefined, 'not_sent'),
  PROTOCOL_ENQUEUE_HANDSHAKE_TWICE: client(K.TOOL_BUG),
  HANDSHAKE_NO_SSL_SUPPORT: client(K.UNSUPPORTED, undefined, 'not_sent'),
  HANDSHAKE_SSL_ERROR: client(K.UNSUPPORTED, undefined, 'not_sent'),
  POOL_NONEONLINE: client(K.NOT_SENT, undefined, 'not_sent'),
});

/** Server `errno` → name, for errors that carry a number only (MariaDB's connectors, older mysql). */
const ERRNO_NAMES: Readonly<Record<number, string>> = Object.freeze({
  1062: 'ER_DUP_ENTRY',
  1213: 'ER_LOCK_DEADLOCK',
  1205: 'ER_LOCK_WAIT_TIMEOUT',
  1045: 'ER_ACCESS_DENIED_ERROR',
  1040: 'ER_CON_COUNT_ERROR',
  1048: 'ER_BAD_NULL_ERROR',
  1146: 'ER_NO_SUCH_TABLE',
  1064: 'ER_PARSE_ERROR',
  1452: 'ER_NO_REFERENCED_ROW_2',
  3819: 'ER_CHECK_CONSTRAINT_VIOLATED',
});

/** SQLSTATE class → row, for server errors not named above (ANSI SQL classes, as MySQL reports them). */
// prettier-ignore
const SQLSTATE_CLASSES: Readonly<Record<string, DialectRow>> = Object.freeze({
  '08': my(K.CONNECTION_LOST),
  '22': my(K.INVALID_ARGUMENT),
  '23': my(K.RULE_VIOLATION),
  '28': my(K.AUTH_FAILED),
  '40': my(K.ABORTED),
  '42': my(K.TOOL_BUG),
  HY: my(K.SERVER_ERROR),
});

/** mysql2's pool errors, by exact message (they carry no code). */
// prettier-ignore
const POOL_MESSAGES: Readonly<Record<string, DialectRow>> = Object.freeze({
  'No connections available.': client(K.CONNECT_TIMEOUT, 'pool_exhausted', 'not_sent'),
  'Queue limit reached.': client(K.CONNECT_TIMEOUT, 'pool_queue_limit', 'not_sent'),
  'Pool is closed.': client(K.TOOL_BUG, 'pool_closed'),
});

export const mysqlReader: DialectReader = {
  dialect: Dialect.MYSQL,
  read(node, declared) {
    const code = readString(node, 'code');
    const errno = readNumber(node, 'errno');
    const sqlState = readString(node, 'sqlState');
    const isServer = sqlState !== undefined && errno !== undefined;
    const isClient =
      code !== undefined && /^(?:PROTOCOL|HANDSHAKE|POOL)_/.test(code) && readProp(node, 'fatal') !== undefined;
    let row: DialectRow | undefined;
    let name = code;
    if (isServer || isClient || declared) {
      name = code ?? (errno === undefined ? undefined : ERRNO_NAMES[errno]);
      row = own(MYSQL_CODES, name) ?? (sqlState && isServer ? own(SQLSTATE_CLASSES, sqlState.slice(0, 2)) : undefined);
      if (!row && isServer) row = my(K.SERVER_ERROR);
    }
    const message = readString(node, 'message');
    if (!row && code === undefined && message !== undefined) {
      row = own(POOL_MESSAGES, message);
      name = row?.name;
    }
    if (!row) return undefined;
    const shown = name && /^[A-Z0-9_]{1,64}$/.test(name) ? name : 'error';
    return {
      dialect: Dialect.MYSQL,
      kind: row.kind,
      label: `MySQL ${shown}${errno !== undefined && isServer ? ` (${errno})` : ''}`,
      ...(row.sent ? { sent: row.sent } : {}),
      ...(isServer && shown !== 'error' && row.kind !== K.TOOL_BUG ? { code: shown.toLowerCase() } : {}),
    };
  },
};
