/**
 * Global setup of the jest project `dialects`: one PostgreSQL server, one moto server and one Temporal dev server
 * for the whole run, started in parallel. Tests read `RR_PG_PORT`, `RR_PG_USER`, `RR_PG_PASSWORD`,
 * `RR_MOTO_URL` and (through ./env) `TEMPORAL_TEST_ADDRESS`.
 */
import temporalSetup from './global-setup';
import { startMoto, type MotoServer } from './moto-server';
import { startPostgres, type PostgresServer } from './postgres-server';

export default async function dialectsSetup(): Promise<void> {
  const [pg, moto] = await Promise.all([startPostgres(), startMoto(), temporalSetup()]);
  process.env.RR_PG_PORT = String(pg.port);
  process.env.RR_PG_USER = pg.user;
  process.env.RR_PG_PASSWORD = pg.password;
  process.env.RR_MOTO_URL = moto.url;
  (globalThis as { __dialectServers?: [PostgresServer, MotoServer] }).__dialectServers = [pg, moto];
}
