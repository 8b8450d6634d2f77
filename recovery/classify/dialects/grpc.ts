/**
 * gRPC status errors as @grpc/grpc-js raises them (`ServiceError`): `code` (0–16), `details` (the server's
 * message or the client's reason), `metadata` (a `Metadata` with `get(key)`). The server's retry delay comes from
 * `grpc-retry-pushback-ms` (gRFC A6) or a `google.rpc.RetryInfo` in `grpc-status-details-bin`; field violations
 * from a `google.rpc.BadRequest` there.
 * UNAVAILABLE is not always safe to replay ("it is not always safe to retry non-idempotent operations"): it is
 * "not sent" only when grpc-js says no connection was established; otherwise a write may have been applied.
 * Pure: no I/O.
 */
import { isObjectLike, readNumber, readProp, readString } from '../safe';
import { toIssue } from '../body';
import { fieldViolations, retryDelayMs } from './grpc-details';
import { Dialect, ErrorKind as K, rowsFrom, type DialectFacts, type DialectReader, type DialectRow } from './kinds';

const gr = rowsFrom('gRPC "Status codes and their use in gRPC" (grpc.github.io/grpc/core/md_doc_statuscodes.html)');

/** Status code → row (the 17 codes of the gRPC spec). */
// prettier-ignore
export const GRPC_STATUS: readonly DialectRow[] = Object.freeze([
  gr(K.TOOL_BUG, 'OK'), // 0 thrown as an error: the tool mishandled a success
  gr(K.CLIENT_TIMEOUT, 'CANCELLED'), // 1 usually cancelled by the caller: the moment is unknown
  gr(K.SERVER_ERROR, 'UNKNOWN'), // 2
  gr(K.INVALID_ARGUMENT, 'INVALID_ARGUMENT'), // 3
  gr(K.CLIENT_TIMEOUT, 'DEADLINE_EXCEEDED'), // 4 "may have completed successfully": a write's phase is unknown
  gr(K.NOT_FOUND, 'NOT_FOUND'), // 5
  gr(K.CONFLICT, 'ALREADY_EXISTS'), // 6
  gr(K.FORBIDDEN, 'PERMISSION_DENIED'), // 7
  gr(K.RATE_LIMITED, 'RESOURCE_EXHAUSTED'), // 8 quota or rate; the server may send RetryInfo
  gr(K.PRECONDITION_FAILED, 'FAILED_PRECONDITION'), // 9 "should not retry until the system state has been fixed"
  gr(K.ABORTED, 'ABORTED'), // 10 a concurrency conflict: "retry at a higher level"
  gr(K.PRECONDITION_FAILED, 'OUT_OF_RANGE'), // 11 "may be fixed if the system state changes"
  gr(K.UNSUPPORTED, 'UNIMPLEMENTED'), // 12
  gr(K.SERVER_ERROR, 'INTERNAL'), // 13
  gr(K.CONNECTION_LOST, 'UNAVAILABLE'), // 14 see the module docs
  gr(K.RESOURCE_FAILURE, 'DATA_LOSS'), // 15
  gr(K.AUTH_FAILED, 'UNAUTHENTICATED'), // 16
]);

/** grpc-js's `details` when the call never reached a server (channel not connected, name not resolved). */
const NOT_CONNECTED =
  /^(?:No connection established|Name resolution failed|DNS resolution failed|Failed to connect|connect ECONNREFUSED|Connection refused)/i;

function metadataValue(metadata: unknown, key: string): unknown {
  const get = readProp(metadata, 'get');
  if (typeof get !== 'function') return undefined;
  try {
    const v: unknown = (get as (k: string) => unknown).call(metadata, key);
    return Array.isArray(v) ? v[0] : v;
  } catch {
    return undefined;
  }
}

function retryAfter(metadata: unknown): number | undefined {
  const pushback = metadataValue(metadata, 'grpc-retry-pushback-ms');
  if (typeof pushback === 'string' && /^\d{1,12}$/.test(pushback)) return Number(pushback);
  const bin = metadataValue(metadata, 'grpc-status-details-bin');
  return bin instanceof Uint8Array ? retryDelayMs(bin) : undefined;
}

function issues(metadata: unknown): DialectFacts['issues'] {
  const bin = metadataValue(metadata, 'grpc-status-details-bin');
  if (!(bin instanceof Uint8Array)) return undefined;
  return fieldViolations(bin).map((v) =>
    toIssue(
      v.field.split('.').filter((s) => s !== ''),
      v.description,
      undefined,
      false,
    ),
  );
}

export const grpcReader: DialectReader = {
  dialect: Dialect.GRPC,
  read(node, declared) {
    const code = readNumber(node, 'code');
    const details = readString(node, 'details');
    const metadata = readProp(node, 'metadata');
    if (code === undefined || !Number.isInteger(code) || code < 0 || code > 16) return undefined;
    if (!declared && !(details !== undefined && isObjectLike(metadata))) return undefined;
    const row = GRPC_STATUS[code]!;
    const notConnected = code === 14 && details !== undefined && NOT_CONNECTED.test(details.trim());
    const ms = retryAfter(metadata);
    const fieldIssues = code === 3 ? issues(metadata) : undefined;
    const quote = code === 3 || code === 9 || code === 11 || code === 5 || code === 6;
    return {
      dialect: Dialect.GRPC,
      kind: notConnected ? K.NOT_SENT : row.kind,
      label: `gRPC ${row.name} (${code})`,
      ...(notConnected ? { sent: 'not_sent' as const } : {}),
      ...(ms === undefined ? {} : { retryAfterMs: ms }),
      ...(fieldIssues && fieldIssues.length > 0 ? { issues: fieldIssues } : {}),
      ...(quote && details ? { said: details } : {}),
      ...(row.kind === K.TOOL_BUG ? {} : { code: row.name!.toLowerCase() }),
    };
  },
};
