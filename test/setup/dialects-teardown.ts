import type { DialectServers } from './dialects-setup';

export default async function dialectsTeardown(): Promise<void> {
  const s = (globalThis as { __dialectServers?: DialectServers }).__dialectServers;
  if (s) await Promise.all([s.pg.stop(), s.moto.stop(), s.temporal?.teardown()]);
}
