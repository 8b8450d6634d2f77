/**
 * Where to connect, decided in one place. Precedence, first wins:
 *   1. Temporal's environment configuration, as every Temporal SDK and the CLI read it (`@temporalio/envconfig`):
 *      `TEMPORAL_ADDRESS`, `TEMPORAL_NAMESPACE`, `TEMPORAL_API_KEY`, `TEMPORAL_TLS*`, and the profile
 *      (`TEMPORAL_PROFILE`, default "default") of the `temporal.toml` file (`TEMPORAL_CONFIG_FILE` or the
 *      default location). A remote cluster or Temporal Cloud is reached this way without code changes.
 *   2. Otherwise, the embedded dev server of `temporal.config.json` (`embeddedServer.ip:port`, namespace),
 *      started on demand by `server/dev-server.ts`.
 */
import { loadClientConnectConfig } from '@temporalio/envconfig';
import type { NativeConnectionOptions } from '@temporalio/worker';
import type { RecoveryConfig } from './schema';

/**
 * Where a client connects: Temporal's environment configuration when it names an address, else the embedded dev
 * server of `temporal.config.json`.
 */
export interface ConnectionTarget {
  /** Options for `Connection.connect` / `NativeConnection.connect` (address, TLS, API key, metadata). */
  connectionOptions: NativeConnectionOptions & { address: string };
  namespace: string;
  /** True when no environment configuration named an address: the embedded dev server is the target. */
  embedded: boolean;
}

/**
 * Resolves the connection target.
 * @param env environment variables to read (default `process.env`), for tests.
 */
export function resolveConnection(config: RecoveryConfig, env: NodeJS.ProcessEnv = process.env): ConnectionTarget {
  const overrideEnvVars = Object.fromEntries(
    Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined),
  );
  const fromEnv = loadClientConnectConfig({ overrideEnvVars, profile: env.TEMPORAL_PROFILE });
  const server = config.embeddedServer;
  const embedded = !fromEnv.connectionOptions.address;
  return {
    connectionOptions: {
      ...fromEnv.connectionOptions,
      address: fromEnv.connectionOptions.address || `${server.ip}:${server.port}`,
    },
    namespace: fromEnv.namespace ?? (embedded ? server.namespace : 'default'),
    embedded,
  };
}
