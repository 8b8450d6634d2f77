/**
 * Every path the integration tier writes inside the working tree is one the lint ignores: CI runs them side by side
 * (.ci/run), and ESLint failed on a lock folder that vanished while it walked the tree (stop 43). Asks each tool
 * through its own API (`ESLint#isPathIgnored` on eslint.config.mjs, Prettier's `getFileInfo` on .prettierignore) in
 * one child process, since jest cannot load the ESM config; lints nothing.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { SCRATCH_PATHS } from '../setup/scratch-paths';

const ROOT = join(__dirname, '..', '..');
const folders = Object.values(SCRATCH_PATHS).map((p) => (typeof p === 'function' ? p(4242) : p));
/** A file of each kind the tools would read, inside `folder`. */
const inside = (folder: string) => ['a.ts', 'a.js', 'a.mjs', 'a.json', 'a.md'].map((f) => `${folder}/${f}`);

/** `{ path: [ignored by ESLint, ignored by Prettier] }` for each path, relative to the root. */
function ignoredBy(paths: string[]): Record<string, [boolean, boolean]> {
  const script = `
    const { ESLint } = require('eslint');
    const { getFileInfo } = require('prettier');
    (async () => {
      const eslint = new ESLint({ cwd: process.cwd() });
      const out = {};
      for (const p of JSON.parse(process.argv[1]))
        out[p] = [await eslint.isPathIgnored(p), (await getFileInfo(p, { ignorePath: '.prettierignore' })).ignored];
      process.stdout.write(JSON.stringify(out));
    })();`;
  return JSON.parse(
    execFileSync(process.execPath, ['-e', script, JSON.stringify(paths)], { cwd: ROOT, encoding: 'utf8' }),
  );
}

test('each scratch path of the integration tier is ignored by ESLint and by Prettier; the old root lock was not', () => {
  const files = folders.flatMap(inside);
  const answers = ignoredBy([...files, 'dist.lock/a.ts']);
  expect(answers).toEqual({
    ...Object.fromEntries(files.map((f) => [f, [true, true]])),
    'dist.lock/a.ts': [false, false],
  });
});
