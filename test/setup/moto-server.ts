/**
 * moto's server mode (`moto_server`, installed from PyPI into `.moto/venv` by scripts/install-moto.mjs) on a free
 * loopback port: S3 and DynamoDB speaking AWS's wire formats, for the AWS SDK tests.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { freePort } from './postgres-server';

export interface MotoServer {
  url: string;
  stop(): Promise<void>;
}

const PATHS = join(resolve(__dirname, '..', '..'), '.moto', 'paths.json');

/**
 * @throws Error when moto is not installed (run `node scripts/install-moto.mjs`, which `npm test` runs first) or
 *   does not answer within 30 s.
 */
export async function startMoto(): Promise<MotoServer> {
  if (!existsSync(PATHS)) throw new Error('moto is not installed: run `node scripts/install-moto.mjs`');
  const { server } = JSON.parse(readFileSync(PATHS, 'utf8')) as { server: string };
  const port = await freePort();
  const child = spawn(server, ['-H', '127.0.0.1', '-p', String(port)], { stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000; // a hang detector, not a measurement
  for (;;) {
    try {
      const res = await fetch(`${url}/moto-api/data.json`);
      await res.arrayBuffer();
      break;
    } catch {
      if (Date.now() > deadline || child.exitCode !== null) {
        child.kill('SIGKILL');
        throw new Error('moto_server did not answer in 120 s');
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return {
    url,
    stop: () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null) return done();
        child.once('exit', () => done());
        child.kill('SIGTERM');
      }),
  };
}
