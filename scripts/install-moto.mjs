#!/usr/bin/env node
/**
 * Installs moto (the AWS service emulator, `moto[server]` from PyPI) into the git-ignored `.moto/venv`, for the
 * AWS SDK tests (test/dialects/aws.test.ts). Idempotent: a stamp with the pinned version skips the install, so a
 * second run costs a file read. `MOTO_SERVER_PATH` (an existing `moto_server`) wins.
 * Writes `.moto/paths.json` = { server } for jest's global setup (test/setup/dialects-setup.ts).
 * Exits non-zero with the reason when moto cannot be had.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const DIR = join(ROOT, '.moto');
const VENV = join(DIR, 'venv');
/** Pinned; bump together with a run of test/dialects. */
const MOTO = 'moto[server]==5.2.5';

function python() {
  for (const exe of ['python3', 'python']) {
    try {
      execFileSync(exe, ['--version'], { stdio: 'ignore' });
      return exe;
    } catch {
      /* try the next one */
    }
  }
  throw new Error('python3 with the venv module is needed to install moto from PyPI; or set MOTO_SERVER_PATH');
}

function install() {
  const server = join(VENV, 'bin', 'moto_server');
  const stamp = join(DIR, 'version');
  if (existsSync(server) && existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === MOTO) return server;
  rmSync(VENV, { recursive: true, force: true });
  mkdirSync(DIR, { recursive: true });
  process.stderr.write(`install-moto: installing ${MOTO} into .moto/venv\n`);
  execFileSync(python(), ['-m', 'venv', VENV], { stdio: ['ignore', 'inherit', 'inherit'] });
  execFileSync(join(VENV, 'bin', 'python'), ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', MOTO], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (!existsSync(server)) throw new Error(`pip install ${MOTO} produced no moto_server`);
  writeFileSync(stamp, `${MOTO}\n`);
  return server;
}

const started = Date.now();
try {
  const fromEnv = process.env.MOTO_SERVER_PATH;
  if (fromEnv && !existsSync(fromEnv)) throw new Error(`MOTO_SERVER_PATH=${fromEnv} does not exist`);
  const server = fromEnv ? resolve(fromEnv) : install();
  mkdirSync(DIR, { recursive: true });
  writeFileSync(join(DIR, 'paths.json'), `${JSON.stringify({ server }, null, 2)}\n`);
  process.stderr.write(`install-moto: ${server} (${Date.now() - started} ms)\n`);
} catch (err) {
  process.stderr.write(`install-moto: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
}
