/**
 * Client libraries' own codes and fixed messages, as code tables (recovery/classify/protocols/table.ts): what a
 * library raises of its own, apart from the protocol it speaks — a pool that handed out no connection, a client
 * already closed, an SDK's timeout. A fixed message is a fact in text form: the library writes it and nothing else.
 * Pure: data.
 */
import { ErrorKind as K } from '../kinds';
import { hasOwn, isObjectLike, readProp, readString } from '../safe';
import { NOT_SENT, r, table } from '../protocols/table';
import { fieldIssue, identifier } from './names';

/** A library's fixed message: the whole message, as the library writes it. */
const MESSAGE = /^[^\n]{3,120}$/;

/** Prisma Client: `PrismaClientKnownRequestError.code` (`P2002`), `…InitializationError.errorCode`, the classes. */
// prettier-ignore
export const PRISMA = table({
  id: 'prisma', label: 'Prisma', source: 'Prisma docs, "Error message reference" (orm/reference/error-reference)',
  fields: ['code', 'errorCode', 'name'], pattern: /^(?:P\d{4}|PrismaClient[A-Za-z]{2,40})$/,
  speaks: { named: /^prisma client\b/, shape: [['clientVersion']] }, otherwise: r(K.SERVER_ERROR),
  more: (node, row, code, label) => {
    const meta = readProp(node, 'meta');
    const target = readProp(meta, 'target');
    const field = identifier(Array.isArray(target) ? target[0] : target) ?? identifier(readProp(meta, 'column_name'));
    const invalid = row.kind === K.INVALID_ARGUMENT || row.kind === K.RULE_VIOLATION;
    return {
      label: field ? `${label} (${field})` : label,
      ...(invalid && field ? { issues: [fieldIssue([field], `a valid value (${row.name ?? code})`)] } : {}),
    };
  },
  rows: {
    P1000: r(K.AUTH_FAILED, 'authentication_failed', NOT_SENT),
    P1001: r(K.NOT_SENT, 'cannot_reach_database', NOT_SENT),
    P1002: r(K.CONNECT_TIMEOUT, 'database_timeout', NOT_SENT),
    P1003: r(K.TOOL_BUG, 'database_does_not_exist'),
    P1008: r(K.CLIENT_TIMEOUT, 'operations_timed_out'),
    P1010: r(K.FORBIDDEN, 'access_denied'),
    P1011: r(K.UNSUPPORTED, 'tls_error', NOT_SENT),
    P1017: r(K.CONNECTION_LOST, 'server_closed_connection'),
    P2000: r(K.INVALID_ARGUMENT, 'value_too_long'),
    P2001: r(K.NOT_FOUND, 'record_not_found'),
    P2002: r(K.CONFLICT, 'unique_constraint_failed'),
    P2003: r(K.PRECONDITION_FAILED, 'foreign_key_constraint_failed'),
    P2004: r(K.RULE_VIOLATION, 'constraint_failed'),
    P2005: r(K.INVALID_ARGUMENT, 'invalid_stored_value'),
    P2006: r(K.INVALID_ARGUMENT, 'invalid_value'),
    P2007: r(K.INVALID_ARGUMENT, 'data_validation_error'),
    P2011: r(K.INVALID_ARGUMENT, 'null_constraint_violation'),
    P2012: r(K.INVALID_ARGUMENT, 'missing_required_value'),
    P2013: r(K.INVALID_ARGUMENT, 'missing_required_argument'),
    P2014: r(K.PRECONDITION_FAILED, 'required_relation_violation'),
    P2015: r(K.NOT_FOUND, 'related_record_not_found'),
    P2018: r(K.NOT_FOUND, 'connected_records_not_found'),
    P2020: r(K.INVALID_ARGUMENT, 'value_out_of_range'),
    P2021: r(K.TOOL_BUG, 'table_does_not_exist'),
    P2022: r(K.TOOL_BUG, 'column_does_not_exist'),
    P2024: r(K.CONNECT_TIMEOUT, 'pool_timeout', NOT_SENT),
    P2025: r(K.NOT_FOUND, 'record_to_update_not_found'),
    P2028: r(K.ABORTED, 'transaction_api_error'),
    P2034: r(K.ABORTED, 'write_conflict_or_deadlock'),
    P2037: r(K.UNAVAILABLE, 'too_many_connections', NOT_SENT),
    PrismaClientValidationError: r(K.TOOL_BUG, 'validation_error'), // the query the tool built is invalid
    PrismaClientRustPanicError: r(K.RESOURCE_FAILURE, 'engine_panic'),
    PrismaClientUnknownRequestError: r(K.SERVER_ERROR, 'unknown_request_error'),
    PrismaClientInitializationError: r(K.NOT_SENT, 'initialization_error', NOT_SENT),
  },
});

/**
 * node-postgres's own errors, which carry no code, by their message. "timeout expired" is read only when the tool
 * names `postgres`: other libraries write it too, and then it may have been sent.
 */
// prettier-ignore
export const PG_CLIENT = table({
  id: 'postgres', label: 'PostgreSQL client', source: 'node-postgres 8.x lib/client.js and pg-pool index.js', showCode: false,
  fields: ['message'], pattern: MESSAGE, speaks: { test: (node) => readProp(node, 'code') === undefined },
  rows: {
    'Connection terminated unexpectedly': r(K.CONNECTION_LOST, 'connection_terminated'),
    'Connection terminated': r(K.CONNECTION_LOST, 'connection_terminated'), // client.end() during a query
    'Query read timeout': r(K.CLIENT_TIMEOUT, 'query_timeout'), // query_timeout: the query was sent, may still run
    'timeout expired': r(K.CONNECT_TIMEOUT, 'connection_timeout', { ...NOT_SENT, declaredOnly: true }), // connectionTimeoutMillis
    'timeout exceeded when trying to connect': r(K.CONNECT_TIMEOUT, 'pool_acquire_timeout', NOT_SENT),
    'Connection terminated due to connection timeout': r(K.CONNECT_TIMEOUT, 'connection_timeout', NOT_SENT),
    'Client has encountered a connection error and is not queryable': r(K.NOT_SENT, 'client_not_queryable', NOT_SENT),
    'Client was closed and is not queryable': r(K.NOT_SENT, 'client_closed', NOT_SENT),
    'Cannot use a pool after calling end on the pool': r(K.TOOL_BUG, 'pool_ended'),
    'Client has already been connected. You cannot reuse a client.': r(K.TOOL_BUG, 'client_reused'),
    'The server does not support SSL connections': r(K.UNSUPPORTED, 'ssl_not_supported', NOT_SENT),
  },
});

/** mysql2's pool errors, which carry no code, by their message. */
// prettier-ignore
export const MYSQL_POOL = table({
  id: 'mysql', label: 'MySQL client', source: 'mysql2 3.x lib/base/pool.js', showCode: false,
  fields: ['message'], pattern: MESSAGE, speaks: { test: (node) => readProp(node, 'code') === undefined },
  rows: {
    'No connections available.': r(K.CONNECT_TIMEOUT, 'pool_exhausted', NOT_SENT),
    'Queue limit reached.': r(K.CONNECT_TIMEOUT, 'pool_queue_limit', NOT_SENT),
    'Pool is closed.': r(K.TOOL_BUG, 'pool_closed'),
  },
});

/** ioredis's and node-redis's own errors, by message (or class), for a lost or closed connection. */
// prettier-ignore
export const REDIS_CLIENT = table({
  id: 'redis', label: 'Redis client', source: 'ioredis lib/Redis.ts, lib/Command.ts, lib/errors; node-redis packages/client/lib/errors.ts', showCode: false,
  fields: ['name', 'message'], pattern: MESSAGE,
  speaks: { named: /^(?:error|max retries per request error|socket closed unexpectedly error|client closed error)$/ },
  rows: {
    MaxRetriesPerRequestError: r(K.CONNECTION_LOST, 'MaxRetriesPerRequestError'), // commands in flight are re-queued: one may have been sent
    'Connection is closed.': r(K.CONNECTION_LOST, 'connection_closed'), // in flight when it closed, or issued after
    "Stream isn't writeable and enableOfflineQueue options is false": r(K.NOT_SENT, 'offline', NOT_SENT),
    'Command timed out': r(K.CLIENT_TIMEOUT, 'command_timeout'), // ioredis commandTimeout
    'Socket closed unexpectedly': r(K.CONNECTION_LOST, 'socket_closed'),
    'The client is closed': r(K.NOT_SENT, 'client_closed', NOT_SENT),
    'The client is offline': r(K.NOT_SENT, 'client_offline', NOT_SENT),
    'Connection timeout': r(K.CONNECT_TIMEOUT, 'connection_timeout', NOT_SENT),
  },
});

/** openai's and @anthropic-ai/sdk's errors without an answer (an `APIError` whose `status` is unset), by message. */
// prettier-ignore
export const LLM_SDK = table({
  id: 'openai', aliases: ['anthropic'], label: 'OpenAI SDK', source: 'openai-node and anthropic-sdk-typescript src/core/error.ts (APIConnectionError and subclasses)', showCode: false,
  fields: ['message'], pattern: MESSAGE,
  speaks: { test: (node) => ['status', 'headers', 'error'].every((k) => hasOwn(node, k)) && readProp(node, 'status') === undefined },
  more: (node, row) => ({ label: `${hasOwn(node, 'apiMessage') || hasOwn(node, 'workspaceID') ? 'Anthropic' : 'OpenAI'} SDK ${row.name}` }),
  rows: {
    'Request timed out.': r(K.CLIENT_TIMEOUT, 'APIConnectionTimeoutError'),
    'Connection error.': r(K.CONNECTION_LOST, 'APIConnectionError'),
    'Request was aborted.': r(K.CLIENT_TIMEOUT, 'APIUserAbortError'),
  },
});

/** openai's parse helpers: a completion cut by its length limit or its content filter is no usable answer. */
// prettier-ignore
export const LLM_FINISH = table({
  id: 'openai', label: 'OpenAI SDK', source: 'openai-node src/error.ts (LengthFinishReasonError, ContentFilterFinishReasonError)', showCode: false,
  fields: ['message'], pattern: MESSAGE, speaks: { form: true },
  rows: {
    'Could not parse response content as the length limit was reached': r(K.INVALID_RESULT, 'LengthFinishReasonError'),
    'Could not parse response content as the request was rejected by the content filter': r(K.INVALID_RESULT, 'ContentFilterFinishReasonError'),
  },
});

/** axios's own codes for a request without an answer (an answer is read as HTTP). */
// prettier-ignore
export const AXIOS = table({
  id: 'axios', label: 'axios', source: 'axios README, "Error Types" (AxiosError codes); axios lib/core/AxiosError.js',
  pattern: /^[A-Z_]{4,40}$/, speaks: { test: (node) => readProp(node, 'isAxiosError') === true && !isObjectLike(readProp(node, 'response')) },
  rows: {
    ECONNABORTED: r(K.CLIENT_TIMEOUT), // `timeout` elapsed (or aborted) after the request was sent
    ETIMEDOUT: r(K.CLIENT_TIMEOUT), // the same with transitional.clarifyTimeoutError
    ERR_CANCELED: r(K.CLIENT_TIMEOUT), // an AbortSignal or CancelToken: the moment is unknown
    ERR_NETWORK: r(K.CONNECTION_LOST),
    ERR_FR_TOO_MANY_REDIRECTS: r(K.UNSUPPORTED), // a redirect loop on the server's side
    ERR_BAD_RESPONSE: r(K.INVALID_RESULT), // e.g. maxContentLength exceeded, an unparseable answer
    ERR_BAD_OPTION: r(K.TOOL_BUG),
    ERR_BAD_OPTION_VALUE: r(K.TOOL_BUG),
    ERR_INVALID_URL: r(K.TOOL_BUG),
    ERR_NOT_SUPPORT: r(K.TOOL_BUG),
    ERR_DEPRECATED: r(K.TOOL_BUG),
  },
});

/**
 * A `SyntaxError` of `JSON.parse` (`res.json()` in undici and node-fetch raises it): the call returned and its answer
 * is not a usable fact. A `SyntaxError` about something else (a module that does not link) is the tool's own code.
 */
const JSON_MESSAGE =
  /\bJSON\b|^Unexpected (?:token|end of input|non-whitespace)|^Bad control character|^Expected (?:property name|',' or|double-quoted)/;
// prettier-ignore
export const JSON_PARSE = table({
  id: 'node', label: 'the result is not valid JSON', showCode: false, source: 'ECMA-262 §25.5.1 JSON.parse and V8\'s messages ("… is not valid JSON", "Unexpected end of JSON input")',
  fields: ['name'], pattern: /^SyntaxError$/,
  speaks: { test: (node) => JSON_MESSAGE.test(readString(node, 'message') ?? '') },
  rows: { SyntaxError: r(K.INVALID_RESULT, '(SyntaxError)') },
});

/** The libraries' tables, in the order an error is read in them. */
export const LIBRARY_TABLES = [
  PRISMA,
  PG_CLIENT,
  MYSQL_POOL,
  REDIS_CLIENT,
  LLM_SDK,
  LLM_FINISH,
  AXIOS,
  JSON_PARSE,
] as const;
