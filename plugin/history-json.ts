/**
 * A workflow history ⇄ its proto3 JSON form (what `temporal workflow show --output json` writes), done with the
 * protobufjs copy that `@temporalio/proto`'s message types come from.
 *
 * Why not `@temporalio/common`'s `historyToJSON` / `historyFromJSON`: they take `protobufjs/ext/protojson` from
 * `@temporalio/common`'s own protobufjs and the `History` type from `@temporalio/proto`'s. When a project's
 * top-level protobufjs is another major (7.x, from `@grpc/proto-loader`, which `@temporalio/client` brings), npm
 * gives each `@temporalio` package a nested copy of 8.x; protojson's `instanceof Type` check then fails across the
 * two copies with "TypeError: type must be a Type", and so does `Worker.runReplayHistories` on a JSON history (it
 * calls `historyFromJSON`). A fresh project with `@temporalio/client` 1.24.0 and `@temporalio/worker` 1.24.0 gets
 * exactly that layout (test/temporal/consumer.test.ts). Taking protojson from `@temporalio/proto`'s own resolution
 * keeps the type and the converter in one copy, whatever the layout.
 *
 * Node-side only.
 */
import { createRequire } from 'node:module';
import type * as TemporalProto from '@temporalio/proto';
import type { temporal } from '@temporalio/proto';
import type { patchProtobufRoot as PatchProtobufRoot } from '@temporalio/proto/lib/patch-protobuf-root';

type History = temporal.api.history.v1.IHistory;
interface ProtoJson {
  toJson(type: unknown, message: unknown): unknown;
  fromJson(type: unknown, json: unknown, options?: { ignoreUnknownFields?: boolean }): unknown;
}
interface HistoryCodec {
  protojson: ProtoJson;
  historyType: unknown;
  History: { fromObject(o: unknown): unknown };
}

let codec: HistoryCodec | undefined;

/** protojson and the `History` type, both from the protobufjs copy `@temporalio/proto` resolves; loaded once. */
function historyCodec(): HistoryCodec {
  if (codec) return codec;
  // @temporalio/proto as @temporalio/common (a peer) resolves it: hoisted or nested under it.
  const fromProto = createRequire(createRequire(require.resolve('@temporalio/common')).resolve('@temporalio/proto'));
  const proto = fromProto('@temporalio/proto') as typeof TemporalProto;
  const { patchProtobufRoot } = fromProto('@temporalio/proto/lib/patch-protobuf-root') as {
    patchProtobufRoot: typeof PatchProtobufRoot;
  };
  const patched = patchProtobufRoot(proto as unknown as Record<string, unknown>) as { lookupType(n: string): unknown };
  codec = {
    protojson: fromProto('protobufjs/ext/protojson') as ProtoJson,
    historyType: patched.lookupType('temporal.api.history.v1.History'),
    History: proto.temporal.api.history.v1.History,
  };
  return codec;
}

/** A history as JSON text (2-space indented), in the form `temporal workflow show --output json` writes. */
export function historyToJson(history: History): string {
  const { protojson, historyType, History: type } = historyCodec();
  return JSON.stringify(protojson.toJson(historyType, type.fromObject(history)), null, 2);
}

/**
 * A JSON history (parsed) as a `History` message. Enum values written in the older PascalCase form (`eventType:
 * "WorkflowExecutionStarted"`, as tctl and the Web UI exported them) are read too, as `@temporalio/common`'s
 * `historyFromJSON` reads them; fields this SDK does not know (a newer server's) are ignored.
 * @throws TypeError when `json` is not an object with an `events` array, or an event has no `…EventAttributes`.
 */
export function historyFromJson(json: unknown): History {
  const events = (json as { events?: unknown } | null)?.events;
  if (typeof json !== 'object' || json === null || !Array.isArray(events)) {
    throw new TypeError('not a history: expected an object with an array of events');
  }
  const { protojson, historyType } = historyCodec();
  const loaded = protojson.fromJson(
    historyType,
    { events: events.map(constantCaseEnums) },
    { ignoreUnknownFields: true },
  );
  if (loaded === null || typeof loaded !== 'object') throw new TypeError('not a history');
  return loaded as History;
}

/** The enum fields of an event that older exports wrote in PascalCase, with their proto enum's prefix. */
const ENUM_PREFIXES: readonly (readonly [string, string])[] = [
  ['parentClosePolicy', 'PARENT_CLOSE_POLICY'],
  ['workflowIdReusePolicy', 'WORKFLOW_ID_REUSE_POLICY'],
  ['initiator', 'CONTINUE_AS_NEW_INITIATOR'],
  ['retryState', 'RETRY_STATE'],
];

/** One event with its enum values in the proto's CONSTANT_CASE form (`EVENT_TYPE_WORKFLOW_EXECUTION_STARTED`). */
function constantCaseEnums(event: unknown): unknown {
  if (typeof event !== 'object' || event === null) throw new TypeError('not a history: an event is not an object');
  const e = event as Record<string, unknown>;
  const key = Object.keys(e).find((k) => k.endsWith('EventAttributes'));
  if (key === undefined) throw new TypeError(`not a history: event ${String(e.eventId)} has no …EventAttributes`);
  const attrs = { ...(e[key] as Record<string, unknown>) };
  for (const [field, prefix] of ENUM_PREFIXES) fixEnum(attrs, field, prefix);
  if (isRecord(attrs.taskQueue)) attrs.taskQueue = fixEnum({ ...attrs.taskQueue }, 'kind', 'TASK_QUEUE_KIND');
  const childInfo = attrs.childWorkflowExecutionFailureInfo;
  if (isRecord(childInfo))
    attrs.childWorkflowExecutionFailureInfo = fixEnum({ ...childInfo }, 'retryState', 'RETRY_STATE');
  return fixEnum({ ...e, [key]: attrs }, 'eventType', 'EVENT_TYPE');
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null;
}

/** `o[field]`, a string not yet starting with `prefix`, as `PREFIX_CONSTANT_CASE`; `o` itself, changed in place. */
function fixEnum(o: Record<string, unknown>, field: string, prefix: string): Record<string, unknown> {
  const v = o[field];
  if (typeof v === 'string' && v !== '' && !v.startsWith(prefix)) {
    o[field] = `${prefix}_${v.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase()}`;
  }
  return o;
}
