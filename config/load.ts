/**
 * Loads and validates `temporal.config.json`. A bad file is refused at start with the file's path and the
 * field that is wrong; nothing half-parsed is ever used.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { RecoveryConfigSchema, type RecoveryConfig, type RecoveryConfigInput } from './schema';
import { RecoveryError } from '../recovery/recovery-error';

/** The config file's name, looked up in the working directory when no path is given. */
export const CONFIG_FILE_NAME = 'temporal.config.json';

/** The default config file: `temporal.config.json` in the working directory (`process.cwd()`) at call time. */
export function defaultConfigPath(): string {
  return resolve(process.cwd(), CONFIG_FILE_NAME);
}

/** A config file that cannot be used. `field` is the dotted path of the first wrong field, when there is one. */
export class ConfigError extends RecoveryError<'invalid_config'> {
  override readonly name = 'ConfigError';
  static override readonly codes: readonly string[] = ['invalid_config'];
  constructor(
    readonly file: string,
    readonly field: string | undefined,
    readonly problems: readonly string[],
  ) {
    super('invalid_config', `${file}: ${problems.join('; ')}`);
  }
}

/**
 * The policy, validated against `RecoveryConfigSchema` with its defaults filled in.
 * @param config the path of a JSON file (relative to the working directory), or a config object; default:
 *   `temporal.config.json` in the working directory. A missing default file yields the defaults; a missing named
 *   file is an error.
 * @param source what names a config object in errors.
 * @throws ConfigError when the file is missing (if named), unreadable or not JSON, or a field fails the schema: the
 *   message starts with the file's path (`source` for an object) and names the field.
 */
export function loadConfig(config?: string | RecoveryConfigInput, source = 'options.config'): RecoveryConfig {
  if (config !== undefined && typeof config !== 'string') return parseConfigObject(config, source);
  const path = resolve(config ?? defaultConfigPath());
  if (!existsSync(path)) {
    if (config === undefined) return RecoveryConfigSchema.parse({});
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
  return parseConfigObject(raw, source);
}

/**
 * Validates a config value. `source` names it in errors.
 * @throws ConfigError naming `source` and the first wrong field.
 */
export function parseConfigObject(raw: unknown, source: string): RecoveryConfig {
  const parsed = RecoveryConfigSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((i) => `${i.path.length ? i.path.join('.') : '(root)'}: ${i.message}`);
  const first = parsed.error.issues[0];
  throw new ConfigError(source, first && first.path.length ? first.path.join('.') : undefined, problems);
}
