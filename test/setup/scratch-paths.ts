/**
 * Where the integration tier writes inside the working tree, relative to the repository's root. CI runs the lint
 * (ESLint, then Prettier) beside that tier (.ci/run), and a folder that appears and vanishes while ESLint walks the
 * tree fails the lint (`ENOENT: no such file or directory, scandir '…/dist.lock'`, stop 43), so every one of them is
 * a path both tools ignore: test/unit/scratch-paths.test.ts checks each against eslint.config.mjs and .prettierignore.
 */
export const SCRATCH_PATHS = {
  /** The build the consumer and interop tests pack (`npm run build`). */
  build: 'dist',
  /** The pack lock (test/temporal/fixtures/consumer-project.ts, `withPackLock`): an atomic `mkdir`. */
  packLock: 'node_modules/.cache/recovery-router/dist.lock',
  /** test/temporal/observability-snippet.test.ts's scratch project, one per jest worker process. */
  snippet: (pid: number) => `.snippet-${pid}`,
  /** What the regression gates write (bench/results). */
  benchResults: 'bench/results',
} as const;
