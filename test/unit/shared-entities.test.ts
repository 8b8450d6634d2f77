/**
 * The pure state machine of the shared breaker entity (workflows/breaker-entity.ts) and the sealing of shared
 * credentials (activities/shared-credentials.ts), and the plugin's shared options. Times are workflow epoch ms.
 */
import { BreakerRegistry } from '../../activities/breaker';
import { SharedBreaker } from '../../activities/shared-breaker';
import { seal, unseal } from '../../activities/shared-credentials';
import { supportTools } from '../../examples/support-tools';
import { RecoveryPlugin } from '../../plugin/recovery-plugin';
import { applyReport, grantProbe, viewOf } from '../../workflows/breaker-entity';
import type { BreakerEntityState } from '../../workflows/entity-definitions';

const input = { threshold: 3, halfOpenAfterMs: 1_000, probeLeaseMs: 5_000 };
const fresh = (): BreakerEntityState => ({
  downstream: 'svc',
  state: 'closed',
  consecutiveFailures: 0,
  warm: false,
  totals: { failures: 0, successes: 0, opens: 0, probesGranted: 0, leaseExpiries: 0 },
  handled: 0,
});

test('threshold consecutive failures open the circuit; a success in between resets the count', () => {
  const s = fresh();
  applyReport(s, input, { ok: false }, 0);
  applyReport(s, input, { ok: false }, 1);
  applyReport(s, input, { ok: true }, 2);
  expect(s).toMatchObject({ state: 'closed', consecutiveFailures: 0, warm: true });
  for (const t of [3, 4, 5]) applyReport(s, input, { ok: false }, t);
  expect(s).toMatchObject({ state: 'open', consecutiveFailures: 3, openedAtMs: 5, reopenAtMs: 1_005, warm: false });
  expect(viewOf(s, 105)).toEqual({ state: 'open', consecutiveFailures: 3, retryAfterMs: 900, warm: false });
  applyReport(s, input, { ok: false }, 6); // sent before it opened: already counted by the opening
  expect(s.totals).toEqual({ failures: 6, successes: 1, opens: 1, probesGranted: 0, leaseExpiries: 0 });
});

test('one probe per lease: granted after the half-open time, refused while out, regranted once its lease ran out', () => {
  const s = fresh();
  for (const t of [0, 1, 2]) applyReport(s, input, { ok: false }, t);
  expect(grantProbe(s, input, { holder: 'a', requestId: 'a1' }, 500)).toBe(false); // reopens at 1 002
  expect(grantProbe(s, input, { holder: 'a', requestId: 'a1' }, 1_002)).toBe(true);
  expect(grantProbe(s, input, { holder: 'b', requestId: 'b1' }, 1_003)).toBe(false);
  expect(viewOf(s, 1_003)).toEqual({ state: 'half_open', consecutiveFailures: 3, retryAfterMs: 1_000, warm: false });
  // a dies mid-probe: its lease (5 000 ms) runs out, b gets the probe; a's late report no longer counts.
  expect(grantProbe(s, input, { holder: 'b', requestId: 'b2' }, 6_002)).toBe(true);
  expect(s.probe).toEqual({ holder: 'b', leaseId: 'b2', leaseUntilMs: 11_002 });
  applyReport(s, input, { ok: true, leaseId: 'a1' }, 6_010);
  expect(s.state).toBe('half_open');
  applyReport(s, input, { ok: true, leaseId: 'b2' }, 6_020);
  expect(s).toMatchObject({ state: 'closed', consecutiveFailures: 0, warm: true, probe: undefined });
  expect(s.totals).toMatchObject({ probesGranted: 2, leaseExpiries: 1, opens: 1 });
  expect(grantProbe(s, input, { holder: 'c', requestId: 'c1' }, 6_030)).toBe(false); // closed: nothing to probe
});

test('a failed probe opens the circuit again for halfOpenAfterMs', () => {
  const s = fresh();
  for (const t of [0, 1, 2]) applyReport(s, input, { ok: false }, t);
  grantProbe(s, input, { holder: 'a', requestId: 'a1' }, 2_000);
  applyReport(s, input, { ok: false, leaseId: 'a1' }, 2_050);
  expect(s).toMatchObject({ state: 'open', openedAtMs: 2_050, reopenAtMs: 3_050, probe: undefined });
  expect(s.totals.opens).toBe(2);
});

test('a sealed credential opens only with its key and for its credential id; history holds no token', () => {
  const key = 'k'.repeat(32);
  const sealed = seal(key, 'crm', { token: 'at-secret-1', state: 'rt-secret-1' });
  expect(sealed).not.toContain('secret');
  expect(unseal(key, 'crm', sealed)).toEqual({ token: 'at-secret-1', state: 'rt-secret-1' });
  expect(() => unseal('x'.repeat(32), 'crm', sealed)).toThrow();
  expect(() => unseal(key, 'billing', sealed)).toThrow();
  expect(() => unseal(key, 'crm', 'not-sealed')).toThrow('malformed sealed credential');
});

describe('RecoveryPlugin: shared options', () => {
  const tools = () => supportTools('http://127.0.0.1:1').all;
  const config = { taskQueue: 'plugin-shared' };
  const refusal = (options: object): string => {
    try {
      new RecoveryPlugin({ tools: tools(), config, ...options });
    } catch (err) {
      return (err as Error).message;
    }
    return 'accepted';
  };

  test('breaker.shared builds a SharedBreaker, its entities on a queue of their own; local stays the default', () => {
    expect(new RecoveryPlugin({ tools: tools(), config }).breakers).toBeInstanceOf(BreakerRegistry);
    const plugin = new RecoveryPlugin({ tools: tools(), config, breaker: { shared: true, threshold: 2 } });
    expect(plugin.breakers).toBeInstanceOf(SharedBreaker);
    expect((plugin.breakers as SharedBreaker).channel.timeoutMs).toBe(2_000);
  });

  test('wrong shared options are refused naming the field', () => {
    expect(refusal({ breaker: { shared: true, cacheMs: -1 } })).toBe(
      'RecoveryPlugin: breaker.cacheMs must be a finite number of ms ≥ 1 (got -1)',
    );
    expect(refusal({ breaker: { shared: 'yes' } })).toBe(
      'RecoveryPlugin: breaker.shared must be true or false (got "yes")',
    );
    expect(refusal({ breaker: { cacheMs: 5 } })).toBe(
      'RecoveryPlugin: breaker.cacheMs is not an option (known: threshold, halfOpenAfterMs)',
    );
    expect(refusal({ credentialRefresh: { shared: true, key: 'short' } })).toBe(
      'RecoveryPlugin: credentialRefresh.key needs at least 32 bytes',
    );
    expect(refusal({ credentialRefresh: { shared: true, key: 'k'.repeat(32), ttl: 1 } })).toBe(
      'RecoveryPlugin: credentialRefresh.ttl is not an option (known: shared, client, taskQueue, timeoutMs, backoffMs, key, refreshLeaseMs, refreshWaitMs)',
    );
    expect(refusal({ credentialRefresh: { shared: true, key: 'k'.repeat(32) } })).toBe('accepted');
    expect(refusal({ entityWorker: 'yes' })).toBe(
      'RecoveryPlugin: `entityWorker` must be true, false or { workflowBundle } (a bundle that exports the entity workflows)',
    );
    expect(refusal({ entityWorker: false })).toBe('accepted');
  });

  test('shared: false is local mode, checked as the local options', () => {
    const plugin = new RecoveryPlugin({
      tools: tools(),
      config,
      breaker: { shared: false, threshold: 2 },
      credentialRefresh: { shared: false },
    });
    expect(plugin.breakers).toBeInstanceOf(BreakerRegistry);
    expect(plugin.refreshChannel).toBeUndefined();
    expect(refusal({ breaker: { shared: false, cacheMs: 5 } })).toBe(
      'RecoveryPlugin: breaker.cacheMs is not an option (known: threshold, halfOpenAfterMs)',
    );
    expect(refusal({ breaker: { shared: false, threshold: 0 } })).toBe(
      'RecoveryPlugin: breaker.threshold must be a positive integer (got 0)',
    );
    expect(refusal({ credentialRefresh: { shared: false, key: 'k'.repeat(32) } })).toBe(
      'RecoveryPlugin: credentialRefresh.key is not an option (known: shared)',
    );
  });

  test('in shared mode the entities default to the queue `<taskQueue>-entities`', () => {
    const key = 'k'.repeat(32);
    const plugin = new RecoveryPlugin({
      tools: tools(),
      config,
      breaker: { shared: true },
      credentialRefresh: { shared: true, key },
    });
    expect((plugin.breakers as SharedBreaker).channel.taskQueue).toBe('plugin-shared-entities');
    expect(plugin.refreshChannel?.taskQueue).toBe('plugin-shared-entities');
    const named = new RecoveryPlugin({
      tools: tools(),
      config,
      credentialRefresh: { shared: true, key, taskQueue: 'e' },
    });
    expect(named.refreshChannel?.taskQueue).toBe('e');
  });
});

describe('the entity workflows are in recovery-router/workflows, not in the router entry', () => {
  test('a workflows module of its own can re-export them from recovery-router/workflows (docs/operating.md, "Shared mode")', async () => {
    const index = await import('../../workflows');
    expect([typeof index.breakerEntityWorkflow, typeof index.credentialEntityWorkflow]).toEqual([
      'function',
      'function',
    ]);
    // The router's entry carries no workflow: the plugin adds the reconcile child (and the entities) to the bundle.
    const entry: Record<string, unknown> = await import('../../workflow');
    const workflows = Object.keys(entry).filter((k) => k.endsWith('Workflow'));
    expect(workflows).toEqual([]);
  });
});
