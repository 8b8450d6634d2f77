import { z } from 'zod';
import { defineTool } from './activities/define-tool';
import { RecoveryPlugin } from './plugin/recovery-plugin';
import { loadConfig, parseConfig } from './config/load';
import { argsHash, nextDelay, DEFAULT_BACKOFF_POLICY } from './recovery';
import { tmpdir } from 'node:os';
const show = (label: string, f: () => unknown) => {
  try { const r = f(); console.log(label, '→ OK', typeof r === 'object' ? JSON.stringify(r)?.slice(0, 300) : r); }
  catch (e) { console.log(label, '→', (e as Error).name, ':', String((e as Error).message).slice(0, 200), '| len', String((e as Error).message).length); }
};
const base = { name: 'probe', description: 'probe', input: z.object({ a: z.string() }), output: z.object({}), effect: 'read', execute: async () => ({}) } as never as Record<string, unknown>;
show('defineTool(undefined)', () => defineTool(undefined as never));
show('defineTool 1MB name', () => defineTool({ ...base, name: 'x'.repeat(1_000_000) } as never));
show('defineTool constructor', () => (defineTool({ ...base, name: 'constructor' } as never) as { spec: unknown }).spec);
const p = () => defineTool(base as never);
show('plugin fake tool', () => new RecoveryPlugin({ tools: [{ spec: 1 } as never], config: {} }).catalog);
show('plugin fn config', () => new RecoveryPlugin({ tools: [p()], config: { budgets: { perCallRetries: (() => 9) as never } } as never }).config.budgets);
show('plugin symbol taskQueue', () => new RecoveryPlugin({ tools: [p()], config: { taskQueue: Symbol('q') as never } as never }).config.taskQueue);
show('plugin bigint', () => new RecoveryPlugin({ tools: [p()], config: { budgets: { perCallRetries: 3n as never } } as never }));
show('plugin NaN', () => new RecoveryPlugin({ tools: [p()], config: { budgets: { perCallRetries: NaN } } as never }));
show('plugin dir', () => new RecoveryPlugin({ tools: [p()], config: tmpdir() }));
show('loadConfig("")', () => loadConfig(''));
show('tools.__proto__', () => { const c = parseConfig('{"tools":{"__proto__":{"budgets":{"perCallRetries":0}}}}', 'x'); return { keys: Object.keys(c.tools), proto: Object.getPrototypeOf(c.tools) === Object.prototype, inherited: (c.tools as any).budgets }; });
show('dup keys', () => parseConfig('{"taskQueue":"a","taskQueue":"b"}', 'x').taskQueue);
show('getter', () => argsHash(Object.defineProperty({}, 'x', { enumerable: true, get() { throw new Error('boom at /srv/app/secret.ts:1'); } })));
show('nextDelay extreme', () => nextDelay({ retryNumber: 1, retryAfterMs: Number.MAX_SAFE_INTEGER, policy: { ...DEFAULT_BACKOFF_POLICY, maxRetryAfterMs: Number.MAX_SAFE_INTEGER }, random: () => 0.99 }));
