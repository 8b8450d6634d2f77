/**
 * `recovery-router/metrics`: recovery telemetry as Prometheus metrics, on `prom-client` (an optional peer
 * dependency: `npm install prom-client`).
 *
 *   import { RecoveryMetrics } from 'recovery-router/metrics';
 *   const metrics = new RecoveryMetrics();
 *   const plugin = new RecoveryPlugin({ tools, telemetry: metrics });
 *   const server = await metrics.serve(9464); // GET http://127.0.0.1:9464/metrics
 */
export { RecoveryMetrics, RecoveryMetricsOptionsError } from './plugin/metrics';
export type { MetricsServer, RecoveryMetricsOptions } from './plugin/metrics';
