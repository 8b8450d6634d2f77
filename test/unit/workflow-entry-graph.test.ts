/**
 * Validate once, at the edge (docs/DESIGN.md, "What the model sees"): text reaches the router's workflow code
 * already redacted on the Node side (activity results and failures, approval and review previews, the public form
 * of the workflow's own messages), so the modules a README workflow bundles (`recovery-router/workflow` and the
 * plugin's own workflows) load no redaction rules. Pure: a child process that loads the modules, no server.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const REDACTION = /\/recovery\/(redact[^/]*|observed-state|classify\/(text|public-parts|build))\.ts$/;

/** The repository modules a fresh process loads after requiring `entries` (paths relative to the repository). */
function loadedBy(entries: readonly string[]): string[] {
  const repo = join(__dirname, '..', '..');
  const script = [
    `for (const e of ${JSON.stringify(entries)}) require(e);`,
    'const root = process.cwd() + "/";',
    'const mine = Object.keys(require.cache).filter((k) => k.startsWith(root) && !k.includes("/node_modules/"));',
    'process.stdout.write(JSON.stringify(mine.map((k) => k.slice(root.length - 1))));',
  ].join('\n');
  const out = execFileSync(process.execPath, ['-r', 'ts-node/register/transpile-only', '-e', script], {
    cwd: repo,
    encoding: 'utf8',
    env: { ...process.env, TS_NODE_PROJECT: join(repo, 'tsconfig.json') },
  });
  return JSON.parse(out) as string[];
}

describe("the README workflow's modules carry no redaction rules", () => {
  test('recovery-router/workflow and the plugin own workflows (both modes) load none of them', () => {
    const loaded = loadedBy(['./workflow', './workflows/own-workflows', './workflows/own-workflows-shared']);
    expect(loaded.length).toBeGreaterThan(40);
    expect(loaded.filter((m) => REDACTION.test(m))).toEqual([]);
    // Nor a test beside a workflow file (workflows/router/x.test.ts): nothing the bundle's entries import.
    expect(loaded.filter((m) => /\.test\.ts$|\/test\//.test(m))).toEqual([]);
    expect(loaded).toEqual(expect.arrayContaining(['/workflows/router/recoveries.ts']));
  });

  test('the probe sees them where they are loaded (the check can fail): the activities redact', () => {
    const loaded = loadedBy(['./activities/preview-arguments']);
    expect(loaded).toEqual(expect.arrayContaining(['/recovery/redact.ts', '/recovery/observed-state.ts']));
  });
});
