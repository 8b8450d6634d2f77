/** ensureEmbeddedServer when the CLI exits at once: the error carries the exit code, the log path and the log's end. */
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureEmbeddedServer } from '../../server/dev-server';

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((ok) => s.listen(0, '127.0.0.1', () => ok()));
  const { port } = s.address() as AddressInfo;
  await new Promise((done) => s.close(done));
  return port;
}

test('a CLI that exits with code 2 → the error names the code and the log, and quotes the log’s last lines', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'rr-devexit-'));
  const cli = join(dir, 'temporal');
  writeFileSync(
    cli,
    '#!/bin/sh\necho "starting"\necho "listen tcp 127.0.0.1:7233: bind: address already in use" >&2\nexit 2\n',
  );
  chmodSync(cli, 0o755);
  const saved = process.env.TEMPORAL_CLI_PATH;
  process.env.TEMPORAL_CLI_PATH = cli;
  try {
    const config = { ip: '127.0.0.1', port: await freePort(), uiPort: await freePort(), namespace: 'default' };
    await expect(ensureEmbeddedServer({ ...config, dbFilename: join(dir, 'dev.sqlite') }, 10_000)).rejects.toThrow(
      `temporal server start-dev exited with code 2; see ${join(dir, 'dev-server.log')}; it ends:\nstarting\n` +
        'listen tcp 127.0.0.1:7233: bind: address already in use',
    );
  } finally {
    if (saved === undefined) delete process.env.TEMPORAL_CLI_PATH;
    else process.env.TEMPORAL_CLI_PATH = saved;
  }
});
