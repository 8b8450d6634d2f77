/**
 * `npm run server`: runs the embedded Temporal dev server (temporal.config.json `embeddedServer`) in the
 * foreground until Ctrl-C, for running `npm run worker` and `npm run client` beside it. If a server already
 * answers at the address, says so and exits.
 */
import { loadConfig } from '../config/load';
import { ensureEmbeddedServer } from '../server/dev-server';

async function main(): Promise<void> {
  const config = loadConfig(process.argv[2]);
  const server = await ensureEmbeddedServer(config.embeddedServer);
  if (!server.started) {
    console.log(`A Temporal server already answers at ${server.address}; nothing started.`);
    return;
  }
  console.log(`Temporal dev server at ${server.address}; Web UI ${server.uiUrl}. Ctrl-C stops it.`);
  const stop = () => void server.stop().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
