/**
 * How the suite starts a TypeScript file in a child process: `node ...TS_CHILD_ARGS <file.ts>`, with ./swc-register.js
 * (swc transpiles each file as it loads; about 0.7 s of CPU for a worker process where ts-node took 3.5 s).
 */
import { join } from 'node:path';

/** Node's arguments before the script: `['-r', <test/setup/swc-register.js>]`. */
export const TS_CHILD_ARGS = ['-r', join(__dirname, 'swc-register.js')];
