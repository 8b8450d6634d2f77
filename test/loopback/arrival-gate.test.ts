/**
 * examples/arrival-gate.ts: the storm barrier of the fault-injecting servers (oauth-service, mcp-payments-server,
 * test/fixtures/cluster-service.ts). Real timers, caps of tens of ms.
 */
import { z } from 'zod';
import { defineTool } from '../../activities/define-tool';
import { arrivalGate, GATE_CAP_MS } from '../../examples/arrival-gate';

/** Records the order in which the given passes resolved, by index. */
function order(passes: Promise<void>[]): { done: number[] } {
  const done: number[] = [];
  passes.forEach((p, i) => void p.then(() => done.push(i)));
  return { done };
}
const tick = () => new Promise((r) => setImmediate(r));

test('the first size arrivals go on together, once the last arrived; later ones at once', async () => {
  const gate = arrivalGate(3, 60_000);
  const seen = order([gate.pass(), gate.pass()]);
  await tick();
  expect([seen.done, gate.held, gate.open]).toEqual([[], 2, false]);
  await gate.pass();
  await tick();
  expect([seen.done, gate.held, gate.open]).toEqual([[0, 1], 0, true]);
  await expect(gate.pass()).resolves.toBeUndefined();
});

test('fewer than size arrived at the cap: those held go on, and the gate stays open', async () => {
  const gate = arrivalGate(5, 40);
  const t0 = Date.now();
  await Promise.all([gate.pass(), gate.pass()]);
  const waited = Date.now() - t0;
  expect(waited).toBeGreaterThanOrEqual(39);
  expect([gate.held, gate.open]).toEqual([0, true]);
  await expect(gate.pass()).resolves.toBeUndefined();
});

test('release() lets every held arrival go on (a server closing)', async () => {
  const gate = arrivalGate(2, 60_000);
  const held = gate.pass();
  gate.release();
  await expect(held).resolves.toBeUndefined();
  expect(gate.open).toBe(true);
});

test('bad sizes and caps are refused with a RangeError; the default cap is below the default StartToClose', () => {
  for (const size of [0, -1, 1.5, Number.NaN]) expect(() => arrivalGate(size)).toThrow(RangeError);
  for (const cap of [0, -5, Number.NaN]) expect(() => arrivalGate(2, cap)).toThrow(RangeError);
  const held = defineTool({
    name: 'held_read',
    description: 'A read whose request a gate holds.',
    input: z.object({}),
    output: z.object({}),
    effect: 'read',
    execute: async () => ({}),
  });
  expect([GATE_CAP_MS, held.spec.startToCloseTimeoutMs]).toEqual([20_000, 30_000]);
});
