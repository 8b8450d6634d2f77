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
/** Span or metric attributes: OpenTelemetry's attribute map. */
export type Attributes = Record<string, AttributeValue>;

/** A span's W3C identity: 32 hex traceId, 16 hex spanId, flags (1 = sampled). */
export interface OtelSpanContext {
  traceId: string;
  spanId: string;
  traceFlags: number;
  isRemote?: boolean;
}

/** The parts of an OpenTelemetry `Span` the router calls. */
export interface OtelSpan {
  /** Sets one attribute. */
  setAttribute(key: string, value: AttributeValue): unknown;
  /** Sets several attributes. */
  setAttributes(attributes: Attributes): unknown;
  /** `code`: 0 UNSET, 1 OK, 2 ERROR. */
  setStatus(status: { code: number; message?: string }): unknown;
  /** `time`: ms since the epoch. */
  addEvent(name: string, attributes?: Attributes, time?: number): unknown;
  /** `endTime`: ms since the epoch; now when absent. */
  end(endTime?: number): void;
  /** The span's W3C identity. */
  spanContext(): OtelSpanContext;
}

/** `startTime`: ms since the epoch. `kind`: 0 INTERNAL. */
export interface OtelSpanOptions {
  kind?: number;
  attributes?: Attributes;
  startTime?: number;
}

/** The parts of an OpenTelemetry `Tracer` the router calls. */
export interface OtelTracer {
  /** Starts a span, a child of `context`'s span when given. */
  startSpan(name: string, options?: OtelSpanOptions, context?: unknown): OtelSpan;
  /** Starts a span and runs `fn` with it as the active span. */
  startActiveSpan<F>(name: string, options: OtelSpanOptions, fn: (span: OtelSpan) => F): F;
}

/** The parts of an OpenTelemetry `Histogram` the router calls. */
export interface OtelHistogram {
  /** Records one value (the unit is the histogram's). */
  record(value: number, attributes?: Attributes): void;
}

/** The parts of an OpenTelemetry `Counter` the router calls. */
export interface OtelCounter {
  /** Adds `value` to the counter. */
  add(value: number, attributes?: Attributes): void;
}

/** The parts of an OpenTelemetry `Meter` the router calls. */
export interface OtelMeter {
  /** A histogram named `name` (its unit, e.g. `s`, in `options`). */
  createHistogram(
    name: string,
    options?: { unit?: string; description?: string; advice?: { explicitBucketBoundaries?: number[] } },
  ): OtelHistogram;
  /** A counter named `name`. */
  createCounter(name: string, options?: { unit?: string; description?: string }): OtelCounter;
}

/** What a `tracerProvider` option must offer (an OpenTelemetry `TracerProvider`). */
export interface TracerProviderLike {
  /** The tracer named `name` (the instrumentation scope). */
  getTracer(name: string, version?: string): unknown;
}

/** What a `meterProvider` option must offer (an OpenTelemetry `MeterProvider`). */
export interface MeterProviderLike {
  /** The meter named `name` (the instrumentation scope). */
  getMeter(name: string, version?: string): unknown;
}

/** The parts of `@opentelemetry/api` the library calls. */
export interface OtelApi {
  trace: {
    /** The global provider's tracer named `name`. */
    getTracer(name: string, version?: string): OtelTracer;
    /** `context` with `span` as its active span. */
    setSpan(context: unknown, span: OtelSpan): unknown;
    /** `context` with a remote parent span of that identity. */
    setSpanContext(context: unknown, spanContext: OtelSpanContext): unknown;
  };
  metrics: {
    /** The global provider's meter named `name`. */
    getMeter(name: string, version?: string): OtelMeter;
  };
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
