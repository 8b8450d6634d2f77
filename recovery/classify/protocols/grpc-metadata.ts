/**
 * What a gRPC error's metadata adds to its status code (@grpc/grpc-js `ServiceError`: `code`, `details`, `metadata`
 * with `get(key)`): the server's retry delay from `grpc-retry-pushback-ms` (gRFC A6) or a `google.rpc.RetryInfo`, and
 * field violations from a `google.rpc.BadRequest`, both in `grpc-status-details-bin` (a protobuf `google.rpc.Status`,
 * read here at the wire level: varints and length-delimited fields; anything malformed reads as nothing; the core
 * imports no protobuf library). UNAVAILABLE is "not always safe to retry non-idempotent operations": it is not sent
 * only when grpc-js says no connection was established.
 * Sources: protobuf "Encoding" (protobuf.dev/programming-guides/encoding); googleapis google/rpc/status.proto and
 * error_details.proto; gRPC "Status codes and their use in gRPC".
 * Pure: no I/O.
 */
import { ErrorKind, type CodeFacts } from '../kinds';
import { readProp, readString } from '../safe';
import { toIssue } from '../body';
import type { TableRow } from './table';

const RETRY_INFO = 'type.googleapis.com/google.rpc.RetryInfo';
const BAD_REQUEST = 'type.googleapis.com/google.rpc.BadRequest';
const MAX_BYTES = 64 * 1024;

type Field = { no: number; varint?: number; bytes?: Uint8Array };

/** The fields of one protobuf message; `undefined` when it is malformed. */
function fields(buf: Uint8Array): Field[] | undefined {
  const out: Field[] = [];
  let i = 0;
  const varint = (): number | undefined => {
    let v = 0;
    let mul = 1;
    for (let n = 0; n < 10 && i < buf.length; n++) {
      const b = buf[i++]!;
      v += (b & 0x7f) * mul;
      if ((b & 0x80) === 0) return v;
      mul *= 128;
    }
    return undefined;
  };
  while (i < buf.length && out.length < 256) {
    const key = varint();
    if (key === undefined) return undefined;
    const no = Math.floor(key / 8);
    const wire = key % 8;
    if (wire === 0) {
      const v = varint();
      if (v === undefined) return undefined;
      out.push({ no, varint: v });
    } else if (wire === 2) {
      const len = varint();
      if (len === undefined || i + len > buf.length) return undefined;
      out.push({ no, bytes: buf.subarray(i, i + len) });
      i += len;
    } else if (wire === 5) i += 4;
    else if (wire === 1) i += 8;
    else return undefined;
  }
  return out;
}

const text = (b: Uint8Array | undefined): string => (b ? new TextDecoder('utf-8', { fatal: false }).decode(b) : '');

/** The `Any` details of a `google.rpc.Status` (field 3), as `[typeUrl, value]`. */
function details(status: Uint8Array): [string, Uint8Array][] {
  if (status.length > MAX_BYTES) return [];
  const out: [string, Uint8Array][] = [];
  for (const f of fields(status) ?? []) {
    if (f.no !== 3 || !f.bytes) continue;
    const any = fields(f.bytes) ?? [];
    out.push([text(any.find((x) => x.no === 1)?.bytes), any.find((x) => x.no === 2)?.bytes ?? new Uint8Array()]);
  }
  return out;
}

/** `RetryInfo.retry_delay` (a `google.protobuf.Duration`) in ms, rounded up; `undefined` when absent. */
export function retryDelayMs(status: Uint8Array): number | undefined {
  const info = details(status).find(([url]) => url === RETRY_INFO)?.[1];
  const delay = info && (fields(info) ?? []).find((f) => f.no === 1)?.bytes;
  if (!delay) return undefined;
  const d = fields(delay) ?? [];
  const seconds = d.find((f) => f.no === 1)?.varint ?? 0;
  const nanos = d.find((f) => f.no === 2)?.varint ?? 0;
  return Math.ceil(seconds * 1000 + nanos / 1e6);
}

/** `BadRequest.field_violations` as `{ field, description }` (at most 20). */
export function fieldViolations(status: Uint8Array): { field: string; description: string }[] {
  const bad = details(status).find(([url]) => url === BAD_REQUEST)?.[1];
  if (!bad) return [];
  return (fields(bad) ?? [])
    .filter((f) => f.no === 1 && f.bytes)
    .slice(0, 20)
    .map((f) => {
      const v = fields(f.bytes!) ?? [];
      return { field: text(v.find((x) => x.no === 1)?.bytes), description: text(v.find((x) => x.no === 2)?.bytes) };
    })
    .filter((v) => v.field !== '');
}

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

/** The facts of a gRPC error's metadata and details (see the module docs). */
export function grpcMore(node: unknown, _row: TableRow, code: string): Partial<CodeFacts> {
  const details = readString(node, 'details');
  const metadata = readProp(node, 'metadata');
  const pushback = metadataValue(metadata, 'grpc-retry-pushback-ms');
  const bin = metadataValue(metadata, 'grpc-status-details-bin');
  const ms =
    typeof pushback === 'string' && /^\d{1,12}$/.test(pushback)
      ? Number(pushback)
      : bin instanceof Uint8Array
        ? retryDelayMs(bin)
        : undefined;
  const issues =
    code === '3' && bin instanceof Uint8Array
      ? fieldViolations(bin).map((v) =>
          toIssue(
            v.field.split('.').filter((s) => s !== ''),
            v.description,
            undefined,
            false,
          ),
        )
      : [];
  const notConnected = code === '14' && details !== undefined && NOT_CONNECTED.test(details.trim());
  const quote = ['3', '5', '6', '9', '11'].includes(code) && details !== undefined;
  return {
    ...(notConnected ? { kind: ErrorKind.NOT_SENT, sent: 'not_sent' as const } : {}),
    ...(ms === undefined ? {} : { retryAfterMs: ms }),
    ...(issues.length > 0 ? { issues } : {}),
    ...(quote ? { said: details } : {}),
  };
}
