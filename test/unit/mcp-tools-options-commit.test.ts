/** `mcpTools`' per-tool `commit` windows: checked like `defineTool`'s (activities/commit-windows.ts). */
import { checkOptions } from '../../activities/mcp/tools-options';

test.each([
  [{ settleMs: -1 }, 'mcpTools: `tools.create_payment` `commit.settleMs` must be an integer of ms from 0 to'],
  [{ later: 1 }, 'mcpTools: `tools.create_payment` `commit` has an unknown key (known: settleMs, lookupLagMs)'],
  ['soon', 'mcpTools: `tools.create_payment` `commit` must be an object { settleMs?, lookupLagMs? }'],
])('commit %p is refused naming the tool and the field', (commit, message) => {
  expect(() => checkOptions({ tools: { create_payment: { commit: commit as never } } })).toThrow(message);
});

test('commit windows in range are accepted', () => {
  expect(() =>
    checkOptions({ tools: { create_payment: { commit: { settleMs: 0, lookupLagMs: 2_000 } } } }),
  ).not.toThrow();
});
