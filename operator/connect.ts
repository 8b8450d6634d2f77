/**
 * A client for the operator's functions: the connection target of `config/connection.ts` (Temporal's environment
 * configuration, else the embedded dev server of temporal.config.json).
 */
import { Client, Connection } from '@temporalio/client';
import { loadConfig } from '../config/load';
import { resolveConnection } from '../config/connection';
import type { RecoveryConfig } from '../config/schema';

/** A connected client for the configured target. Close `client.connection` when done. */
export async function connectClient(config?: string | Partial<RecoveryConfig>): Promise<Client> {
  const target = resolveConnection(loadConfig(config));
  const connection = await Connection.connect(target.connectionOptions);
  return new Client({ connection, namespace: target.namespace });
}
