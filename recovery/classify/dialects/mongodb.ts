/**
 * MongoDB Node driver errors: `name` (`MongoServerError`, `MongoBulkWriteError`, `MongoNetworkError`, …), the
 * server's numeric `code` (11000 duplicate key) and `errorLabels` (`TransientTransactionError`,
 * `RetryableWriteError`, `UnknownTransactionCommitResult`, `NoWritesPerformed`). `errmsg` and `keyValue` carry
 * values: never read.
 * Labels decide first (the driver's and the transactions spec's meaning), then the code, then the class name.
 * Pure: no I/O.
 */
import { asArray, readNumber, readProp, readString } from '../safe';
import { Dialect, ErrorKind as K, own, rowsFrom, type DialectReader, type DialectRow } from './kinds';

const codes = rowsFrom('MongoDB server error codes (src/mongo/base/error_codes.yml; docs "Error Codes")');
const driver = rowsFrom('MongoDB Node driver src/error.ts (MongoErrorLabel, MONGODB_ERROR_CODES, error classes)');

/** Server error codes → row. */
// prettier-ignore
export const MONGO_CODES: Readonly<Record<number, DialectRow>> = Object.freeze({
  2: codes(K.INVALID_ARGUMENT, 'BadValue'),
  9: codes(K.INVALID_ARGUMENT, 'FailedToParse'),
  11: codes(K.FORBIDDEN, 'UserNotFound'),
  13: codes(K.FORBIDDEN, 'Unauthorized'),
  14: codes(K.INVALID_ARGUMENT, 'TypeMismatch'),
  18: codes(K.AUTH_FAILED, 'AuthenticationFailed'),
  26: codes(K.NOT_FOUND, 'NamespaceNotFound'),
  50: codes(K.SERVER_TIMEOUT, 'MaxTimeMSExpired'),
  64: codes(K.OUTCOME_UNKNOWN, 'WriteConcernTimeout'), // applied on the primary, not yet replicated
  91: codes(K.CONNECTION_LOST, 'ShutdownInProgress'),
  112: codes(K.ABORTED, 'WriteConflict'),
  121: codes(K.RULE_VIOLATION, 'DocumentValidationFailure'),
  189: codes(K.CONNECTION_LOST, 'PrimarySteppedDown'),
  251: codes(K.ABORTED, 'NoSuchTransaction'),
  262: codes(K.SERVER_TIMEOUT, 'ExceededTimeLimit'),
  11000: codes(K.CONFLICT, 'DuplicateKey'),
  11600: codes(K.CONNECTION_LOST, 'InterruptedAtShutdown'),
  11602: codes(K.CONNECTION_LOST, 'InterruptedDueToReplStateChange'),
  10107: codes(K.UNAVAILABLE, 'NotWritablePrimary'), // refused: a write sent to a secondary
  13435: codes(K.UNAVAILABLE, 'NotPrimaryNoSecondaryOk'),
  13436: codes(K.UNAVAILABLE, 'NotPrimaryOrSecondary'),
});

/** Error labels → row, strongest first. */
// prettier-ignore
const MONGO_LABELS: readonly (readonly [string, DialectRow])[] = Object.freeze([
  ['UnknownTransactionCommitResult', driver(K.OUTCOME_UNKNOWN, 'UnknownTransactionCommitResult')],
  ['TransientTransactionError', driver(K.ABORTED, 'TransientTransactionError')], // the whole transaction may be retried
  ['NoWritesPerformed', driver(K.UNAVAILABLE, 'NoWritesPerformed')],
]);

/** Driver error classes without a server code → row. */
// prettier-ignore
const MONGO_CLASSES: Readonly<Record<string, DialectRow>> = Object.freeze({
  MongoServerSelectionError: driver(K.NOT_SENT, 'server_selection', 'not_sent'),
  MongoNotConnectedError: driver(K.NOT_SENT, 'not_connected', 'not_sent'),
  MongoTopologyClosedError: driver(K.NOT_SENT, 'topology_closed', 'not_sent'),
  MongoClientClosedError: driver(K.NOT_SENT, 'client_closed', 'not_sent'),
  MongoPoolClearedError: driver(K.NOT_SENT, 'pool_cleared', 'not_sent'),
  MongoWaitQueueTimeoutError: driver(K.CONNECT_TIMEOUT, 'wait_queue_timeout', 'not_sent'),
  MongoNetworkTimeoutError: driver(K.CLIENT_TIMEOUT, 'network_timeout'),
  MongoOperationTimeoutError: driver(K.CLIENT_TIMEOUT, 'operation_timeout'),
  MongoNetworkError: driver(K.CONNECTION_LOST, 'network_error'),
  MongoWriteConcernError: driver(K.OUTCOME_UNKNOWN, 'write_concern'),
  MongoInvalidArgumentError: driver(K.TOOL_BUG, 'invalid_argument'),
  MongoParseError: driver(K.TOOL_BUG, 'parse_error'),
  MongoCompatibilityError: driver(K.UNSUPPORTED, 'compatibility'),
  MongoMissingCredentialsError: driver(K.AUTH_FAILED, 'missing_credentials', 'not_sent'),
  MongoExpiredSessionError: driver(K.TOOL_BUG, 'expired_session'),
  MongoTransactionError: driver(K.TOOL_BUG, 'transaction_misuse'),
});

export const mongodbReader: DialectReader = {
  dialect: Dialect.MONGODB,
  read(node, declared) {
    const name = readString(node, 'name') ?? '';
    if (!name.startsWith('Mongo') && !declared) return undefined;
    const labels = (asArray(readProp(node, 'errorLabels')) ?? []).filter((l): l is string => typeof l === 'string');
    const code = readNumber(node, 'code');
    const row =
      MONGO_LABELS.find(([label]) => labels.includes(label))?.[1] ??
      (code === undefined ? undefined : own(MONGO_CODES, code)) ??
      own(MONGO_CLASSES, name) ??
      (name.startsWith('Mongo') ? driver(K.SERVER_ERROR) : undefined);
    if (!row) return undefined;
    const shown = /^[A-Za-z]{1,64}$/.test(name) ? name : 'error';
    return {
      dialect: Dialect.MONGODB,
      kind: row.kind,
      label: `MongoDB ${shown}${code === undefined ? '' : ` ${code}`}${row.name ? ` ${row.name}` : ''}`,
      ...(row.sent ? { sent: row.sent } : {}),
      ...(row.name && row.kind !== K.TOOL_BUG && /^[A-Z]/.test(row.name)
        ? { code: row.name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase() }
        : {}),
    };
  },
};
