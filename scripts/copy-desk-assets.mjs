#!/usr/bin/env node
// Copies the desk's page (operator/desk/public: HTML, script, stylesheet) beside the built server, which reads them
// from `<its folder>/public`; tsc copies no .html, .css or plain .js. Part of `npm run build`.
import { cpSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
cpSync(join(root, 'operator', 'desk', 'public'), join(root, 'dist', 'operator', 'desk', 'public'), { recursive: true });
