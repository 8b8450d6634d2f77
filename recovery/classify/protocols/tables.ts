/**
 * The protocols' code tables, one per standard, each row a code with its spec's own name (recovery/classify/
 * protocols/table.ts says how an error is read in them). Routing a new protocol is one table here, listed in
 * `PROTOCOL_TABLES`, and its test.
 * Pure: data, and the small readers of two protocols' own shapes (gRPC metadata, a SQL error's schema names).
 */
import { ErrorKind as K, type CodeFacts } from '../kinds';
import { readNumber, readProp, readString } from '../safe';
import { grpcMore } from './grpc-metadata';
import { NOT_SENT, r, table, type TableRow } from './table';
import { fieldIssue, identifier } from '../dialects/names';

/** SQLSTATE (ISO/IEC 9075, as PostgreSQL lists it): by code, then by class (its first two characters). */
// prettier-ignore
export const SQLSTATE = table({
  id: 'postgres', aliases: ['sqlstate'], label: 'PostgreSQL', source: 'PostgreSQL docs, Appendix A "PostgreSQL Error Codes" (SQLSTATE, ISO/IEC 9075)',
  fields: ['code', 'sqlState', 'state'], pattern: /^[0-9A-Z]{5}$/, keys: (code) => [code, code.slice(0, 2)], // sqlState: Snowflake; state: DB2 (ibm_db)
  speaks: { named: /^postgres error$/, shape: [['severity'], ['severity_local'], ['routine'], ['sqlState'], ['sqlcode']], agree: true },
  otherwise: r(K.SERVER_ERROR),
  more: sqlNames,
  rows: {
    '08001': r(K.NOT_SENT, 'sqlclient_unable_to_establish_sqlconnection', { refine: true }), // DB2 SQL30082N: a password refused
    '08004': r(K.UNAVAILABLE, 'sqlserver_rejected_establishment_of_sqlconnection'),
    '08P01': r(K.TOOL_BUG, 'protocol_violation'),
    '22012': r(K.INVALID_ARGUMENT, 'division_by_zero'),
    '23000': r(K.RULE_VIOLATION, 'integrity_constraint_violation'),
    '23001': r(K.PRECONDITION_FAILED, 'restrict_violation'),
    '23502': r(K.INVALID_ARGUMENT, 'not_null_violation'),
    '23503': r(K.PRECONDITION_FAILED, 'foreign_key_violation'),
    '23505': r(K.CONFLICT, 'unique_violation'),
    '23514': r(K.RULE_VIOLATION, 'check_violation'),
    '23P01': r(K.CONFLICT, 'exclusion_violation'),
    '25006': r(K.UNAVAILABLE, 'read_only_sql_transaction'), // a hot standby, or a failover in progress
    '25P03': r(K.SERVER_TIMEOUT, 'idle_in_transaction_session_timeout'),
    '28000': r(K.AUTH_FAILED, 'invalid_authorization_specification'),
    '28P01': r(K.AUTH_FAILED, 'invalid_password'),
    '40001': r(K.ABORTED, 'serialization_failure'),
    '40002': r(K.CONFLICT, 'transaction_integrity_constraint_violation'),
    '40003': r(K.OUTCOME_UNKNOWN, 'statement_completion_unknown'),
    '40P01': r(K.ABORTED, 'deadlock_detected'),
    '42501': r(K.FORBIDDEN, 'insufficient_privilege'),
    '42S02': r(K.NOT_FOUND, 'base_table_or_view_not_found'), // ODBC (X/Open) SQLSTATE, as Snowflake and DB2 report it
    '53000': r(K.UNAVAILABLE, 'insufficient_resources'),
    '53100': r(K.RESOURCE_FAILURE, 'disk_full'),
    '53200': r(K.UNAVAILABLE, 'out_of_memory'),
    '53300': r(K.UNAVAILABLE, 'too_many_connections', NOT_SENT), // refused at connection start-up
    '53400': r(K.UNSUPPORTED, 'configuration_limit_exceeded'),
    '55006': r(K.UNAVAILABLE, 'object_in_use'),
    '55P03': r(K.SERVER_TIMEOUT, 'lock_not_available'), // NOWAIT or lock_timeout: the statement was rolled back
    '57014': r(K.SERVER_TIMEOUT, 'query_canceled'), // statement_timeout or a cancel request
    '57P01': r(K.CONNECTION_LOST, 'admin_shutdown'),
    '57P02': r(K.CONNECTION_LOST, 'crash_shutdown'),
    '57P03': r(K.UNAVAILABLE, 'cannot_connect_now', NOT_SENT), // starting up or shutting down
    '57P04': r(K.UNSUPPORTED, 'database_dropped'),
    '57P05': r(K.CONNECTION_LOST, 'idle_session_timeout'),
    '58030': r(K.RESOURCE_FAILURE, 'io_error'),
    '72000': r(K.ABORTED, 'snapshot_too_old'),
    P0001: r(K.BUSINESS_RULE, 'raise_exception'), // RAISE EXCEPTION in PL/pgSQL: the database's business rule
    P0002: r(K.NOT_FOUND, 'no_data_found'),
    P0003: r(K.TOOL_BUG, 'too_many_rows'),
    P0004: r(K.TOOL_BUG, 'assert_failure'),
    // Classes, for codes not listed above.
    '03': r(K.TOOL_BUG, 'sql_statement_not_yet_complete'),
    '08': r(K.CONNECTION_LOST, 'connection_exception'),
    '09': r(K.SERVER_ERROR, 'triggered_action_exception'),
    '0A': r(K.UNSUPPORTED, 'feature_not_supported'),
    '0B': r(K.TOOL_BUG, 'invalid_transaction_initiation'),
    '0F': r(K.TOOL_BUG, 'locator_exception'),
    '0L': r(K.FORBIDDEN, 'invalid_grantor'),
    '0P': r(K.FORBIDDEN, 'invalid_role_specification'),
    '0Z': r(K.TOOL_BUG, 'diagnostics_exception'),
    '20': r(K.TOOL_BUG, 'case_not_found'),
    '21': r(K.TOOL_BUG, 'cardinality_violation'),
    '22': r(K.INVALID_ARGUMENT, 'data_exception'), // 22P02 invalid_text_representation, 22001 string too long, …
    '23': r(K.RULE_VIOLATION, 'integrity_constraint_violation'),
    '24': r(K.TOOL_BUG, 'invalid_cursor_state'),
    '25': r(K.TOOL_BUG, 'invalid_transaction_state'),
    '26': r(K.TOOL_BUG, 'invalid_sql_statement_name'),
    '27': r(K.RULE_VIOLATION, 'triggered_data_change_violation'),
    '28': r(K.AUTH_FAILED, 'invalid_authorization_specification'),
    '2B': r(K.PRECONDITION_FAILED, 'dependent_privilege_descriptors_still_exist'),
    '2D': r(K.TOOL_BUG, 'invalid_transaction_termination'),
    '2F': r(K.TOOL_BUG, 'sql_routine_exception'),
    '34': r(K.TOOL_BUG, 'invalid_cursor_name'),
    '38': r(K.TOOL_BUG, 'external_routine_exception'),
    '39': r(K.TOOL_BUG, 'external_routine_invocation_exception'),
    '3B': r(K.TOOL_BUG, 'savepoint_exception'),
    '3D': r(K.TOOL_BUG, 'invalid_catalog_name'), // the database does not exist: configuration
    '3F': r(K.TOOL_BUG, 'invalid_schema_name'),
    '40': r(K.ABORTED, 'transaction_rollback'),
    '42': r(K.TOOL_BUG, 'syntax_error_or_access_rule_violation'), // 42P01 undefined_table, 42601 syntax_error, …
    '44': r(K.RULE_VIOLATION, 'with_check_option_violation'),
    '53': r(K.UNAVAILABLE, 'insufficient_resources'),
    '54': r(K.TOOL_BUG, 'program_limit_exceeded'),
    '55': r(K.PRECONDITION_FAILED, 'object_not_in_prerequisite_state'),
    '57': r(K.CONNECTION_LOST, 'operator_intervention'),
    '58': r(K.RESOURCE_FAILURE, 'system_error'),
    '72': r(K.ABORTED, 'snapshot_failure'),
    F0: r(K.UNSUPPORTED, 'config_file_error'),
    HV: r(K.SERVER_ERROR, 'fdw_error'),
    P0: r(K.BUSINESS_RULE, 'plpgsql_error'),
    XX: r(K.RESOURCE_FAILURE, 'internal_error'), // XX001 data_corrupted, XX002 index_corrupted
  },
});

/**
 * A SQL error's schema names: the constraint and the column (node-postgres `constraint`/`column`, postgres.js
 * `constraint_name`/`column_name`), in the label; the column as a field issue of a value the column refused. The
 * message, `detail`, `hint`, `where` and `query` may hold values and SQL text: never read.
 */
function sqlNames(node: unknown, row: TableRow, code: string, label: string): Partial<CodeFacts> {
  const column = identifier(readProp(node, 'column')) ?? identifier(readProp(node, 'column_name'));
  const constraint = identifier(readProp(node, 'constraint')) ?? identifier(readProp(node, 'constraint_name'));
  const on = [constraint && `constraint ${constraint}`, column && `column ${column}`].filter(Boolean).join(', ');
  const invalid = row.kind === K.INVALID_ARGUMENT || row.kind === K.RULE_VIOLATION;
  return {
    label: on ? `${label} (${on})` : label,
    ...(invalid && column
      ? { issues: [fieldIssue([column], `a value the column accepts (${row.name ?? code})`)] }
      : {}),
  };
}

/** gRPC status codes 0–16; the server's own retry delay and field violations come from its metadata. */
// prettier-ignore
export const GRPC = table({
  id: 'grpc', label: 'gRPC', source: 'gRPC "Status codes and their use in gRPC" (grpc.github.io/grpc/core/md_doc_statuscodes.html)',
  pattern: /^(?:\d|1[0-6])$/, inText: /^(\d{1,2}) ([A-Z_]{2,20}):/,
  speaks: { shape: [['details', 'metadata'], ['details', 'path']], text: true }, // path: the method (nice-grpc ClientError)
  more: grpcMore,
  rows: {
    0: r(K.TOOL_BUG, 'OK'), // thrown as an error: the tool mishandled a success
    1: r(K.CLIENT_TIMEOUT, 'CANCELLED'), // usually cancelled by the caller: the moment is unknown
    2: r(K.SERVER_ERROR, 'UNKNOWN'),
    3: r(K.INVALID_ARGUMENT, 'INVALID_ARGUMENT'),
    4: r(K.CLIENT_TIMEOUT, 'DEADLINE_EXCEEDED'), // "may have completed successfully": a write's phase is unknown
    5: r(K.NOT_FOUND, 'NOT_FOUND'),
    6: r(K.CONFLICT, 'ALREADY_EXISTS'),
    7: r(K.FORBIDDEN, 'PERMISSION_DENIED'),
    8: r(K.RATE_LIMITED, 'RESOURCE_EXHAUSTED'), // quota or rate; the server may send RetryInfo
    9: r(K.PRECONDITION_FAILED, 'FAILED_PRECONDITION'), // "should not retry until the system state has been fixed"
    10: r(K.ABORTED, 'ABORTED'), // a concurrency conflict: "retry at a higher level"
    11: r(K.PRECONDITION_FAILED, 'OUT_OF_RANGE'), // "may be fixed if the system state changes"
    12: r(K.UNSUPPORTED, 'UNIMPLEMENTED'),
    13: r(K.SERVER_ERROR, 'INTERNAL'),
    14: r(K.CONNECTION_LOST, 'UNAVAILABLE'), // not always safe to replay: not sent only when no connection was made
    15: r(K.RESOURCE_FAILURE, 'DATA_LOSS'),
    16: r(K.AUTH_FAILED, 'UNAUTHENTICATED'),
  },
});

/** POSIX errno names of the file system (network ones are the transport rules', recovery/classify/network-rules.ts). */
// prettier-ignore
export const ERRNO = table({
  id: 'node', aliases: ['errno'], label: 'errno', source: 'Node.js docs, "Errors: Common system errors" and errno(3) (POSIX error names)',
  pattern: /^E[A-Z0-9]{2,20}$/,
  speaks: { shape: [['syscall']], test: (node) => (readNumber(node, 'errno') ?? 0) < 0 },
  rows: {
    ENOENT: r(K.NOT_FOUND), // a changed path is the fix: the model chooses another
    ENOTDIR: r(K.PRECONDITION_FAILED), // a component of the path is not a directory
    EISDIR: r(K.PRECONDITION_FAILED), // a file operation on a directory
    ENOTEMPTY: r(K.PRECONDITION_FAILED),
    EEXIST: r(K.CONFLICT),
    ELOOP: r(K.PRECONDITION_FAILED),
    ENAMETOOLONG: r(K.INVALID_ARGUMENT),
    EACCES: r(K.FORBIDDEN),
    EPERM: r(K.FORBIDDEN),
    EROFS: r(K.FORBIDDEN), // a read-only file system
    EMFILE: r(K.UNAVAILABLE), // this process has too many open files; the call did not start
    ENFILE: r(K.UNAVAILABLE),
    EBUSY: r(K.UNAVAILABLE),
    EAGAIN: r(K.UNAVAILABLE),
    ENOSPC: r(K.RESOURCE_FAILURE), // the disk is full: an operator must free space
    EDQUOT: r(K.RESOURCE_FAILURE),
    EIO: r(K.RESOURCE_FAILURE), // a device I/O error
    EFBIG: r(K.INVALID_ARGUMENT),
    EXDEV: r(K.UNSUPPORTED), // a rename across devices
    ENOTSUP: r(K.UNSUPPORTED),
    EINVAL: r(K.TOOL_BUG),
    EBADF: r(K.TOOL_BUG),
  },
});

/** An RFC 3463 enhanced status code in a reply's text: class, subject, detail. */
const ENHANCED = /(?:^|\s)([245])\.(\d{1,3})\.(\d{1,3})(?=\s|$)/;
const enhanced = (node: unknown) => ENHANCED.exec(readString(node, 'response') ?? readString(node, 'message') ?? '');

/**
 * SMTP replies: the reply code (RFC 5321 §4.2) with the enhanced status code of its text (RFC 3463), which is how an
 * error shows it speaks SMTP (its class repeats the reply's first digit). Every 4yz or 5yz reply refused the command
 * (RFC 5321 §4.2.1; §4.1.1.4: a failure reply to the end of DATA means the message is not delivered).
 */
// prettier-ignore
export const SMTP = table({
  id: 'smtp', label: 'SMTP', source: 'RFC 5321 §4.2 (reply codes), RFC 3463 (enhanced status codes), RFC 4954 §6 (AUTH)',
  fields: ['responseCode', 'replyCode', 'code'], pattern: /^[45]\d\d$/, inText: /^([45]\d\d)[\s-]/,
  speaks: { named: /\bsmtp\b/, test: (node, code) => enhanced(node)?.[1] === code[0] },
  keys: (code, node) => {
    if (code[0] === '4') return ['4yz'];
    const e = enhanced(node);
    return [e ? `x.${e[2]}.${e[3]}` : undefined, e ? `x.${e[2]}` : undefined, code, '5yz'];
  },
  more: (node, _row, _code, label) => {
    const e = enhanced(node);
    return { label: e ? `${label} ${e[1]}.${e[2]}.${e[3]}` : label };
  },
  rows: {
    '4yz': r(K.UNAVAILABLE, undefined, { what: 'the mail server refused it for now', source: 'RFC 5321 §4.2.1: 4yz, the command may be sent again later' }),
    'x.7.0': r(K.AUTH_FAILED, undefined, { what: 'the mail server refused the credentials', source: 'RFC 4954 §6: 530 5.7.0 Authentication required' }),
    'x.7.8': r(K.AUTH_FAILED, undefined, { what: 'the mail server refused the credentials', source: 'RFC 4954 §6: 535 5.7.8 Authentication credentials invalid' }),
    'x.7.9': r(K.AUTH_FAILED, undefined, { what: 'the mail server refused the credentials', source: 'RFC 4954 §6: 534 5.7.9 Authentication mechanism is too weak' }),
    'x.7': r(K.POLICY_DENIED, undefined, { what: 'the mail server refused it by policy', source: 'RFC 3463 §3.8: X.7.x security or policy status' }),
    'x.1.3': r(K.INVALID_ARGUMENT, undefined, { what: "the mail server refused an address's syntax", source: 'RFC 3463 §3.2: X.1.3 bad destination mailbox address syntax' }),
    'x.1.7': r(K.INVALID_ARGUMENT, undefined, { what: "the mail server refused an address's syntax", source: 'RFC 3463 §3.2: X.1.7 bad sender mailbox address syntax' }),
    'x.1': r(K.NOT_FOUND, undefined, { what: 'the mail server has no such mailbox or domain', source: 'RFC 3463 §3.2: X.1.x addressing status (5.1.1 bad destination mailbox)' }),
    'x.3.4': r(K.INVALID_ARGUMENT, undefined, { what: 'the message is too big for the mail server', source: 'RFC 3463 §3.5: X.3.4 message too big for system' }),
    'x.2.3': r(K.INVALID_ARGUMENT, undefined, { what: 'the message is too big for the mail server', source: 'RFC 3463 §3.3: X.2.3 message length exceeds administrative limit' }),
    'x.5': r(K.INVALID_ARGUMENT, undefined, { what: "the mail server refused the command's syntax or arguments", source: 'RFC 3463 §3.6: X.5.x mail delivery protocol status' }),
    552: r(K.INVALID_ARGUMENT, undefined, { what: 'the message is too big for the mail server', source: 'RFC 5321 §4.2.2: 552 exceeded storage allocation' }),
    530: r(K.AUTH_FAILED, undefined, { what: 'the mail server refused the credentials', source: 'RFC 4954 §6: 530 Authentication required' }),
    535: r(K.AUTH_FAILED, undefined, { what: 'the mail server refused the credentials', source: 'RFC 4954 §6: 535 Authentication credentials invalid' }),
    ...Object.fromEntries([500, 501, 502, 503, 504, 553].map((c) => [c, r(K.INVALID_ARGUMENT, undefined, { what: "the mail server refused the command's syntax or arguments", source: 'RFC 5321 §4.2.2: 500-504 syntax and parameter errors, 553 mailbox name not allowed' })])),
    '5yz': r(K.BUSINESS_RULE, undefined, { what: 'the mail server refused it', source: 'RFC 5321 §4.2.1: 5yz, a permanent negative completion' }),
  },
});

/**
 * FTP replies (RFC 959 §4.2): the first digit says whether the action happened — 4yz "the command was not accepted
 * and the requested action did not take place, but the error condition is temporary", 5yz "… did not take place".
 * An error shows it speaks FTP by its name (`FTPError`); a reply code alone is SMTP's as much as FTP's.
 */
// prettier-ignore
export const FTP = table({
  id: 'ftp', label: 'FTP', source: 'RFC 959 §4.2 (FTP replies) and §4.2.2 (numeric order list of reply codes)',
  pattern: /^[45]\d\d$/, inText: /^([45]\d\d)[\s-]/, keys: (code) => [code, `${code[0]}yz`],
  speaks: { named: /\bftp\b/ },
  rows: {
    421: r(K.UNAVAILABLE, 'service not available'), // closing the control connection
    425: r(K.UNAVAILABLE, "can't open data connection"),
    426: r(K.CONNECTION_LOST, 'connection closed; transfer aborted'),
    450: r(K.UNAVAILABLE, 'file unavailable'), // e.g. the file is busy
    451: r(K.UNAVAILABLE, 'local error in processing'),
    452: r(K.UNAVAILABLE, 'insufficient storage space'),
    '4yz': r(K.UNAVAILABLE),
    500: r(K.TOOL_BUG, 'command unrecognized'),
    501: r(K.INVALID_ARGUMENT, 'syntax error in parameters or arguments'),
    502: r(K.UNSUPPORTED, 'command not implemented'),
    503: r(K.TOOL_BUG, 'bad sequence of commands'),
    504: r(K.UNSUPPORTED, 'command not implemented for that parameter'),
    530: r(K.AUTH_FAILED, 'not logged in'),
    532: r(K.FORBIDDEN, 'need account for storing files'),
    550: r(K.NOT_FOUND, 'file unavailable', { refine: true }), // "e.g., file not found, no access": the text says which
    551: r(K.INVALID_ARGUMENT, 'page type unknown'),
    552: r(K.QUOTA_EXHAUSTED, 'exceeded storage allocation'),
    553: r(K.INVALID_ARGUMENT, 'file name not allowed', { refine: true }),
    '5yz': r(K.BUSINESS_RULE, undefined, { refine: true }),
  },
});

/** LDAP result codes (RFC 4511 Appendix A.2); an error shows it speaks LDAP by its name or by repeating the code's name. */
// prettier-ignore
export const LDAP = table({
  id: 'ldap', label: 'LDAP', source: 'RFC 4511 Appendix A.2 (LDAP result codes)',
  fields: ['code', 'resultCode'], pattern: /^\d{1,3}$/,
  speaks: { named: /\bldap\b/, agree: true },
  rows: {
    1: r(K.TOOL_BUG, 'operationsError'),
    2: r(K.TOOL_BUG, 'protocolError'),
    3: r(K.SERVER_TIMEOUT, 'timeLimitExceeded'),
    4: r(K.INVALID_ARGUMENT, 'sizeLimitExceeded', { what: 'the result is larger than the server allows; ask for less' }),
    7: r(K.UNSUPPORTED, 'authMethodNotSupported'),
    8: r(K.AUTH_FAILED, 'strongerAuthRequired'),
    11: r(K.INVALID_ARGUMENT, 'adminLimitExceeded', { what: 'the request is larger than the server allows; ask for less' }),
    12: r(K.UNSUPPORTED, 'unavailableCriticalExtension'),
    13: r(K.UNSUPPORTED, 'confidentialityRequired'),
    16: r(K.NOT_FOUND, 'noSuchAttribute'),
    17: r(K.INVALID_ARGUMENT, 'undefinedAttributeType'),
    18: r(K.INVALID_ARGUMENT, 'inappropriateMatching'),
    19: r(K.RULE_VIOLATION, 'constraintViolation'),
    20: r(K.ALREADY, 'attributeOrValueExists'),
    21: r(K.INVALID_ARGUMENT, 'invalidAttributeSyntax'),
    32: r(K.NOT_FOUND, 'noSuchObject'),
    33: r(K.NOT_FOUND, 'aliasProblem'),
    34: r(K.INVALID_ARGUMENT, 'invalidDNSyntax'),
    48: r(K.AUTH_FAILED, 'inappropriateAuthentication'),
    49: r(K.AUTH_FAILED, 'invalidCredentials'),
    50: r(K.FORBIDDEN, 'insufficientAccessRights'),
    51: r(K.UNAVAILABLE, 'busy'),
    52: r(K.UNAVAILABLE, 'unavailable'),
    53: r(K.BUSINESS_RULE, 'unwillingToPerform'),
    54: r(K.TOOL_BUG, 'loopDetect'),
    64: r(K.INVALID_ARGUMENT, 'namingViolation'),
    65: r(K.INVALID_ARGUMENT, 'objectClassViolation'), // the entry lacks an attribute its class requires
    66: r(K.PRECONDITION_FAILED, 'notAllowedOnNonLeaf'), // the entry has children: the state refuses it
    67: r(K.PRECONDITION_FAILED, 'notAllowedOnRDN'),
    68: r(K.ALREADY, 'entryAlreadyExists'),
    69: r(K.BUSINESS_RULE, 'objectClassModsProhibited'),
    71: r(K.UNSUPPORTED, 'affectsMultipleDSAs'),
    80: r(K.BUSINESS_RULE, 'other'),
  },
});

/** MQTT 5 reason codes of 0x80 and above (failures); a CONNACK refusal is the credential's (table.ts). */
// prettier-ignore
export const MQTT = table({
  id: 'mqtt', label: 'MQTT', source: 'MQTT Version 5.0 (OASIS), §2.4 "Reason Code" and the reason code tables of §3',
  fields: ['code', 'reasonCode'], pattern: /^1[2-6]\d$/,
  speaks: { named: /\bmqtt\b/, agree: true },
  rows: {
    128: r(K.BUSINESS_RULE, 'Unspecified error'),
    129: r(K.TOOL_BUG, 'Malformed Packet'),
    130: r(K.TOOL_BUG, 'Protocol Error'),
    131: r(K.BUSINESS_RULE, 'Implementation specific error'),
    132: r(K.UNSUPPORTED, 'Unsupported Protocol Version'),
    133: r(K.TOOL_BUG, 'Client Identifier not valid'),
    134: r(K.AUTH_FAILED, 'Bad User Name or Password'),
    135: r(K.FORBIDDEN, 'Not authorized'),
    136: r(K.UNAVAILABLE, 'Server unavailable'),
    137: r(K.UNAVAILABLE, 'Server busy'),
    138: r(K.FORBIDDEN, 'Banned'),
    139: r(K.CONNECTION_LOST, 'Server shutting down'),
    140: r(K.AUTH_FAILED, 'Bad authentication method'),
    141: r(K.CONNECTION_LOST, 'Keep Alive timeout'),
    142: r(K.CONNECTION_LOST, 'Session taken over'),
    143: r(K.INVALID_ARGUMENT, 'Topic Filter invalid'),
    144: r(K.INVALID_ARGUMENT, 'Topic Name invalid'),
    145: r(K.TOOL_BUG, 'Packet Identifier in use'),
    146: r(K.TOOL_BUG, 'Packet Identifier not found'),
    147: r(K.RATE_LIMITED, 'Receive Maximum exceeded'),
    148: r(K.TOOL_BUG, 'Topic Alias invalid'),
    149: r(K.INVALID_ARGUMENT, 'Packet too large'),
    150: r(K.RATE_LIMITED, 'Message rate too high'),
    151: r(K.QUOTA_EXHAUSTED, 'Quota exceeded'),
    152: r(K.CONNECTION_LOST, 'Administrative action'),
    153: r(K.INVALID_ARGUMENT, 'Payload format invalid'),
    154: r(K.UNSUPPORTED, 'Retain not supported'),
    155: r(K.UNSUPPORTED, 'QoS not supported'),
    156: r(K.UNAVAILABLE, 'Use another server'),
    157: r(K.UNAVAILABLE, 'Server moved'),
    158: r(K.UNSUPPORTED, 'Shared Subscriptions not supported'),
    159: r(K.RATE_LIMITED, 'Connection rate exceeded'),
    160: r(K.CONNECTION_LOST, 'Maximum connect time'),
    161: r(K.UNSUPPORTED, 'Subscription Identifiers not supported'),
    162: r(K.UNSUPPORTED, 'Wildcard Subscriptions not supported'),
  },
});

/**
 * AMQP 0-9-1 reply codes; an error shows it speaks AMQP by the reply in its text, the code beside its name
 * (`403 (ACCESS-REFUSED)`). A soft error closes the channel, a hard one the connection; the method that caused it
 * was not performed.
 */
// prettier-ignore
export const AMQP = table({
  id: 'amqp', label: 'AMQP', source: 'AMQP 0-9-1 §1.2 "Constants" (reply codes; amqp0-9-1.xml) and RabbitMQ\'s reply texts',
  pattern: /^[345]\d\d$/, inText: /\b([345]\d\d) \(([A-Z]+(?:[-_][A-Z]+)*)\)/,
  speaks: { named: /\bamqp\b/, text: true },
  rows: {
    311: r(K.INVALID_ARGUMENT, 'content-too-large'),
    312: r(K.NOT_FOUND, 'no-route'),
    313: r(K.UNAVAILABLE, 'no-consumers'),
    320: r(K.CONNECTION_LOST, 'connection-forced'), // an operator closed it; "the client may retry at some later date"
    402: r(K.NOT_FOUND, 'invalid-path'),
    403: r(K.FORBIDDEN, 'access-refused'),
    404: r(K.NOT_FOUND, 'not-found'),
    405: r(K.PRECONDITION_FAILED, 'resource-locked'), // another client works with it (an exclusive queue)
    406: r(K.PRECONDITION_FAILED, 'precondition-failed', { refine: true }),
    501: r(K.TOOL_BUG, 'frame-error'),
    502: r(K.TOOL_BUG, 'syntax-error'),
    503: r(K.TOOL_BUG, 'command-invalid'),
    504: r(K.TOOL_BUG, 'channel-error'),
    505: r(K.TOOL_BUG, 'unexpected-frame'),
    506: r(K.UNAVAILABLE, 'resource-error'),
    530: r(K.FORBIDDEN, 'not-allowed'),
    540: r(K.UNSUPPORTED, 'not-implemented'),
    541: r(K.SERVER_ERROR, 'internal-error'),
  },
});

/**
 * IMAP response codes in a tagged NO or BAD (RFC 3501 §7.1: `tag NO [CODE] text`; the command was not carried
 * out), which is how an error shows it speaks IMAP.
 */
// prettier-ignore
export const IMAP = table({
  id: 'imap', label: 'IMAP', source: 'RFC 5530 §3 (IMAP response codes) and RFC 3501 §7.1',
  fields: [], pattern: /^[A-Z][A-Z-]{1,30}$/, inText: /^\S+ (?:NO|BAD) \[([A-Z][A-Z-]*)[\] ]/,
  speaks: { text: true },
  rows: {
    UNAVAILABLE: r(K.UNAVAILABLE), // "Temporary failure because a subsystem is down"
    AUTHENTICATIONFAILED: r(K.AUTH_FAILED),
    AUTHORIZATIONFAILED: r(K.FORBIDDEN),
    EXPIRED: r(K.CREDENTIAL_EXPIRED),
    PRIVACYREQUIRED: r(K.UNSUPPORTED),
    CONTACTADMIN: r(K.FORBIDDEN),
    NOPERM: r(K.FORBIDDEN), // "The access control system (e.g., ACL) does not permit this user to carry out an operation"
    INUSE: r(K.UNAVAILABLE),
    EXPUNGEISSUED: r(K.CONFLICT),
    CORRUPTION: r(K.RESOURCE_FAILURE),
    SERVERBUG: r(K.RESOURCE_FAILURE),
    CLIENTBUG: r(K.TOOL_BUG),
    CANNOT: r(K.BUSINESS_RULE, undefined, { refine: true }), // "violates some invariant of the server and can never succeed"
    LIMIT: r(K.QUOTA_EXHAUSTED),
    OVERQUOTA: r(K.QUOTA_EXHAUSTED), // "The user would be over quota after the operation"
    ALREADYEXISTS: r(K.ALREADY),
    NONEXISTENT: r(K.NOT_FOUND),
    TRYCREATE: r(K.NOT_FOUND, undefined, { source: 'RFC 3501 §7.1: the target mailbox does not exist; create it first' }),
    PARSE: r(K.TOOL_BUG, undefined, { source: 'RFC 3501 §7.1' }),
    BADCHARSET: r(K.INVALID_ARGUMENT, undefined, { source: 'RFC 3501 §7.1' }),
    'READ-ONLY': r(K.FORBIDDEN, undefined, { source: 'RFC 3501 §7.1' }),
  },
});

/** SFTP status codes (SSH_FXP_STATUS); an error shows it speaks SFTP by repeating the code's name. */
// prettier-ignore
export const SFTP = table({
  id: 'sftp', label: 'SFTP', source: 'draft-ietf-secsh-filexfer-02 §7 (SFTP version 3, codes 0–8) and -13 §9.1 (later versions)',
  pattern: /^\d{1,2}$/,
  speaks: { named: /\bsftp\b/, agree: true },
  rows: {
    2: r(K.NOT_FOUND, 'SSH_FX_NO_SUCH_FILE'),
    3: r(K.FORBIDDEN, 'SSH_FX_PERMISSION_DENIED'),
    4: r(K.UNSUPPORTED, 'SSH_FX_FAILURE', { what: 'the server refused the request without saying why; nothing says what to change' }),
    5: r(K.TOOL_BUG, 'SSH_FX_BAD_MESSAGE'),
    6: r(K.NOT_SENT, 'SSH_FX_NO_CONNECTION'),
    7: r(K.CONNECTION_LOST, 'SSH_FX_CONNECTION_LOST'),
    8: r(K.UNSUPPORTED, 'SSH_FX_OP_UNSUPPORTED'),
    10: r(K.NOT_FOUND, 'SSH_FX_NO_SUCH_PATH'),
    11: r(K.ALREADY, 'SSH_FX_FILE_ALREADY_EXISTS'),
    12: r(K.FORBIDDEN, 'SSH_FX_WRITE_PROTECT'),
    14: r(K.RESOURCE_FAILURE, 'SSH_FX_NO_SPACE_ON_FILESYSTEM'),
    15: r(K.QUOTA_EXHAUSTED, 'SSH_FX_QUOTA_EXCEEDED'),
    17: r(K.CONFLICT, 'SSH_FX_LOCK_CONFLICT'),
    18: r(K.PRECONDITION_FAILED, 'SSH_FX_DIR_NOT_EMPTY'),
    19: r(K.PRECONDITION_FAILED, 'SSH_FX_NOT_A_DIRECTORY'),
    20: r(K.INVALID_ARGUMENT, 'SSH_FX_INVALID_FILENAME'),
    24: r(K.PRECONDITION_FAILED, 'SSH_FX_FILE_IS_A_DIRECTORY'),
  },
});

/**
 * GraphQL error codes in a GraphQL response's `errors[].extensions.code` (GraphQL spec §7.1.2 "Errors": a map of
 * `extensions`), the codes Apollo Server documents; a code found there is GraphQL's.
 */
// prettier-ignore
export const GRAPHQL = table({
  id: 'graphql', label: 'GraphQL', source: 'GraphQL spec (October 2021) §7.1.2 "Errors"; Apollo Server docs, "Error handling" (built-in error codes)',
  fields: ['extensions.code', 'errors.0.extensions.code', 'response.errors.0.extensions.code'], pattern: /^[A-Z][A-Z_]{2,40}$/,
  speaks: { form: true },
  rows: {
    GRAPHQL_PARSE_FAILED: r(K.TOOL_BUG),
    GRAPHQL_VALIDATION_FAILED: r(K.TOOL_BUG),
    OPERATION_RESOLUTION_FAILURE: r(K.TOOL_BUG),
    BAD_REQUEST: r(K.TOOL_BUG),
    PERSISTED_QUERY_NOT_SUPPORTED: r(K.UNSUPPORTED),
    BAD_USER_INPUT: r(K.INVALID_ARGUMENT),
    UNAUTHENTICATED: r(K.AUTH_FAILED, undefined, { refine: true }),
    FORBIDDEN: r(K.FORBIDDEN),
    INTERNAL_SERVER_ERROR: r(K.SERVER_ERROR),
  },
});

/**
 * JSON-RPC 2.0 error codes (an MCP server's protocol errors: MCP spec 2025-11-25, "Tools → Error Handling"), read
 * from `rpcCode` (activities/mcp/call-error.ts) or the text's `MCP error -32602:` / `(result -32602)`: the code,
 * not the words around it ("Invalid arguments for tool read (result …)" is not a word about a result).
 */
// prettier-ignore
export const JSONRPC = table({
  id: 'jsonrpc', label: 'JSON-RPC', source: 'JSON-RPC 2.0 §5.1 "Error object"',
  fields: ['rpcCode'], pattern: /^-32\d{3}$/, inText: /(?:^MCP error |\((?:result|thrown) )(-32\d{3})\b/,
  speaks: { shape: [['rpcCode']], text: true },
  rows: {
    '-32700': r(K.TOOL_BUG, 'Parse error'),
    '-32600': r(K.TOOL_BUG, 'Invalid Request'),
    '-32601': r(K.UNKNOWN_OPERATION, 'Method not found'),
    '-32602': r(K.INVALID_ARGUMENT, 'Invalid params'),
  },
});

/** Redis error replies: the first word is the error's kind (RESP "Simple errors"). */
// prettier-ignore
export const RESP = table({
  id: 'redis', label: 'Redis', source: 'Redis docs, "Redis serialization protocol specification" (Simple errors) and the commands\' error replies',
  fields: [], pattern: /^[A-Z]{2,20}$/, inText: /^([A-Z]{2,20})(?:\s|$)/,
  speaks: { named: /^(?:reply error|error reply|simple error|blob error)$/, text: true }, // the reply's own form: a word in capitals first
  rows: {
    READONLY: r(K.UNAVAILABLE), // a write sent to a replica (a failover in progress): not applied
    LOADING: r(K.UNAVAILABLE), // the dataset is being loaded into memory
    BUSY: r(K.UNAVAILABLE), // a script or function is running; the command was not run
    MASTERDOWN: r(K.UNAVAILABLE),
    CLUSTERDOWN: r(K.UNAVAILABLE),
    TRYAGAIN: r(K.UNAVAILABLE),
    NOREPLICAS: r(K.UNAVAILABLE),
    OOM: r(K.UNAVAILABLE), // maxmemory reached: refused before it runs (Redis docs, "Key eviction", noeviction)
    EXECABORT: r(K.INVALID_ARGUMENT), // the transaction was discarded because of a bad command
    NOAUTH: r(K.AUTH_FAILED),
    WRONGPASS: r(K.AUTH_FAILED),
    NOPERM: r(K.FORBIDDEN),
    WRONGTYPE: r(K.TOOL_BUG),
    NOSCRIPT: r(K.TOOL_BUG),
    ERR: r(K.TOOL_BUG), // unknown command, wrong number of arguments, syntax error
  },
});

/** SQLite result codes (better-sqlite3, node-sqlite3; `node:sqlite` keeps the name in `errstr`): extended, then primary. */
// prettier-ignore
export const SQLITE = table({
  id: 'sqlite', label: 'SQLite', source: 'SQLite, "Result and Error Codes" (sqlite.org/rescode.html)',
  fields: ['code', 'errstr'], pattern: /^SQLITE_[A-Z_]{2,40}$/,
  keys: (code, node) => [constraintIn(code, node), code, code.split('_').slice(0, 2).join('_')],
  speaks: { form: true }, otherwise: r(K.SERVER_ERROR),
  rows: {
    SQLITE_CONSTRAINT_UNIQUE: r(K.CONFLICT),
    SQLITE_CONSTRAINT_PRIMARYKEY: r(K.CONFLICT),
    SQLITE_CONSTRAINT_NOTNULL: r(K.INVALID_ARGUMENT),
    SQLITE_CONSTRAINT_CHECK: r(K.RULE_VIOLATION),
    SQLITE_CONSTRAINT_FOREIGNKEY: r(K.PRECONDITION_FAILED),
    SQLITE_CONSTRAINT_TRIGGER: r(K.BUSINESS_RULE), // RAISE(ABORT, …) in a trigger
    SQLITE_CONSTRAINT_DATATYPE: r(K.INVALID_ARGUMENT), // STRICT tables
    SQLITE_CONSTRAINT: r(K.RULE_VIOLATION),
    SQLITE_BUSY_SNAPSHOT: r(K.ABORTED),
    SQLITE_BUSY: r(K.UNAVAILABLE), // another connection holds the lock; nothing was written
    SQLITE_LOCKED: r(K.UNAVAILABLE),
    SQLITE_INTERRUPT: r(K.SERVER_TIMEOUT), // sqlite3_interrupt(): the statement was rolled back
    SQLITE_NOMEM: r(K.UNAVAILABLE),
    SQLITE_READONLY: r(K.UNSUPPORTED),
    SQLITE_FULL: r(K.RESOURCE_FAILURE),
    SQLITE_IOERR: r(K.RESOURCE_FAILURE),
    SQLITE_CORRUPT: r(K.RESOURCE_FAILURE),
    SQLITE_NOTADB: r(K.RESOURCE_FAILURE),
    SQLITE_CANTOPEN: r(K.UNSUPPORTED),
    SQLITE_PERM: r(K.FORBIDDEN),
    SQLITE_AUTH: r(K.FORBIDDEN),
    SQLITE_MISMATCH: r(K.INVALID_ARGUMENT),
    SQLITE_TOOBIG: r(K.INVALID_ARGUMENT),
    SQLITE_RANGE: r(K.TOOL_BUG),
    SQLITE_ERROR: r(K.TOOL_BUG), // a syntax error, no such table or column
    SQLITE_MISUSE: r(K.TOOL_BUG),
    SQLITE_SCHEMA: r(K.ABORTED),
  },
});

/** The constraint node-sqlite3 names in the message of a primary `SQLITE_CONSTRAINT` (its type, never its values). */
function constraintIn(code: string, node: unknown): string | undefined {
  if (code !== 'SQLITE_CONSTRAINT') return undefined;
  const m = /\b(UNIQUE|PRIMARY KEY|NOT NULL|CHECK|FOREIGN KEY) constraint failed\b/.exec(
    readString(node, 'message') ?? '',
  );
  return m ? `SQLITE_CONSTRAINT_${m[1]!.replace(' ', '')}` : undefined;
}

/** MySQL server errors (its `ER_` names, or the number, then the SQLSTATE class it reports) and the client's. */
const ERRNO_NAMES: Readonly<Record<string, string>> = Object.freeze({ 1062: 'ER_DUP_ENTRY', 1213: 'ER_LOCK_DEADLOCK', 1205: 'ER_LOCK_WAIT_TIMEOUT', 1045: 'ER_ACCESS_DENIED_ERROR', 1040: 'ER_CON_COUNT_ERROR', 1048: 'ER_BAD_NULL_ERROR', 1146: 'ER_NO_SUCH_TABLE', 1064: 'ER_PARSE_ERROR', 1452: 'ER_NO_REFERENCED_ROW_2', 3819: 'ER_CHECK_CONSTRAINT_VIOLATED' }); // prettier-ignore
// prettier-ignore
export const MYSQL = table({
  id: 'mysql', label: 'MySQL', source: 'MySQL 8.0 Reference, "Server Error Message Reference"; mysql2 3.x lib/base/connection.js (client codes)',
  fields: ['code', 'errno'], pattern: /^(?:ER_[A-Z0-9_]{2,60}|(?:PROTOCOL|HANDSHAKE|POOL)_[A-Z_]{2,40}|\d{4})$/,
  keys: (code, node) => [ERRNO_NAMES[code] ?? code, `class ${(readString(node, 'sqlState') ?? '').slice(0, 2)}`],
  speaks: { shape: [['sqlState', 'errno'], ['fatal']] },
  otherwise: r(K.SERVER_ERROR),
  rows: {
    ER_DUP_ENTRY: r(K.CONFLICT), // 1062
    ER_DUP_KEY: r(K.CONFLICT), // 1022
    ER_DUP_UNIQUE: r(K.CONFLICT), // 1169
    ER_LOCK_DEADLOCK: r(K.ABORTED), // 1213: the transaction was rolled back
    ER_LOCK_WAIT_TIMEOUT: r(K.SERVER_TIMEOUT), // 1205: the statement was rolled back
    ER_LOCK_NOWAIT: r(K.SERVER_TIMEOUT), // 3572
    ER_QUERY_TIMEOUT: r(K.SERVER_TIMEOUT), // 3024: max_execution_time
    ER_QUERY_INTERRUPTED: r(K.SERVER_TIMEOUT), // 1317: KILL QUERY
    ER_ACCESS_DENIED_ERROR: r(K.AUTH_FAILED), // 1045: wrong user or password
    ER_ACCESS_DENIED_NO_PASSWORD_ERROR: r(K.AUTH_FAILED), // 1698
    ER_DBACCESS_DENIED_ERROR: r(K.FORBIDDEN), // 1044
    ER_TABLEACCESS_DENIED_ERROR: r(K.FORBIDDEN), // 1142
    ER_COLUMNACCESS_DENIED_ERROR: r(K.FORBIDDEN), // 1143
    ER_SPECIFIC_ACCESS_DENIED_ERROR: r(K.FORBIDDEN), // 1227
    ER_CON_COUNT_ERROR: r(K.UNAVAILABLE, undefined, NOT_SENT), // 1040: too many connections
    ER_USER_LIMIT_REACHED: r(K.UNAVAILABLE, undefined, NOT_SENT), // 1226
    ER_TOO_MANY_USER_CONNECTIONS: r(K.UNAVAILABLE, undefined, NOT_SENT), // 1203
    ER_OPTION_PREVENTS_STATEMENT: r(K.UNAVAILABLE), // 1290: --read-only
    ER_SERVER_SHUTDOWN: r(K.CONNECTION_LOST), // 1053
    ER_BAD_NULL_ERROR: r(K.INVALID_ARGUMENT), // 1048
    ER_DATA_TOO_LONG: r(K.INVALID_ARGUMENT), // 1406
    ER_TRUNCATED_WRONG_VALUE: r(K.INVALID_ARGUMENT), // 1292
    ER_TRUNCATED_WRONG_VALUE_FOR_FIELD: r(K.INVALID_ARGUMENT), // 1366
    ER_WARN_DATA_OUT_OF_RANGE: r(K.INVALID_ARGUMENT), // 1264
    ER_NO_DEFAULT_FOR_FIELD: r(K.INVALID_ARGUMENT), // 1364
    ER_CHECK_CONSTRAINT_VIOLATED: r(K.RULE_VIOLATION), // 3819
    ER_NO_REFERENCED_ROW_2: r(K.PRECONDITION_FAILED), // 1452: the referenced row is missing
    ER_ROW_IS_REFERENCED_2: r(K.PRECONDITION_FAILED), // 1451: other rows still reference it
    ER_SIGNAL_EXCEPTION: r(K.BUSINESS_RULE), // 1644: SIGNAL in a procedure or trigger
    ER_NO_SUCH_TABLE: r(K.TOOL_BUG), // 1146
    ER_BAD_FIELD_ERROR: r(K.TOOL_BUG), // 1054
    ER_PARSE_ERROR: r(K.TOOL_BUG), // 1064
    ER_BAD_DB_ERROR: r(K.TOOL_BUG), // 1049
    ER_NET_PACKET_TOO_LARGE: r(K.INVALID_ARGUMENT), // 1153
    ER_RECORD_FILE_FULL: r(K.RESOURCE_FAILURE), // 1114
    ER_DISK_FULL: r(K.RESOURCE_FAILURE), // 1021
    ER_NOT_SUPPORTED_YET: r(K.UNSUPPORTED), // 1235
    PROTOCOL_CONNECTION_LOST: r(K.CONNECTION_LOST),
    PROTOCOL_SEQUENCE_TIMEOUT: r(K.CLIENT_TIMEOUT), // the query's `timeout` option: sent, may still run
    PROTOCOL_ENQUEUE_AFTER_FATAL_ERROR: r(K.NOT_SENT, undefined, NOT_SENT),
    PROTOCOL_ENQUEUE_AFTER_QUIT: r(K.NOT_SENT, undefined, NOT_SENT),
    PROTOCOL_ENQUEUE_HANDSHAKE_TWICE: r(K.TOOL_BUG),
    HANDSHAKE_NO_SSL_SUPPORT: r(K.UNSUPPORTED, undefined, NOT_SENT),
    HANDSHAKE_SSL_ERROR: r(K.UNSUPPORTED, undefined, NOT_SENT),
    POOL_NONEONLINE: r(K.NOT_SENT, undefined, NOT_SENT),
    // SQLSTATE classes, as MySQL reports them, for server errors not named above.
    'class 08': r(K.CONNECTION_LOST),
    'class 22': r(K.INVALID_ARGUMENT),
    'class 23': r(K.RULE_VIOLATION),
    'class 28': r(K.AUTH_FAILED),
    'class 40': r(K.ABORTED),
    'class 42': r(K.TOOL_BUG),
    'class HY': r(K.SERVER_ERROR),
  },
});

/**
 * MongoDB: the error labels of the drivers' specifications first (Transactions, Retryable Writes), then the server's
 * code, then the driver's class; `errmsg` and `keyValue` carry values and are never read.
 */
const labelsOf = (node: unknown): string[] => {
  const labels = readProp(node, 'errorLabels');
  return Array.isArray(labels) ? labels.filter((l): l is string => typeof l === 'string').slice(0, 8) : [];
};
// prettier-ignore
export const MONGODB = table({
  id: 'mongodb', label: 'MongoDB', source: 'MongoDB server error codes (src/mongo/base/error_codes.yml); Node driver src/error.ts (labels, classes)',
  fields: ['code', 'name'], pattern: /^(?:\d{1,5}|Mongo[A-Za-z]{2,60})$/,
  keys: (code, node) => [...labelsOf(node), code, readString(node, 'name')],
  speaks: { named: /^mongo\b/ }, otherwise: r(K.SERVER_ERROR),
  rows: {
    UnknownTransactionCommitResult: r(K.OUTCOME_UNKNOWN, 'UnknownTransactionCommitResult'),
    TransientTransactionError: r(K.ABORTED, 'TransientTransactionError'), // the whole transaction may be retried
    NoWritesPerformed: r(K.UNAVAILABLE, 'NoWritesPerformed'),
    2: r(K.INVALID_ARGUMENT, 'BadValue'),
    9: r(K.INVALID_ARGUMENT, 'FailedToParse'),
    11: r(K.FORBIDDEN, 'UserNotFound'),
    13: r(K.FORBIDDEN, 'Unauthorized'),
    14: r(K.INVALID_ARGUMENT, 'TypeMismatch'),
    18: r(K.AUTH_FAILED, 'AuthenticationFailed'),
    26: r(K.NOT_FOUND, 'NamespaceNotFound'),
    50: r(K.SERVER_TIMEOUT, 'MaxTimeMSExpired'),
    64: r(K.OUTCOME_UNKNOWN, 'WriteConcernTimeout'), // applied on the primary, not yet replicated
    91: r(K.CONNECTION_LOST, 'ShutdownInProgress'),
    112: r(K.ABORTED, 'WriteConflict'),
    121: r(K.RULE_VIOLATION, 'DocumentValidationFailure'),
    189: r(K.CONNECTION_LOST, 'PrimarySteppedDown'),
    251: r(K.ABORTED, 'NoSuchTransaction'),
    262: r(K.SERVER_TIMEOUT, 'ExceededTimeLimit'),
    11000: r(K.CONFLICT, 'DuplicateKey'),
    11600: r(K.CONNECTION_LOST, 'InterruptedAtShutdown'),
    11602: r(K.CONNECTION_LOST, 'InterruptedDueToReplStateChange'),
    10107: r(K.UNAVAILABLE, 'NotWritablePrimary'), // refused: a write sent to a secondary
    13435: r(K.UNAVAILABLE, 'NotPrimaryNoSecondaryOk'),
    13436: r(K.UNAVAILABLE, 'NotPrimaryOrSecondary'),
    MongoServerSelectionError: r(K.NOT_SENT, 'server_selection', NOT_SENT),
    MongoNotConnectedError: r(K.NOT_SENT, 'not_connected', NOT_SENT),
    MongoTopologyClosedError: r(K.NOT_SENT, 'topology_closed', NOT_SENT),
    MongoClientClosedError: r(K.NOT_SENT, 'client_closed', NOT_SENT),
    MongoPoolClearedError: r(K.NOT_SENT, 'pool_cleared', NOT_SENT),
    MongoWaitQueueTimeoutError: r(K.CONNECT_TIMEOUT, 'wait_queue_timeout', NOT_SENT),
    MongoNetworkTimeoutError: r(K.CLIENT_TIMEOUT, 'network_timeout'),
    MongoOperationTimeoutError: r(K.CLIENT_TIMEOUT, 'operation_timeout'),
    MongoNetworkError: r(K.CONNECTION_LOST, 'network_error'),
    MongoWriteConcernError: r(K.OUTCOME_UNKNOWN, 'write_concern'),
    MongoInvalidArgumentError: r(K.TOOL_BUG, 'invalid_argument'),
    MongoParseError: r(K.TOOL_BUG, 'parse_error'),
    MongoCompatibilityError: r(K.UNSUPPORTED, 'compatibility'),
    MongoMissingCredentialsError: r(K.AUTH_FAILED, 'missing_credentials', NOT_SENT),
    MongoExpiredSessionError: r(K.TOOL_BUG, 'expired_session'),
    MongoTransactionError: r(K.TOOL_BUG, 'transaction_misuse'),
  },
});

/**
 * Kafka protocol error codes (a broker's answer to a produce, fetch or admin request); an error shows it speaks
 * Kafka by its name (KafkaJS `KafkaJSProtocolError`, whose `type` repeats the code's name).
 */
// prettier-ignore
export const KAFKA = table({
  id: 'kafka', label: 'Kafka', source: 'Apache Kafka protocol guide, "Error Codes" (kafka.apache.org/protocol#protocol_error_codes)',
  pattern: /^-?\d{1,3}$/,
  speaks: { named: /\bkafka\b/, agree: true }, // librdkafka's words repeat the name ("Broker: Topic authorization failed")
  rows: {
    '-1': r(K.SERVER_ERROR, 'UNKNOWN_SERVER_ERROR'),
    1: r(K.INVALID_ARGUMENT, 'OFFSET_OUT_OF_RANGE'),
    2: r(K.UNAVAILABLE, 'CORRUPT_MESSAGE'), // failed its CRC on the way: rejected, retriable
    3: r(K.NOT_FOUND, 'UNKNOWN_TOPIC_OR_PARTITION'),
    5: r(K.UNAVAILABLE, 'LEADER_NOT_AVAILABLE'), // a leader election: rejected, retriable
    6: r(K.UNAVAILABLE, 'NOT_LEADER_OR_FOLLOWER'),
    7: r(K.CLIENT_TIMEOUT, 'REQUEST_TIMED_OUT'), // the produce may still have been written
    8: r(K.UNAVAILABLE, 'BROKER_NOT_AVAILABLE'),
    10: r(K.INVALID_ARGUMENT, 'MESSAGE_TOO_LARGE'),
    13: r(K.CONNECTION_LOST, 'NETWORK_EXCEPTION'),
    14: r(K.UNAVAILABLE, 'COORDINATOR_LOAD_IN_PROGRESS'),
    15: r(K.UNAVAILABLE, 'COORDINATOR_NOT_AVAILABLE'),
    16: r(K.UNAVAILABLE, 'NOT_COORDINATOR'),
    17: r(K.INVALID_ARGUMENT, 'INVALID_TOPIC_EXCEPTION'),
    18: r(K.INVALID_ARGUMENT, 'RECORD_LIST_TOO_LARGE'),
    19: r(K.UNAVAILABLE, 'NOT_ENOUGH_REPLICAS'), // "Messages are rejected since there are fewer in-sync replicas than required"
    20: r(K.OUTCOME_UNKNOWN, 'NOT_ENOUGH_REPLICAS_AFTER_APPEND'), // "Messages are written to the log, but to fewer in-sync replicas than required"
    21: r(K.TOOL_BUG, 'INVALID_REQUIRED_ACKS'),
    29: r(K.FORBIDDEN, 'TOPIC_AUTHORIZATION_FAILED'),
    30: r(K.FORBIDDEN, 'GROUP_AUTHORIZATION_FAILED'),
    31: r(K.FORBIDDEN, 'CLUSTER_AUTHORIZATION_FAILED'),
    35: r(K.UNSUPPORTED, 'UNSUPPORTED_VERSION'),
    36: r(K.ALREADY, 'TOPIC_ALREADY_EXISTS'),
    42: r(K.TOOL_BUG, 'INVALID_REQUEST'),
    44: r(K.POLICY_DENIED, 'POLICY_VIOLATION'),
    58: r(K.AUTH_FAILED, 'SASL_AUTHENTICATION_FAILED'),
    87: r(K.INVALID_ARGUMENT, 'INVALID_RECORD'),
    89: r(K.RATE_LIMITED, 'THROTTLING_QUOTA_EXCEEDED'),
  },
});

/** CQL native protocol error codes (Cassandra, ScyllaDB), as cassandra-driver's `ResponseError.code` carries them. */
// prettier-ignore
export const CQL = table({
  id: 'cql', aliases: ['cassandra'], label: 'CQL', source: 'Apache Cassandra native_protocol_v4.spec §9 "Error codes"', pattern: /^\d{1,5}$/, speaks: { named: /^response error$/ },
  rows: {
    [0x0000]: r(K.SERVER_ERROR, 'Server_error'), [0x000a]: r(K.TOOL_BUG, 'Protocol_error'), [0x0100]: r(K.AUTH_FAILED, 'Bad_credentials'),
    [0x1000]: r(K.UNAVAILABLE, 'Unavailable'), // too few live replicas: the coordinator did not try
    [0x1001]: r(K.UNAVAILABLE, 'Overloaded'), [0x1002]: r(K.UNAVAILABLE, 'Is_bootstrapping'), [0x1300]: r(K.SERVER_ERROR, 'Read_failure'),
    [0x1100]: r(K.CLIENT_TIMEOUT, 'Write_timeout'), [0x1200]: r(K.CLIENT_TIMEOUT, 'Read_timeout'), // replicas may have applied it
    [0x1500]: r(K.OUTCOME_UNKNOWN, 'Write_failure'), // some replicas failed, others may have applied it
    [0x2000]: r(K.INVALID_ARGUMENT, 'Syntax_error'), [0x2100]: r(K.FORBIDDEN, 'Unauthorized'), [0x2200]: r(K.INVALID_ARGUMENT, 'Invalid'),
    [0x2300]: r(K.UNSUPPORTED, 'Config_error'), [0x2400]: r(K.ALREADY, 'Already_exists'),
  },
});

/** POP3 extended response codes, in a "-ERR [CODE] …" reply. */
// prettier-ignore
export const POP3 = table({
  id: 'pop3', label: 'POP3', source: 'RFC 2449 §8 (IN-USE, LOGIN-DELAY) and RFC 3206 (SYS/TEMP, SYS/PERM, AUTH)', fields: [], pattern: /^[A-Z][A-Z/-]{1,20}$/, inText: /^-ERR \[([A-Z][A-Z/-]*)\]/, speaks: { text: true },
  rows: { 'IN-USE': r(K.UNAVAILABLE), 'LOGIN-DELAY': r(K.RATE_LIMITED), 'SYS/TEMP': r(K.UNAVAILABLE), 'SYS/PERM': r(K.RESOURCE_FAILURE), AUTH: r(K.AUTH_FAILED) },
});

/** XMPP stanza error conditions (@xmpp/client's `StanzaError.condition`). */
// prettier-ignore
export const XMPP = table({
  id: 'xmpp', label: 'XMPP', source: 'RFC 6120 §8.3.3 "Defined Stanza Error Conditions"', fields: ['condition'], pattern: /^[a-z]+(?:-[a-z]+){0,3}$/, speaks: { named: /^(?:stanza|stream) error$/ },
  rows: {
    'bad-request': r(K.INVALID_ARGUMENT), 'jid-malformed': r(K.INVALID_ARGUMENT), 'not-acceptable': r(K.RULE_VIOLATION), conflict: r(K.CONFLICT),
    forbidden: r(K.FORBIDDEN), 'not-allowed': r(K.FORBIDDEN), 'subscription-required': r(K.FORBIDDEN), 'policy-violation': r(K.POLICY_DENIED),
    'not-authorized': r(K.AUTH_FAILED), 'item-not-found': r(K.NOT_FOUND), gone: r(K.NOT_FOUND), 'remote-server-not-found': r(K.NOT_FOUND),
    'resource-constraint': r(K.UNAVAILABLE), 'recipient-unavailable': r(K.UNAVAILABLE), // type "wait": not processed, retry later
    'remote-server-timeout': r(K.CLIENT_TIMEOUT), 'internal-server-error': r(K.SERVER_ERROR), 'undefined-condition': r(K.SERVER_ERROR),
    'feature-not-implemented': r(K.UNSUPPORTED), 'service-unavailable': r(K.UNSUPPORTED), // type "cancel": do not retry
  },
});

/** SQL Server error numbers (tedious's and mssql's `RequestError.number`, beside its `state` and `class`). */
// prettier-ignore
export const MSSQL = table({
  id: 'mssql', aliases: ['tds'], label: 'SQL Server', source: 'Microsoft Learn, "Database engine events and errors" (by number)', fields: ['number'], pattern: /^\d{1,6}$/, speaks: { shape: [['number', 'state', 'class']] },
  rows: {
    229: r(K.FORBIDDEN, 'permission_denied'), 230: r(K.FORBIDDEN, 'column_permission_denied'), 18456: r(K.AUTH_FAILED, 'login_failed'),
    515: r(K.INVALID_ARGUMENT, 'null_not_allowed'), 8152: r(K.INVALID_ARGUMENT, 'string_truncated'), 2628: r(K.INVALID_ARGUMENT, 'string_truncated'),
    547: r(K.PRECONDITION_FAILED, 'constraint_conflict'), 2601: r(K.CONFLICT, 'duplicate_key'), 2627: r(K.CONFLICT, 'duplicate_key'),
    1205: r(K.ABORTED, 'deadlock_victim'), 1222: r(K.SERVER_TIMEOUT, 'lock_request_timeout'), // rolled back: "Rerun the transaction"
    40501: r(K.UNAVAILABLE, 'service_busy'), 40613: r(K.UNAVAILABLE, 'database_unavailable'), // Azure SQL transient errors
  },
});

/** NTSTATUS values by name, as an SMB client's error `code` carries them. */
// prettier-ignore
export const NTSTATUS = table({
  id: 'ntstatus', aliases: ['smb'], label: 'SMB', source: 'MS-ERREF §2.3.1 "NTSTATUS Values"', pattern: /^STATUS_[A-Z0-9_]{2,60}$/, speaks: { form: true },
  rows: {
    STATUS_ACCESS_DENIED: r(K.FORBIDDEN), STATUS_LOGON_FAILURE: r(K.AUTH_FAILED), STATUS_PASSWORD_EXPIRED: r(K.CREDENTIAL_EXPIRED),
    STATUS_OBJECT_NAME_NOT_FOUND: r(K.NOT_FOUND), STATUS_OBJECT_PATH_NOT_FOUND: r(K.NOT_FOUND), STATUS_BAD_NETWORK_NAME: r(K.NOT_FOUND),
    STATUS_OBJECT_NAME_COLLISION: r(K.ALREADY), STATUS_DISK_FULL: r(K.QUOTA_EXHAUSTED), STATUS_IO_TIMEOUT: r(K.CLIENT_TIMEOUT),
    STATUS_SHARING_VIOLATION: r(K.UNAVAILABLE), STATUS_FILE_LOCK_CONFLICT: r(K.UNAVAILABLE), // another open holds it: refused
    STATUS_FILE_IS_A_DIRECTORY: r(K.INVALID_ARGUMENT), STATUS_NOT_A_DIRECTORY: r(K.INVALID_ARGUMENT),
  },
});

/** The protocols' tables, in the order an error is read in them (a table claims only what its facts say is its). */
export const PROTOCOL_TABLES = [
  MYSQL, // first: a MySQL error carries a sqlState too, which SQLSTATE would claim
  SQLSTATE,
  SQLITE,
  MONGODB,
  RESP,
  GRPC,
  SMTP,
  FTP,
  LDAP,
  MQTT,
  AMQP,
  IMAP,
  SFTP,
  GRAPHQL,
  JSONRPC,
  KAFKA,
  CQL,
  POP3,
  XMPP,
  MSSQL,
  NTSTATUS,
  ERRNO,
] as const;
