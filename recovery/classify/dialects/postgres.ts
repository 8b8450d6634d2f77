/**
 * PostgreSQL errors, as node-postgres (`pg`, `DatabaseError` from pg-protocol) and postgres.js (`PostgresError`)
 * raise them: a five-character SQLSTATE in `code`, with `severity` (pg) or `severity_local` (postgres.js), and the
 * schema names `column` / `constraint` (pg) or `column_name` / `constraint_name` (postgres.js). The message,
 * `detail`, `hint`, `where` and `query` may hold values and SQL text: never read.
 *
 * A SQLSTATE is looked up by code first, then by its class (the first two characters).
 * node-postgres's own errors carry no code; they are matched by their exact message (pg lib/client.js, pg-pool
 * index.js). Without `errors: 'postgres'` a message that other libraries might also use ("timeout expired") is
 * taken as "may have been sent", the safe side.
 * Pure: no I/O.
 */
import { readProp, readString } from '../safe';
import {
  Dialect,
  ErrorKind as K,
  own,
  rowsFrom,
  type DialectFacts,
  type DialectReader,
  type DialectRow,
} from './kinds';
import { fieldIssue, identifier } from './names';

/** PostgreSQL's list of SQLSTATE codes. */
const ERRCODES = 'PostgreSQL docs, Appendix A "PostgreSQL Error Codes" (errcodes-appendix.html)';
const pg = rowsFrom(ERRCODES);

/** SQLSTATE → row, for the codes whose meaning differs from their class's. */
// prettier-ignore
export const SQLSTATE_CODES: Readonly<Record<string, DialectRow>> = Object.freeze({
  '08001': pg(K.NOT_SENT, 'sqlclient_unable_to_establish_sqlconnection'),
  '08004': pg(K.UNAVAILABLE, 'sqlserver_rejected_establishment_of_sqlconnection'),
  '08P01': pg(K.TOOL_BUG, 'protocol_violation'),
  '22012': pg(K.INVALID_ARGUMENT, 'division_by_zero'),
  '23000': pg(K.RULE_VIOLATION, 'integrity_constraint_violation'),
  '23001': pg(K.PRECONDITION_FAILED, 'restrict_violation'),
  '23502': pg(K.INVALID_ARGUMENT, 'not_null_violation'),
  '23503': pg(K.PRECONDITION_FAILED, 'foreign_key_violation'),
  '23505': pg(K.CONFLICT, 'unique_violation'),
  '23514': pg(K.RULE_VIOLATION, 'check_violation'),
  '23P01': pg(K.CONFLICT, 'exclusion_violation'),
  '25006': pg(K.UNAVAILABLE, 'read_only_sql_transaction'), // a hot standby, or a failover in progress
  '25P03': pg(K.SERVER_TIMEOUT, 'idle_in_transaction_session_timeout'),
  '28000': pg(K.AUTH_FAILED, 'invalid_authorization_specification'),
  '28P01': pg(K.AUTH_FAILED, 'invalid_password'),
  '40001': pg(K.ABORTED, 'serialization_failure'),
  '40002': pg(K.CONFLICT, 'transaction_integrity_constraint_violation'),
  '40003': pg(K.OUTCOME_UNKNOWN, 'statement_completion_unknown'),
  '40P01': pg(K.ABORTED, 'deadlock_detected'),
  '42501': pg(K.FORBIDDEN, 'insufficient_privilege'),
  '53000': pg(K.UNAVAILABLE, 'insufficient_resources'),
  '53100': pg(K.RESOURCE_FAILURE, 'disk_full'),
  '53200': pg(K.UNAVAILABLE, 'out_of_memory'),
  '53300': pg(K.UNAVAILABLE, 'too_many_connections', 'not_sent'), // refused at connection start-up
  '53400': pg(K.UNSUPPORTED, 'configuration_limit_exceeded'),
  '55006': pg(K.UNAVAILABLE, 'object_in_use'),
  '55P03': pg(K.SERVER_TIMEOUT, 'lock_not_available'), // NOWAIT or lock_timeout: the statement was rolled back
  '57014': pg(K.SERVER_TIMEOUT, 'query_canceled'), // statement_timeout or a cancel request
  '57P01': pg(K.CONNECTION_LOST, 'admin_shutdown'), // pg_terminate_backend or a fast shutdown
  '57P02': pg(K.CONNECTION_LOST, 'crash_shutdown'),
  '57P03': pg(K.UNAVAILABLE, 'cannot_connect_now', 'not_sent'), // starting up or shutting down
  '57P04': pg(K.UNSUPPORTED, 'database_dropped'),
  '57P05': pg(K.CONNECTION_LOST, 'idle_session_timeout'),
  '58030': pg(K.RESOURCE_FAILURE, 'io_error'),
  '72000': pg(K.ABORTED, 'snapshot_too_old'),
  P0001: pg(K.BUSINESS_RULE, 'raise_exception'), // RAISE EXCEPTION in PL/pgSQL: the database's business rule
  P0002: pg(K.NOT_FOUND, 'no_data_found'),
  P0003: pg(K.TOOL_BUG, 'too_many_rows'),
  P0004: pg(K.TOOL_BUG, 'assert_failure'),
});

/** SQLSTATE class (first two characters) → row, for every class of the appendix. */
// prettier-ignore
export const SQLSTATE_CLASSES: Readonly<Record<string, DialectRow>> = Object.freeze({
  '03': pg(K.TOOL_BUG, 'sql_statement_not_yet_complete'),
  '08': pg(K.CONNECTION_LOST, 'connection_exception'),
  '09': pg(K.SERVER_ERROR, 'triggered_action_exception'),
  '0A': pg(K.UNSUPPORTED, 'feature_not_supported'),
  '0B': pg(K.TOOL_BUG, 'invalid_transaction_initiation'),
  '0F': pg(K.TOOL_BUG, 'locator_exception'),
  '0L': pg(K.FORBIDDEN, 'invalid_grantor'),
  '0P': pg(K.FORBIDDEN, 'invalid_role_specification'),
  '0Z': pg(K.TOOL_BUG, 'diagnostics_exception'),
  '20': pg(K.TOOL_BUG, 'case_not_found'),
  '21': pg(K.TOOL_BUG, 'cardinality_violation'),
  '22': pg(K.INVALID_ARGUMENT, 'data_exception'), // 22P02 invalid_text_representation, 22001 string too long, …
  '23': pg(K.RULE_VIOLATION, 'integrity_constraint_violation'),
  '24': pg(K.TOOL_BUG, 'invalid_cursor_state'),
  '25': pg(K.TOOL_BUG, 'invalid_transaction_state'),
  '26': pg(K.TOOL_BUG, 'invalid_sql_statement_name'),
  '27': pg(K.RULE_VIOLATION, 'triggered_data_change_violation'),
  '28': pg(K.AUTH_FAILED, 'invalid_authorization_specification'),
  '2B': pg(K.PRECONDITION_FAILED, 'dependent_privilege_descriptors_still_exist'),
  '2D': pg(K.TOOL_BUG, 'invalid_transaction_termination'),
  '2F': pg(K.TOOL_BUG, 'sql_routine_exception'),
  '34': pg(K.TOOL_BUG, 'invalid_cursor_name'),
  '38': pg(K.TOOL_BUG, 'external_routine_exception'),
  '39': pg(K.TOOL_BUG, 'external_routine_invocation_exception'),
  '3B': pg(K.TOOL_BUG, 'savepoint_exception'),
  '3D': pg(K.TOOL_BUG, 'invalid_catalog_name'), // the database does not exist: configuration
  '3F': pg(K.TOOL_BUG, 'invalid_schema_name'),
  '40': pg(K.ABORTED, 'transaction_rollback'),
  '42': pg(K.TOOL_BUG, 'syntax_error_or_access_rule_violation'), // 42P01 undefined_table, 42601 syntax_error, …
  '44': pg(K.RULE_VIOLATION, 'with_check_option_violation'),
  '53': pg(K.UNAVAILABLE, 'insufficient_resources'),
  '54': pg(K.TOOL_BUG, 'program_limit_exceeded'),
  '55': pg(K.PRECONDITION_FAILED, 'object_not_in_prerequisite_state'),
  '57': pg(K.CONNECTION_LOST, 'operator_intervention'),
  '58': pg(K.RESOURCE_FAILURE, 'system_error'),
  '72': pg(K.ABORTED, 'snapshot_failure'),
  F0: pg(K.UNSUPPORTED, 'config_file_error'),
  HV: pg(K.SERVER_ERROR, 'fdw_error'),
  P0: pg(K.BUSINESS_RULE, 'plpgsql_error'),
  XX: pg(K.RESOURCE_FAILURE, 'internal_error'), // XX001 data_corrupted, XX002 index_corrupted
});

const PG_LIB = 'node-postgres 8.x lib/client.js and pg-pool index.js (the messages it throws without a code)';
const lib = rowsFrom(PG_LIB);

/**
 * node-postgres's codeless errors, by exact message. `loose`: other libraries may throw the same words, so
 * without `errors: 'postgres'` the row is read as "may have been sent".
 */
// prettier-ignore
export const PG_MESSAGES: Readonly<Record<string, DialectRow & { loose?: true }>> = Object.freeze({
  'Connection terminated unexpectedly': lib(K.CONNECTION_LOST, 'connection_terminated'),
  'Connection terminated': lib(K.CONNECTION_LOST, 'connection_terminated'), // client.end() during a query
  'Query read timeout': lib(K.CLIENT_TIMEOUT, 'query_timeout'), // query_timeout: the query was sent, may still run
  'timeout expired': Object.freeze({ ...lib(K.CONNECT_TIMEOUT, 'connection_timeout', 'not_sent'), loose: true as const }), // connectionTimeoutMillis
  'timeout exceeded when trying to connect': lib(K.CONNECT_TIMEOUT, 'pool_acquire_timeout', 'not_sent'),
  'Connection terminated due to connection timeout': lib(K.CONNECT_TIMEOUT, 'connection_timeout', 'not_sent'),
  'Client has encountered a connection error and is not queryable': lib(K.NOT_SENT, 'client_not_queryable', 'not_sent'),
  'Client was closed and is not queryable': lib(K.NOT_SENT, 'client_closed', 'not_sent'),
  'Cannot use a pool after calling end on the pool': lib(K.TOOL_BUG, 'pool_ended'),
  'Client has already been connected. You cannot reuse a client.': lib(K.TOOL_BUG, 'client_reused'),
  'The server does not support SSL connections': lib(K.UNSUPPORTED, 'ssl_not_supported', 'not_sent'),
});

const SQLSTATE = /^[0-9A-Z]{5}$/;

/** node-postgres `DatabaseError` or postgres.js `PostgresError`: a SQLSTATE with the server's severity or routine. */
function isServerError(node: unknown): boolean {
  return (
    readString(node, 'severity') !== undefined ||
    readString(node, 'severity_local') !== undefined ||
    readString(node, 'routine') !== undefined ||
    readString(node, 'name') === 'PostgresError'
  );
}

function readSqlState(node: unknown, code: string): DialectFacts {
  const row = own(SQLSTATE_CODES, code) ?? own(SQLSTATE_CLASSES, code.slice(0, 2)) ?? pg(K.SERVER_ERROR);
  const column = identifier(readProp(node, 'column')) ?? identifier(readProp(node, 'column_name'));
  const constraint = identifier(readProp(node, 'constraint')) ?? identifier(readProp(node, 'constraint_name'));
  const on = [constraint && `constraint ${constraint}`, column && `column ${column}`].filter(Boolean).join(', ');
  const label = `PostgreSQL ${code}${row.name ? ` ${row.name}` : ''}${on ? ` (${on})` : ''}`;
  const invalid = row.kind === K.INVALID_ARGUMENT || row.kind === K.RULE_VIOLATION;
  return {
    dialect: Dialect.POSTGRES,
    kind: row.kind,
    label,
    ...(row.sent ? { sent: row.sent } : {}),
    ...(row.name && row.kind !== K.TOOL_BUG ? { code: row.name } : {}),
    ...(invalid && column
      ? { issues: [fieldIssue([column], `a value the column accepts (${row.name ?? code})`)] }
      : {}),
  };
}

export const postgresReader: DialectReader = {
  dialect: Dialect.POSTGRES,
  read(node, declared) {
    const code = readString(node, 'code');
    if (code !== undefined && SQLSTATE.test(code) && (declared || isServerError(node))) return readSqlState(node, code);
    if (code !== undefined) return undefined;
    const message = readString(node, 'message');
    const row = message === undefined ? undefined : own(PG_MESSAGES, message);
    if (!row) return undefined;
    const sent = row.loose && !declared ? 'maybe_sent' : row.sent;
    const kind = row.loose && !declared ? K.CLIENT_TIMEOUT : row.kind;
    return {
      dialect: Dialect.POSTGRES,
      kind,
      label: `PostgreSQL client (${row.name ?? 'error'})`,
      ...(sent ? { sent } : {}),
    };
  },
};
