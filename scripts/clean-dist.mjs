#!/usr/bin/env node
// Removes dist/ before a build, so a file deleted from the sources never lingers in the package.
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

rmSync(join(dirname(fileURLToPath(import.meta.url)), '..', 'dist'), { recursive: true, force: true });
