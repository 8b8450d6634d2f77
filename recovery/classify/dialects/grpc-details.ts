/**
 * A minimal reader of gRPC's binary status details (`grpc-status-details-bin`: a protobuf `google.rpc.Status`)
 * for two messages: `google.rpc.RetryInfo` (the server's retry delay) and `google.rpc.BadRequest` (field
 * violations). Only the wire format is read (protobuf encoding: varints and length-delimited fields); anything
 * malformed reads as nothing. No protobuf library: the core imports none.
 * Sources: protobuf "Encoding" (protobuf.dev/programming-guides/encoding); googleapis google/rpc/status.proto and
 * error_details.proto.
 * Pure: no I/O.
 */

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
