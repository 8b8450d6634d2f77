/**
 * The router's workflow modules are preloaded into a reusable V8 context, and Temporal then deep-freezes every
 * object reachable from their exports (`@temporalio/worker`, reusable-vm: `deepFreeze` over the shared module
 * cache). zod ≥ 4.4 builds a schema's methods and parser on first use, as own properties of the schema, so a
 * frozen schema throws on its first `safeParse` ("Cannot define property safeParse, object is not extensible").
 * Hence the rule (docs/DESIGN.md, "Performance"): no zod schema is reachable from a sandbox module's exports; the
 * sandbox modules check with shapes (recovery/shape.ts), which keep no state and import no zod.
 *
 * This test loads the sandbox entry points, walks every object reachable from the exports of every module they
 * load (as `deepFreeze` does: own property names and symbols, getters read), and lists any zod schema found.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { z } from 'zod';

const SANDBOX_ENTRIES = ['../../workflow', '../../workflows'];

function isZodSchema(value: unknown): boolean {
  return value instanceof z.ZodType || (typeof value === 'object' && value !== null && '_zod' in value);
}

/**
 * Walks every object reachable from `root` as `deepFreeze` does (own property names and symbols, getters read) and
 * returns the paths where `matches` holds. `stopAtFrozen`: do not enter an object that is already frozen, as
 * `deepFreeze` does not; `stopAtMatch`: do not enter a match.
 */
function reachable(
  root: unknown,
  from: string,
  matches: (value: unknown) => boolean,
  { stopAtFrozen = false, stopAtMatch = false } = {},
): string[] {
  const found: string[] = [];
  const seen = new WeakSet<object>();
  const walk = (value: unknown, path: string): void => {
    if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return;
    if (seen.has(value as object) || (stopAtFrozen && Object.isFrozen(value))) return;
    seen.add(value as object);
    if (matches(value)) {
      found.push(path);
      if (stopAtMatch) return;
    }
    if (typeof value !== 'object') return;
    for (const key of [...Object.getOwnPropertyNames(value), ...Object.getOwnPropertySymbols(value)]) {
      let child: unknown;
      try {
        child = (value as Record<PropertyKey, unknown>)[key];
      } catch {
        continue;
      }
      walk(child, `${path}.${String(key)}`);
    }
  };
  walk(root, from);
  return found;
}

const schemasReachable = (root: unknown, from: string): string[] =>
  reachable(root, from, isZodSchema, { stopAtMatch: true });

/** The exports of every repository module the sandbox entry points load, with each module's path. */
function sandboxModuleExports(): { exports: unknown; id: string }[] {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loads the entry points for their module graph
  for (const entry of SANDBOX_ENTRIES) require(entry);
  const repo = require.resolve('../../workflow').replace(/workflow\.(ts|js)$/, '');
  return Object.keys(require.cache)
    .filter((id) => id.startsWith(repo) && !id.includes('/node_modules/') && !id.includes('/test/'))
    .map((id) => ({ exports: require.cache[id]?.exports, id: id.slice(repo.length) }));
}

describe('sandbox modules export no zod schema (Temporal freezes preloaded modules)', () => {
  test('no module loaded by workflow.ts or workflows/ exposes a schema through its exports', () => {
    const sandboxModules = sandboxModuleExports();
    expect(sandboxModules.length).toBeGreaterThan(20);
    const found = sandboxModules.flatMap((m) => schemasReachable(m.exports, m.id));
    expect(found).toEqual([]);
  });

  test('the walk finds a schema where one is exported (the check can fail)', () => {
    const exportsWithSchema = { nested: { list: [z.object({ a: z.string() })] } };
    expect(schemasReachable(exportsWithSchema, 'm')).toEqual(['m.nested.list.0']);
  });
});

/**
 * Where Temporal's `deepFreeze` would freeze a global or sticky RegExp: it walks as `schemasReachable` does but stops
 * at an object that is already frozen. `replace`, `exec` and `test` write such a RegExp's `lastIndex`, which
 * throws once it is frozen ("Cannot assign to read only property 'lastIndex'").
 */
function statefulRegExpsFrozen(root: unknown, from: string): string[] {
  return reachable(root, from, (v) => v instanceof RegExp && (v.global || v.sticky), { stopAtFrozen: true });
}

describe('sandbox modules export no global RegExp that the freeze would reach', () => {
  test('every global or sticky RegExp reachable from their exports sits behind an already frozen object', () => {
    const found = sandboxModuleExports().flatMap((m) => statefulRegExpsFrozen(m.exports, m.id));
    expect(found).toEqual([]);
  });

  test('the walk finds a global RegExp in an unfrozen export, and not behind a frozen one (the check can fail)', () => {
    expect(statefulRegExpsFrozen({ rules: [{ pattern: /a/g }, { pattern: /b/ }] }, 'm')).toEqual(['m.rules.0.pattern']);
    expect(statefulRegExpsFrozen({ rules: Object.freeze([{ pattern: /a/g }]) }, 'm')).toEqual([]);
  });
});

describe('the sandbox modules load no zod, even when they check (their checks are shapes: recovery/shape.ts)', () => {
  test('a process that requires workflow.ts and workflows/ and checks every input shape has no zod module', () => {
    const repo = join(__dirname, '..', '..');
    const script = [
      "require('./workflow');",
      "require('./workflows');",
      "const zodLoaded = () => Object.keys(require.cache).some((k) => k.includes('/node_modules/zod/'));",
      'const before = zodLoaded();',
      "const checks = [require('./recovery/budget-schemas').budgetPolicySchema().safeParse({}).success,",
      "  require('./workflows/tool-plan').toolPlanInputSchema().safeParse({ calls: [] }).success,",
      "  require('./workflows/agent-input').agentOptionsSchema().safeParse({}).success,",
      "  require('./workflows/planner-contract').plannerDecisionSchema().safeParse({ kind: 'stop' }).success,",
      "  require('./recovery/failure').toolFailureSchema().safeParse({}).success];",
      'const after = zodLoaded();',
      "require('zod');",
      'process.stdout.write(JSON.stringify([before, checks, after, zodLoaded()]));',
    ].join('\n');
    const out = execFileSync(process.execPath, ['-r', 'ts-node/register/transpile-only', '-e', script], {
      cwd: repo,
      encoding: 'utf8',
      env: { ...process.env, TS_NODE_PROJECT: join(repo, 'tsconfig.json') },
    });
    // The last answer shows the probe sees zod once it is loaded.
    expect(JSON.parse(out)).toEqual([false, [true, true, true, false, false], false, true]);
  });
});
