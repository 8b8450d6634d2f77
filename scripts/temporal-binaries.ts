/**
 * This repository's Temporal binaries, for its tests, bench and scripts (not part of the package: the library finds
 * the CLI with server/temporal-cli.ts): `.temporal/bin/paths.json`, written by `scripts/install-temporal.mjs`
 * (which honours `TEMPORAL_CLI_PATH`, `TEMPORAL_TEST_SERVER_PATH` and PATH). Runs the install script when the
 * file is missing, so a fresh clone needs no manual step.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export interface TemporalBinaries {
  /** Absolute path of the Temporal CLI (`temporal server start-dev`). */
  cli: string;
  /** Absolute path of the time-skipping test server. */
  testServer: string;
}

const ROOT = resolve(__dirname, '..');
const PATHS_FILE = join(ROOT, '.temporal', 'bin', 'paths.json');

/**
 * Returns the binaries' paths, installing them first if needed.
 * @throws Error when the install script fails (its stderr says why) or a recorded path no longer exists.
 */
export function temporalBinaries(): TemporalBinaries {
  const recorded = readPaths();
  if (recorded && existsSync(recorded.cli) && existsSync(recorded.testServer)) return recorded;
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'install-temporal.mjs')], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const installed = readPaths();
  if (!installed) throw new Error(`scripts/install-temporal.mjs did not write ${PATHS_FILE}`);
  return installed;
}

function readPaths(): TemporalBinaries | undefined {
  if (!existsSync(PATHS_FILE)) return undefined;
  const parsed = JSON.parse(readFileSync(PATHS_FILE, 'utf8')) as Partial<TemporalBinaries>;
  if (typeof parsed.cli !== 'string' || typeof parsed.testServer !== 'string') return undefined;
  return { cli: parsed.cli, testServer: parsed.testServer };
}
