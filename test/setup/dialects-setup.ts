/**
 * Global setup of the jest project `dialects`: one PostgreSQL server, one moto server and one Temporal dev server
 * for the whole run, started in parallel. Tests read `RR_PG_PORT`, `RR_PG_USER`, `RR_PG_PASSWORD`, `RR_MOTO_URL`
 * and `RR_DIALECTS_TEMPORAL_ADDRESS`. Jest runs every project's global setup in one process: the `temporal`
 * project's `__temporalEnv` and `TEMPORAL_TEST_ADDRESS` are kept as they were, so each project tears down its own.
 */
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import temporalSetup from './global-setup';
import { startMoto, type MotoServer } from './moto-server';
import { startPostgres, type PostgresServer } from './postgres-server';

type Globals = { __temporalEnv?: TestWorkflowEnvironment; __dialectServers?: DialectServers };
export interface DialectServers {
  pg: PostgresServer;
  moto: MotoServer;
  temporal: TestWorkflowEnvironment | undefined;
}

export default async function dialectsSetup(): Promise<void> {
  const g = globalThis as Globals;
  const theirs = { env: g.__temporalEnv, address: process.env.TEMPORAL_TEST_ADDRESS };
  const [pg, moto] = await Promise.all([startPostgres(), startMoto(), temporalSetup()]);
  process.env.RR_DIALECTS_TEMPORAL_ADDRESS = process.env.TEMPORAL_TEST_ADDRESS;
  g.__dialectServers = { pg, moto, temporal: g.__temporalEnv };
  g.__temporalEnv = theirs.env;
  if (theirs.address === undefined) delete process.env.TEMPORAL_TEST_ADDRESS;
  else process.env.TEMPORAL_TEST_ADDRESS = theirs.address;
  process.env.RR_PG_PORT = String(pg.port);
  process.env.RR_PG_USER = pg.user;
  process.env.RR_PG_PASSWORD = pg.password;
  process.env.RR_MOTO_URL = moto.url;
}
