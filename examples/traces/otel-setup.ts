/**
 * OpenTelemetry for a worker that runs the RecoveryPlugin: the SDK (@opentelemetry/sdk-trace-base 1.x, the major
 * Temporal's @temporalio/interceptors-opentelemetry 1.24 is built on), context through AsyncLocalStorage, the W3C
 * propagator (Temporal's interceptors carry the trace context in workflow and activity headers with it), and
 * Temporal's `OpenTelemetryPlugin` on the same processors, so the router's spans and Temporal's form one tree:
 *
 *   RunWorkflow:agentWorkflow → StartActivity:invokeTool → RunActivity:invokeTool → execute_tool <tool>
 *   RunWorkflow:agentWorkflow → recover <tool> → reconcile <tool> | apply_guardrail <guardian> | retry_wait <tool>
 *
 * Spans go to an in-memory exporter (what `npm run example:traces` writes to bench/results/traces.json) and, with
 * `otlpUrl`, to a collector over OTLP/HTTP (JSON), e.g. `http://127.0.0.1:4318/v1/traces` of an OpenTelemetry
 * Collector or Jaeger you run. List `temporalPlugin` before the RecoveryPlugin in `plugins`.
 */
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { Resource } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { OpenTelemetryPlugin } from '@temporalio/interceptors-opentelemetry';

export interface ExampleTracing {
  /** Every finished span, in memory. */
  memory: InMemorySpanExporter;
  tracerProvider: BasicTracerProvider;
  temporalPlugin: OpenTelemetryPlugin;
  /** Exports what is buffered (the OTLP processor batches). */
  flush(): Promise<void>;
  shutdown(): Promise<void>;
}

/** Registers the SDK as the process's global tracer provider. */
export function startTracing(o: { serviceName: string; otlpUrl?: string }): ExampleTracing {
  const resource = new Resource({ 'service.name': o.serviceName });
  const memory = new InMemorySpanExporter();
  const processor = (p: SpanProcessor[]): SpanProcessor => ({
    onStart: (span, ctx) => p.forEach((x) => x.onStart(span, ctx)),
    onEnd: (span) => p.forEach((x) => x.onEnd(span)),
    forceFlush: async () => void (await Promise.all(p.map((x) => x.forceFlush()))),
    shutdown: async () => void (await Promise.all(p.map((x) => x.shutdown()))),
  });
  const processors: SpanProcessor[] = [new SimpleSpanProcessor(memory)];
  if (o.otlpUrl) processors.push(new BatchSpanProcessor(new OTLPTraceExporter({ url: o.otlpUrl })));
  const all = processor(processors);
  const tracerProvider = new BasicTracerProvider({ resource, spanProcessors: [all] });
  tracerProvider.register({ contextManager: new AsyncLocalStorageContextManager() });
  const temporalPlugin = new OpenTelemetryPlugin({
    resource,
    spanProcessor: all,
    tracer: tracerProvider.getTracer('@temporalio/interceptors-opentelemetry'),
  });
  return {
    memory,
    tracerProvider,
    temporalPlugin,
    flush: () => tracerProvider.forceFlush(),
    shutdown: () => tracerProvider.shutdown(),
  };
}
