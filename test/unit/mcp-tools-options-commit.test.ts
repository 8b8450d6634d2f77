/** `mcpTools`' per-tool `commit` windows and `defineTool`'s: one rule (activities/commit-windows.ts), one message. */
import { z } from 'zod';
import { defineTool } from '../../activities/define-tool';
import { checkOptions } from '../../activities/mcp/tools-options';

const refusals = [
  [{ settleMs: -1 }, 'commit.settleMs must be an integer of ms from 0 to 86400000'],
  [{ lookupLagMs: 1.5 }, 'commit.lookupLagMs must be an integer of ms from 0 to 86400000'],
  [{ later: 1 }, 'commit.later is not an option (known: settleMs, lookupLagMs)'],
  ['soon', '`commit` must be an object { settleMs?, lookupLagMs? }'],
] as const;

test.each(refusals)('mcpTools: commit %p is refused naming the tool and the field', (commit, message) => {
  expect(() => checkOptions({ tools: { create_payment: { commit: commit as never } } })).toThrow(
    `mcpTools: \`tools.create_payment\` ${message}`,
  );
});

test.each(refusals)('defineTool: commit %p is refused with the same rule', (commit, message) => {
  const def = {
    name: 'pay',
    description: 'Pays.',
    input: z.object({}),
    output: z.object({}),
    effect: 'write',
    execute: async () => ({}),
    commit,
  };
  expect(() => defineTool(def as never)).toThrow(`defineTool("pay"): ${message}`);
});

test('commit windows in range are accepted, and the spec carries them', () => {
  expect(() =>
    checkOptions({ tools: { create_payment: { commit: { settleMs: 0, lookupLagMs: 2_000 } } } }),
  ).not.toThrow();
  const def = { name: 'pay', description: 'Pays.', input: z.object({}), output: z.object({}), effect: 'write' };
  const tool = defineTool({ ...def, execute: async () => ({}), commit: { settleMs: 0, lookupLagMs: 2_000 } } as never);
  expect([tool.spec.settleMs, tool.spec.lookupLagMs]).toEqual([0, 2_000]);
});
