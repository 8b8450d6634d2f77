/** temporal.config.json and the connection target: bad input is refused with the file and the field. No server. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, defaultConfigPath, loadConfig } from '../../config/load';
import { resolveConnection } from '../../config/connection';
import { RecoveryPlugin, RecoveryPluginOptionsError } from '../../plugin/recovery-plugin';
import { supportTools } from '../../examples/support-tools';

const dir = mkdtempSync(join(tmpdir(), 'rr-config-'));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

describe('loadConfig', () => {
  test('the repository’s temporal.config.json holds the design defaults', () => {
    const c = loadConfig(join(__dirname, '..', '..', 'temporal.config.json'));
    expect(c.budgets).toEqual({
      perCallRetries: 3,
      perTurnReplans: 2,
      perCallRepairs: 2,
      perRunAttempts: 50,
      consecutiveUnknownToolTurns: 2,
    });
    expect(c.backoff).toMatchObject({ initialIntervalMs: 500, backoffCoefficient: 2 });
    expect(c.embeddedServer).toEqual({
      ip: '127.0.0.1',
      port: 7233,
      uiPort: 8233,
      namespace: 'default',
      dbFilename: '.temporal/data/dev.sqlite',
    });
  });

  test('an empty object gets every default', () => {
    expect(loadConfig(file('empty.json', '{}')).taskQueue).toBe('recovery-router');
  });

  test('a wrong field is refused with the file path and the dotted field', () => {
    const path = file('bad.json', JSON.stringify({ budgets: { perCallRetries: -1 } }));
    expect(() => loadConfig(path)).toThrow(ConfigError);
    try {
      loadConfig(path);
    } catch (err) {
      expect(err).toMatchObject({ file: path, field: 'budgets.perCallRetries' });
      expect((err as Error).message).toContain(`${path}: budgets.perCallRetries:`);
    }
  });

  test('an unknown key is refused, naming it (a typo must not silently fall back to a default)', () => {
    const path = file('typo.json', JSON.stringify({ budgets: { perCallRetry: 5 } }));
    expect(() => loadConfig(path)).toThrow(/budgets: Unrecognized key: "perCallRetry"/);
  });

  test('backoff whose maximum is below its initial interval is refused with the rule', () => {
    const path = file(
      'backoff.json',
      JSON.stringify({ backoff: { initialIntervalMs: 2000, maximumIntervalMs: 1000 } }),
    );
    expect(() => loadConfig(path)).toThrow(/backoff.maximumIntervalMs: .*cannot be less than its initialIntervalMs/);
  });

  test('text that is not JSON is refused with the file path', () => {
    const path = file('broken.json', '{ "taskQueue": ');
    expect(() => loadConfig(path)).toThrow(
      new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: not valid JSON`),
    );
  });

  test('a folder instead of a file is a ConfigError, not a raw EISDIR', () => {
    expect(() => loadConfig(dir)).toThrow(new ConfigError(dir, undefined, ['cannot be read (EISDIR)']));
  });

  test('a file that starts with a UTF-8 byte order mark is read', () => {
    expect(loadConfig(file('bom.json', '\uFEFF{"taskQueue":"q"}')).taskQueue).toBe('q');
  });

  test('a named file that does not exist is refused; the default file may be absent', () => {
    expect(() => loadConfig(join(dir, 'missing.json'))).toThrow(/missing.json: file not found/);
  });

  describe('the default file is temporal.config.json in the working directory', () => {
    const cwd = process.cwd();
    afterEach(() => process.chdir(cwd));

    test('read from process.cwd() at call time; a relative path is relative to it too', () => {
      const project = mkdtempSync(join(tmpdir(), 'rr-project-'));
      writeFileSync(join(project, 'temporal.config.json'), '{"taskQueue":"from-cwd"}');
      writeFileSync(join(project, 'other.json'), '{"taskQueue":"relative"}');
      process.chdir(project);
      expect(defaultConfigPath()).toBe(join(process.cwd(), 'temporal.config.json'));
      expect(loadConfig().taskQueue).toBe('from-cwd');
      expect(loadConfig('other.json').taskQueue).toBe('relative');
    });

    test('absent → the defaults; bad → refused with its path and field', () => {
      const project = mkdtempSync(join(tmpdir(), 'rr-project-'));
      process.chdir(project);
      expect(loadConfig().taskQueue).toBe('recovery-router');
      writeFileSync(join(project, 'temporal.config.json'), '{"budgets":{"perRunAttempts":0}}');
      expect(() => loadConfig()).toThrow(
        new ConfigError(join(process.cwd(), 'temporal.config.json'), 'budgets.perRunAttempts', [
          'budgets.perRunAttempts: Too small: expected number to be >=1',
        ]),
      );
    });
  });

  test("perCallRetries beyond Temporal's int32 maximumAttempts is refused, top level and per tool; the largest fits", () => {
    const rule = "budgets.perCallRetries: must be at most 2147483646 (Temporal's maximumAttempts is an int32)";
    expect(() => loadConfig({ budgets: { perCallRetries: 2_147_483_647 } })).toThrow(
      new ConfigError('options.config', 'budgets.perCallRetries', [rule]),
    );
    expect(() => loadConfig({ tools: { t: { budgets: { perCallRetries: 2 ** 40 } } } })).toThrow(`tools.t.${rule}`);
    expect(loadConfig({ budgets: { perCallRetries: 2_147_483_646 } }).budgets.perCallRetries).toBe(2_147_483_646);
  });

  test('an object is validated as a file is, named options.config', () => {
    expect(loadConfig({ taskQueue: 'q', budgets: { perCallRetries: 1 } }).budgets.perCallRetries).toBe(1);
    expect(() => loadConfig({ embeddedServer: { port: 0 } })).toThrow(
      new ConfigError('options.config', 'embeddedServer.port', [
        'embeddedServer.port: Too small: expected number to be >=1',
      ]),
    );
  });
});

describe('resolveConnection', () => {
  const config = loadConfig({});

  test('no environment configuration → the embedded dev server of temporal.config.json', () => {
    const t = resolveConnection(config, { TEMPORAL_CONFIG_FILE: join(dir, 'none.toml') });
    expect(t).toMatchObject({ embedded: true, namespace: 'default', connectionOptions: { address: '127.0.0.1:7233' } });
  });

  test('TEMPORAL_ADDRESS and TEMPORAL_NAMESPACE win over temporal.config.json', () => {
    const t = resolveConnection(config, {
      TEMPORAL_ADDRESS: 'temporal.example:7233',
      TEMPORAL_NAMESPACE: 'agents',
      TEMPORAL_CONFIG_FILE: join(dir, 'none.toml'),
    });
    expect(t).toMatchObject({
      embedded: false,
      namespace: 'agents',
      connectionOptions: { address: 'temporal.example:7233' },
    });
  });

  test('a temporal.toml profile is read (TEMPORAL_PROFILE selects it)', () => {
    const toml = file(
      'temporal.toml',
      '[profile.cloud]\naddress = "ns.acct.tmprl.cloud:7233"\nnamespace = "ns.acct"\napi_key = "key-123"\n',
    );
    const t = resolveConnection(config, { TEMPORAL_CONFIG_FILE: toml, TEMPORAL_PROFILE: 'cloud' });
    expect(t).toMatchObject({
      embedded: false,
      namespace: 'ns.acct',
      connectionOptions: { address: 'ns.acct.tmprl.cloud:7233', apiKey: 'key-123' },
    });
  });
});

describe('RecoveryPlugin options', () => {
  test('no tools → RecoveryPluginOptionsError saying what to pass', () => {
    expect(() => new RecoveryPlugin({ tools: [] })).toThrow(
      new RecoveryPluginOptionsError('RecoveryPlugin: `tools` must be a non-empty array of defineTool(...) results'),
    );
  });

  test('a config object with a wrong field → ConfigError naming the field', () => {
    expect(
      () =>
        new RecoveryPlugin({
          tools: supportTools('http://127.0.0.1:1').all,
          config: { budgets: { perTurnReplans: 1.5 } } as never,
        }),
    ).toThrow(/budgets.perTurnReplans/);
  });

  test('two tools with one name are refused', () => {
    const { checkInventory } = supportTools('http://127.0.0.1:1');
    expect(() => new RecoveryPlugin({ tools: [checkInventory, checkInventory] })).toThrow(
      /check_inventory.*declared twice/,
    );
  });
});
