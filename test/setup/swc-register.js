/**
 * A require hook for the test suite's child processes (worker processes, cluster workers): `.ts` files are
 * transpiled by @swc/core (already installed: @temporalio/worker bundles workflows with it), one file at a time, type
 * annotations stripped and nothing checked (`tsc --noEmit` checks them). Start a child with
 * `node -r <this file> script.ts` (./ts-child.ts's `TS_CHILD_ARGS`).
 *
 * Why not `ts-node/register/transpile-only`: it runs TypeScript's own emitter on every file, about 3.5 s of CPU for a
 * worker process that loads the plugin (measured: `node -r ts-node/register/transpile-only -e
 * "require('./plugin/recovery-plugin')"`), against 0.7 s here; the chaos and cluster suites start a dozen such
 * processes on CI's 2 cores. The tsconfig's `isolatedModules` keeps every file transpilable alone.
 * Source: @swc/core `transformSync` (https://swc.rs/docs/usage/core#transformsync), Node's `require.extensions`.
 */
'use strict';
const { readFileSync } = require('node:fs');
const { transformSync } = require('@swc/core');

const OPTIONS = require('./swc-options');

require.extensions['.ts'] = function compileTs(module, filename) {
  const { code } = transformSync(readFileSync(filename, 'utf8'), { ...OPTIONS, filename });
  module._compile(code, filename);
};
