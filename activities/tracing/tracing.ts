/**
 * The tracer and meter the library's spans and metrics go to, made once per plugin. By default the global ones of
 * `@opentelemetry/api` (whatever SDK the application registered, before or after the plugin was made: the API's
 * global tracer is a proxy); `false` turns tracing off; without the API installed there is nothing to make.
 * Node-side only.
 */
import {
  loadOtelApi,
  type MeterProviderLike,
  type OtelApi,
  type OtelCounter,
  type OtelHistogram,
  type OtelMeter,
  type OtelTracer,
  type TracerProviderLike,
} from './otel';

/** `RecoveryPluginOptions.tracing`. */
export interface TracingOptions {
  /** Where spans go. @default the global tracer provider of `@opentelemetry/api` */
  tracerProvider?: TracerProviderLike;
  /** Where metrics go. @default the global meter provider of `@opentelemetry/api` */
  meterProvider?: MeterProviderLike;
}

/** The instrumentation scope of every span and metric. */
export const INSTRUMENTATION_SCOPE = 'recovery-router';

/**
 * Bucket boundaries of `gen_ai.execute_tool.duration`, in seconds, as the GenAI semantic conventions advise
 * (gen-ai-metrics.md, "Metric: gen_ai.execute_tool.duration").
 */
export const TOOL_DURATION_BUCKETS_S: readonly number[] = Object.freeze([
  0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92,
]);

/** What the library traces with. */
export interface Tracing {
  readonly api: OtelApi;
  readonly tracer: OtelTracer;
  /** `gen_ai.execute_tool.duration` (s), one record per tool activity attempt. */
  readonly toolDuration: OtelHistogram;
  /** `recovery_router.shadow.failures`: failures of other activities shadow mode classified. */
  readonly shadowFailures: OtelCounter;
}

/**
 * The tracing of a plugin: undefined when `options` is `false` or `@opentelemetry/api` cannot be loaded.
 * @param load how to load the API (tests).
 */
export function createTracing(options: TracingOptions | false | undefined, load?: () => unknown): Tracing | undefined {
  if (options === false) return undefined;
  const api = loadOtelApi(load);
  if (!api) return undefined;
  const tracer = (options?.tracerProvider?.getTracer(INSTRUMENTATION_SCOPE) ??
    api.trace.getTracer(INSTRUMENTATION_SCOPE)) as OtelTracer;
  const meter = (options?.meterProvider?.getMeter(INSTRUMENTATION_SCOPE) ??
    api.metrics.getMeter(INSTRUMENTATION_SCOPE)) as OtelMeter;
  return Object.freeze({
    api,
    tracer,
    toolDuration: meter.createHistogram('gen_ai.execute_tool.duration', {
      unit: 's',
      description: 'The duration of a single tool execution (one activity attempt).',
      advice: { explicitBucketBoundaries: [...TOOL_DURATION_BUCKETS_S] },
    }),
    shadowFailures: meter.createCounter('recovery_router.shadow.failures', {
      unit: '{failure}',
      description: 'Failures of activities shadow mode classified, by class and the action the router would take.',
    }),
  });
}
