/**
 * `@opentelemetry/api`, an optional peer: loaded with `require` on first use. Absent (or broken), every tracing
 * call of the library is a no-op and nothing throws; present without an SDK registered, the API's own no-op tracer
 * and meter answer (OpenTelemetry JS API: "the API is a no-op without an SDK").
 *
 * The types below are the few parts of the API the library uses, written out structurally, so the package's
 * declaration files never import `@opentelemetry/api` (a consumer without it still type-checks with
 * `skipLibCheck: false`). Node-side only.
 */

/** An attribute value: OpenTelemetry's primitive attribute types. */
export type AttributeValue = string | number | boolean;
export type Attributes = Record<string, AttributeValue>;

/** A span's W3C identity: 32 hex traceId, 16 hex spanId, flags (1 = sampled). */
export interface OtelSpanContext {
  traceId: string;
  spanId: string;
  traceFlags: number;
  isRemote?: boolean;
}

export interface OtelSpan {
  setAttribute(key: string, value: AttributeValue): unknown;
  setAttributes(attributes: Attributes): unknown;
  /** `code`: 0 UNSET, 1 OK, 2 ERROR. */
  setStatus(status: { code: number; message?: string }): unknown;
  /** `time`: ms since the epoch. */
  addEvent(name: string, attributes?: Attributes, time?: number): unknown;
  /** `endTime`: ms since the epoch; now when absent. */
  end(endTime?: number): void;
  spanContext(): OtelSpanContext;
}

/** `startTime`: ms since the epoch. `kind`: 0 INTERNAL. */
export interface OtelSpanOptions {
  kind?: number;
  attributes?: Attributes;
  startTime?: number;
}

export interface OtelTracer {
  startSpan(name: string, options?: OtelSpanOptions, context?: unknown): OtelSpan;
  startActiveSpan<F>(name: string, options: OtelSpanOptions, fn: (span: OtelSpan) => F): F;
}

export interface OtelHistogram {
  record(value: number, attributes?: Attributes): void;
}

export interface OtelCounter {
  add(value: number, attributes?: Attributes): void;
}

export interface OtelMeter {
  createHistogram(
    name: string,
    options?: { unit?: string; description?: string; advice?: { explicitBucketBoundaries?: number[] } },
  ): OtelHistogram;
  createCounter(name: string, options?: { unit?: string; description?: string }): OtelCounter;
}

/** What a `tracerProvider` option must offer (an OpenTelemetry `TracerProvider`). */
export interface TracerProviderLike {
  getTracer(name: string, version?: string): unknown;
}

/** What a `meterProvider` option must offer (an OpenTelemetry `MeterProvider`). */
export interface MeterProviderLike {
  getMeter(name: string, version?: string): unknown;
}

/** The parts of `@opentelemetry/api` the library calls. */
export interface OtelApi {
  trace: {
    getTracer(name: string, version?: string): OtelTracer;
    setSpan(context: unknown, span: OtelSpan): unknown;
    setSpanContext(context: unknown, spanContext: OtelSpanContext): unknown;
  };
  metrics: { getMeter(name: string, version?: string): OtelMeter };
  ROOT_CONTEXT: unknown;
}

/** Span kind INTERNAL and status ERROR, as numbers (they are `SpanKind` and `SpanStatusCode` in the API). */
export const SPAN_KIND_INTERNAL = 0;
export const STATUS_ERROR = 2;

function requireApi(): unknown {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- an optional peer, loaded only if present
  return require('@opentelemetry/api');
}

/**
 * The API, or undefined when it cannot be loaded (Node's module cache makes a second call cheap).
 * @param load how to load it (tests pass a loader that throws, as an absent package does).
 */
export function loadOtelApi(load: () => unknown = requireApi): OtelApi | undefined {
  try {
    const mod = load() as Partial<OtelApi> | undefined;
    return mod && mod.trace && mod.metrics && 'ROOT_CONTEXT' in mod ? (mod as OtelApi) : undefined;
  } catch {
    return undefined;
  }
}
