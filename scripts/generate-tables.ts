/**
 * `npm run docs:tables`: rewrites every generated block of README.md and docs/*.md from the code
 * (scripts/generated-blocks.ts) and prints the files it changed.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { markdownFiles, readDoc, regenerated } from './generated-blocks';

for (const file of markdownFiles()) {
  const text = readDoc(file);
  const next = regenerated(text, file);
  if (next !== text) {
    writeFileSync(join(__dirname, '..', file), next);
    console.log(`updated ${file}`);
  }
}
