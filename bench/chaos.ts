/**
 * `npm run bench -- --only chaos [--kills N] [--in-flight N] [--restarts N] [--seed N]`: refunds on the SQLite
 * ledger while worker processes are SIGKILLed at random points of their reconciliations and the dev server is
 * restarted (SIGTERM, SQLite file kept) — bench/chaos/driver.ts. Prints a table and writes
 * bench/results/chaos.json: runs, kills, restarts, duplicates, lost, stuck, failedWithRow, escalations and the most
 * replays one operation received.
 *
 * Gate (exit 1): any duplicate, lost refund, run failed with its row, or stuck run, or more replays than the
 * default budget (1) for one operation.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { bundleWorkflowCode, DefaultLogger } from '@temporalio/worker';
import { toolCatalog } from '../activities/define-tool';
import { startLedgerService } from '../examples/ledger-service';
import { ledgerTools } from '../examples/ledger-tools';
import { RECOVERY_PRELOAD_MODULES, RECOVERY_WORKFLOWS_PATH } from '../plugin/recovery-plugin';
import { ensureEmbeddedServer, type EmbeddedServer } from '../server/dev-server';
import { runChaos, type ChaosReport } from './chaos/driver';
import { machineFacts } from './report';

const RESULTS_FILE = join(__dirname, 'results', 'chaos.json');

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const srv = createServer();
    srv.once('error', fail);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as AddressInfo;
      srv.close(() => done(port));
    });
  });
}

export async function chaos(o: { kills: number; inFlight: number; restarts: number; seed: number }): Promise<number> {
  const tmp = mkdtempSync(join(tmpdir(), 'rr-bench-chaos-'));
  const config = {
    ip: '127.0.0.1',
    port: await freePort(),
    uiPort: await freePort(),
    namespace: 'default',
    dbFilename: join(tmp, 'dev.sqlite'),
  };
  let server: EmbeddedServer = await ensureEmbeddedServer(config);
  const ledger = await startLedgerService();
  const connection = await Connection.connect({ address: server.address });
  try {
    const bundlePath = join(tmp, 'workflows.js');
    /** Bundler output at ERROR level only. */
    const quiet = new DefaultLogger('ERROR');
    writeFileSync(
      bundlePath,
      (
        await bundleWorkflowCode({
          workflowsPath: RECOVERY_WORKFLOWS_PATH,
          preloadModules: [...RECOVERY_PRELOAD_MODULES, RECOVERY_WORKFLOWS_PATH],
          logger: quiet,
        })
      ).code,
    );
    const report: ChaosReport = await runChaos({
      client: new Client({ connection }),
      address: server.address,
      taskQueue: `bench-chaos-${o.seed}`,
      ledger,
      catalog: toolCatalog(ledgerTools(ledger.url).all),
      workflowBundlePath: bundlePath,
      kills: o.kills,
      inFlight: o.inFlight,
      seed: o.seed,
      restarts: o.restarts,
      restartServer: async () => {
        await server.stop();
        server = await ensureEmbeddedServer(config);
      },
    });
    const passed =
      report.duplicates === 0 &&
      report.lost === 0 &&
      report.failedWithRow === 0 &&
      report.stuck === 0 &&
      report.maxReplaysPerOperation <= 1;
    const out = {
      benchmark: 'chaos',
      date: new Date().toISOString(),
      machine: machineFacts(),
      seed: o.seed,
      ...report,
      passed,
    };
    mkdirSync(dirname(RESULTS_FILE), { recursive: true });
    writeFileSync(RESULTS_FILE, `${JSON.stringify(out, null, 2)}\n`);
    console.log(formatChaos(out));
    console.log(`\nwrote ${RESULTS_FILE}`);
    return passed ? 0 : 1;
  } finally {
    await connection.close();
    await ledger.close();
    await server.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
}

function formatChaos(r: ChaosReport & { seed: number; passed: boolean }): string {
  const rows: [string, string | number][] = [
    ['seed', r.seed],
    ['runs', r.runs],
    ['worker SIGKILLs', r.kills],
    ['server restarts', r.restarts],
    ['applied', r.applied],
    ['escalated (of which the row exists)', `${r.escalated} (${r.escalatedWithRow})`],
    ['other failures', r.otherFailures],
    ['failures by action/class/reason', JSON.stringify(r.failures)],
    ['duplicates', r.duplicates],
    ['lost (reported applied, no row)', r.lost],
    ['failed with a committed row', r.failedWithRow],
    ['stuck', r.stuck],
    ['max replays per operation', r.maxReplaysPerOperation],
    ['duration (s)', (r.durationMs / 1000).toFixed(1)],
    ['gate', r.passed ? 'passed' : 'FAILED'],
  ];
  const width = Math.max(...rows.map(([k]) => k.length));
  return ['chaos', ...rows.map(([k, v]) => `  ${k.padEnd(width)}  ${v}`)].join('\n');
}
