/**
 * The router's workflow modules are preloaded into a reusable V8 context, and Temporal then deep-freezes every
 * object reachable from their exports (`@temporalio/worker`, reusable-vm: `deepFreeze` over the shared module
 * cache). zod ≥ 4.4 builds a schema's methods and parser on first use, as own properties of the schema, so a
 * frozen schema throws on its first `safeParse` ("Cannot define property safeParse, object is not extensible").
 * Hence the rule (docs/DESIGN.md, "Performance"): no zod schema is reachable from a sandbox module's exports;
 * schemas are built on first use by `lazy()`, whose cache is a closure variable that the freeze cannot reach.
 *
 * This test loads the sandbox entry points, walks every object reachable from the exports of every module they
 * load (as `deepFreeze` does: own property names and symbols, getters read), and lists any zod schema found.
 */
import { z } from 'zod';

const SANDBOX_ENTRIES = ['../../workflow', '../../workflows'];

function isZodSchema(value: unknown): boolean {
  return value instanceof z.ZodType || (typeof value === 'object' && value !== null && '_zod' in value);
}

function schemasReachable(root: unknown, from: string): string[] {
  const found: string[] = [];
  const seen = new WeakSet<object>();
  const walk = (value: unknown, path: string): void => {
    if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return;
    if (seen.has(value as object)) return;
    seen.add(value as object);
    if (isZodSchema(value)) {
      found.push(path);
      return;
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

describe('sandbox modules export no zod schema (Temporal freezes preloaded modules)', () => {
  test('no module loaded by workflow.ts or workflows/ exposes a schema through its exports', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loads the entry points for their module graph
    for (const entry of SANDBOX_ENTRIES) require(entry);
    const repo = require.resolve('../../workflow').replace(/workflow\.(ts|js)$/, '');
    const sandboxModules = Object.keys(require.cache).filter(
      (id) => id.startsWith(repo) && !id.includes('/node_modules/') && !id.includes('/test/'),
    );
    expect(sandboxModules.length).toBeGreaterThan(20);
    const found = sandboxModules.flatMap((id) => schemasReachable(require.cache[id]?.exports, id.slice(repo.length)));
    expect(found).toEqual([]);
  });

  test('the walk finds a schema where one is exported (the check can fail)', () => {
    const exportsWithSchema = { nested: { list: [z.object({ a: z.string() })] } };
    expect(schemasReachable(exportsWithSchema, 'm')).toEqual(['m.nested.list.0']);
  });
});
