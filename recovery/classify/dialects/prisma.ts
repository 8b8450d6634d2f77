/**
 * Prisma Client errors: `PrismaClientKnownRequestError` (`code: 'P2002'`, `meta`, `clientVersion`),
 * `PrismaClientInitializationError` (`errorCode`), `PrismaClientValidationError`, `PrismaClientRustPanicError`,
 * `PrismaClientUnknownRequestError`. A field comes from `meta.target` (P2002) or `meta.column_name` (P2000);
 * `meta` values are never read beyond identifiers.
 * Pure: no I/O.
 */
import { asArray, readProp, readString } from '../safe';
import { Dialect, ErrorKind as K, own, rowsFrom, type DialectReader, type DialectRow } from './kinds';
import { fieldIssue, identifier } from './names';

const pr = rowsFrom('Prisma docs, "Error message reference" (orm/reference/error-reference)');

/** Prisma error codes → row. */
// prettier-ignore
export const PRISMA_CODES: Readonly<Record<string, DialectRow>> = Object.freeze({
  P1000: pr(K.AUTH_FAILED, 'authentication_failed', 'not_sent'),
  P1001: pr(K.NOT_SENT, 'cannot_reach_database', 'not_sent'),
  P1002: pr(K.CONNECT_TIMEOUT, 'database_timeout', 'not_sent'),
  P1003: pr(K.TOOL_BUG, 'database_does_not_exist'),
  P1008: pr(K.CLIENT_TIMEOUT, 'operations_timed_out'),
  P1010: pr(K.FORBIDDEN, 'access_denied'),
  P1011: pr(K.UNSUPPORTED, 'tls_error', 'not_sent'),
  P1017: pr(K.CONNECTION_LOST, 'server_closed_connection'),
  P2000: pr(K.INVALID_ARGUMENT, 'value_too_long'),
  P2001: pr(K.NOT_FOUND, 'record_not_found'),
  P2002: pr(K.CONFLICT, 'unique_constraint_failed'),
  P2003: pr(K.PRECONDITION_FAILED, 'foreign_key_constraint_failed'),
  P2004: pr(K.RULE_VIOLATION, 'constraint_failed'),
  P2005: pr(K.INVALID_ARGUMENT, 'invalid_stored_value'),
  P2006: pr(K.INVALID_ARGUMENT, 'invalid_value'),
  P2007: pr(K.INVALID_ARGUMENT, 'data_validation_error'),
  P2011: pr(K.INVALID_ARGUMENT, 'null_constraint_violation'),
  P2012: pr(K.INVALID_ARGUMENT, 'missing_required_value'),
  P2013: pr(K.INVALID_ARGUMENT, 'missing_required_argument'),
  P2014: pr(K.PRECONDITION_FAILED, 'required_relation_violation'),
  P2015: pr(K.NOT_FOUND, 'related_record_not_found'),
  P2018: pr(K.NOT_FOUND, 'connected_records_not_found'),
  P2020: pr(K.INVALID_ARGUMENT, 'value_out_of_range'),
  P2021: pr(K.TOOL_BUG, 'table_does_not_exist'),
  P2022: pr(K.TOOL_BUG, 'column_does_not_exist'),
  P2024: pr(K.CONNECT_TIMEOUT, 'pool_timeout', 'not_sent'),
  P2025: pr(K.NOT_FOUND, 'record_to_update_not_found'),
  P2028: pr(K.ABORTED, 'transaction_api_error'),
  P2034: pr(K.ABORTED, 'write_conflict_or_deadlock'),
  P2037: pr(K.UNAVAILABLE, 'too_many_connections', 'not_sent'),
});

/** Prisma error classes without a code → row. */
// prettier-ignore
const PRISMA_CLASSES: Readonly<Record<string, DialectRow>> = Object.freeze({
  PrismaClientValidationError: pr(K.TOOL_BUG, 'validation_error'), // the query the tool built is invalid
  PrismaClientRustPanicError: pr(K.RESOURCE_FAILURE, 'engine_panic'),
  PrismaClientUnknownRequestError: pr(K.SERVER_ERROR, 'unknown_request_error'),
  PrismaClientInitializationError: pr(K.NOT_SENT, 'initialization_error', 'not_sent'),
});

function prismaField(meta: unknown): string | undefined {
  const target = readProp(meta, 'target');
  const first = asArray(target)?.[0] ?? target;
  return identifier(first) ?? identifier(readProp(meta, 'column_name'));
}

export const prismaReader: DialectReader = {
  dialect: Dialect.PRISMA,
  read(node, declared) {
    const name = readString(node, 'name') ?? '';
    const isPrisma = name.startsWith('PrismaClient') || readString(node, 'clientVersion') !== undefined;
    if (!isPrisma && !declared) return undefined;
    const code = readString(node, 'code') ?? readString(node, 'errorCode');
    const row = (code && /^P\d{4}$/.test(code) ? own(PRISMA_CODES, code) : undefined) ?? own(PRISMA_CLASSES, name);
    if (!row) return isPrisma ? { dialect: Dialect.PRISMA, kind: K.SERVER_ERROR, label: 'Prisma error' } : undefined;
    const field = prismaField(readProp(node, 'meta'));
    const invalid = row.kind === K.INVALID_ARGUMENT || row.kind === K.RULE_VIOLATION;
    return {
      dialect: Dialect.PRISMA,
      kind: row.kind,
      label: `Prisma ${code ?? name} ${row.name ?? ''}${field ? ` (${field})` : ''}`.replace(/\s+$/, ''),
      ...(row.sent ? { sent: row.sent } : {}),
      ...(row.name && row.kind !== K.TOOL_BUG ? { code: row.name } : {}),
      ...(invalid && field ? { issues: [fieldIssue([field], `a valid value (${row.name ?? code})`)] } : {}),
    };
  },
};
