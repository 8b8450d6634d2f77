/**
 * Loads and validates `temporal.config.json`. A bad file is refused at start with the file's path and the
 * field that is wrong; nothing half-parsed is ever used.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { RecoveryConfigSchema, type RecoveryConfig } from './schema';

/** The default config file, at the project root. */
export const DEFAULT_CONFIG_PATH = resolve(__dirname, '..', 'temporal.config.json');

/** A config file that cannot be used. `field` is the dotted path of the first wrong field, when there is one. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(
    readonly file: string,
    readonly field: string | undefined,
    readonly problems: readonly string[],
  ) {
    super(`${file}: ${problems.join('; ')}`);
  }
}

/**
 * Reads a config file and validates it against `RecoveryConfigSchema`, filling defaults.
 * @param file path of the JSON file; default: `temporal.config.json` at the project root. A missing default file
 *   yields the defaults; a missing explicitly named file is an error.
 * @throws ConfigError when the file is missing (if named), is not JSON, or a field fails the schema.
 */
export function loadConfig(file?: string): RecoveryConfig {
  const path = resolve(file ?? DEFAULT_CONFIG_PATH);
  if (!existsSync(path)) {
    if (file === undefined) return RecoveryConfigSchema.parse({});
    throw new ConfigError(path, undefined, ['file not found']);
  }
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ConfigError(path, undefined, [`cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'})`]);
  }
  return parseConfig(text.replace(/^\uFEFF/, ''), path);
}

/**
 * Validates config text. `source` names it in errors.
 * @throws ConfigError as `loadConfig` does.
 */
export function parseConfig(text: string, source: string): RecoveryConfig {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new ConfigError(source, undefined, [`not valid JSON (${(err as Error).message})`]);
  }
  const parsed = RecoveryConfigSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((i) => `${i.path.length ? i.path.join('.') : '(root)'}: ${i.message}`);
  const first = parsed.error.issues[0];
  throw new ConfigError(source, first && first.path.length ? first.path.join('.') : undefined, problems);
}
