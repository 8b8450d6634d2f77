import type { MotoServer } from './moto-server';
import type { PostgresServer } from './postgres-server';
import temporalTeardown from './global-teardown';

export default async function dialectsTeardown(): Promise<void> {
  const servers = (globalThis as { __dialectServers?: [PostgresServer, MotoServer] }).__dialectServers ?? [];
  await Promise.all([...servers.map((s) => s.stop()), temporalTeardown()]);
}
