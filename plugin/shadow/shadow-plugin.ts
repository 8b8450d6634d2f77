/**
 * Shadow mode on a worker (docs/shadow-mode.md): the runtime its interceptors share, made from the options once,
 * and `ShadowPlugin`, for a worker whose activities are not tools of the router at all:
 *
 *   const worker = await Worker.create({
 *     taskQueue, activities,
 *     plugins: [new OpenTelemetryPlugin({ resource, spanProcessor }), new ShadowPlugin({ mode: 'shadow' })],
 *   });
 *
 * A worker with a `RecoveryPlugin` takes the same options as `RecoveryPlugin({ shadow })` instead. List Temporal's
 * OpenTelemetry plugin first, so its `RunActivity:<type>` span is the parent of each `shadow <type>` span (plugins'
 * activity interceptors run in the order of `plugins`, the first outermost). Node-side only.
 */
import { SimplePlugin } from '@temporalio/plugin';
import { backoffPolicySchema, DEFAULT_BACKOFF_POLICY, type BackoffPolicy } from '../../recovery/backoff';
import { createTracing, type Tracing, type TracingOptions } from '../../activities/tracing/tracing';
import { checkedOption } from '../options';
import { shadowInterceptors, type ShadowRuntime } from './interceptor';
import { shadowOptionsSchema, type ShadowOptions } from './options';

/**
 * The runtime of shadow mode's interceptors.
 * @param base the backoff `shadow.backoff` overrides (the plugin's).
 * @param own activity types never watched (the plugin's own).
 * @throws RecoveryPluginOptionsError `<where>: shadow.backoff…` when the merged backoff breaks a rule of
 *   `backoffPolicySchema()` (e.g. `maximumIntervalMs` below `initialIntervalMs`).
 */
export function shadowRuntime(
  options: ShadowOptions,
  base: BackoffPolicy,
  own: Iterable<string>,
  tracing: Tracing | undefined,
  where: string,
): ShadowRuntime {
  const backoff = checkedOption(backoffPolicySchema().safeParse({ ...base, ...options.backoff }), where, [
    'shadow',
    'backoff',
  ]);
  return { options, own: new Set(own), tracing, backoff };
}

/** `ShadowPlugin`'s options: shadow mode's, and where its spans and metrics go. */
export interface ShadowPluginOptions extends ShadowOptions {
  /** As `RecoveryPluginOptions.tracing`. @default the global providers of `@opentelemetry/api`, when installed */
  tracing?: TracingOptions | false;
}

/** Shadow mode alone: an activity interceptor on every activity of the worker (or those `activities` names). */
export class ShadowPlugin extends SimplePlugin {
  /**
   * @throws RecoveryPluginOptionsError `ShadowPlugin: shadow.<field> <rule>` for an option that cannot be used.
   */
  constructor(options: ShadowPluginOptions) {
    const { tracing, ...shadow } = (options ?? {}) as ShadowPluginOptions;
    checkedOption(shadowOptionsSchema().safeParse(shadow), 'ShadowPlugin', ['shadow']);
    const rt = shadowRuntime(shadow, DEFAULT_BACKOFF_POLICY, [], createTracing(tracing), 'ShadowPlugin');
    super({ name: 'recovery-router-shadow', workerInterceptors: { activity: [shadowInterceptors(rt)] } });
  }
}
