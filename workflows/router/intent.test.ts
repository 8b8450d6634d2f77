/**
 * intentOf: the run that began a run's intent, from the facts Temporal records (notes/lifecycle-probes/README.md,
 * verified on the dev server), and the writes `sentBefore` lets through without a look-up. Pure unit tests: no
 * workers, no servers.
 */
import { recordFailure } from '../../recovery/call-ledger';
import { dedupWrite, failure, readyScope, routerContext, spec } from '../../test/fixtures/router';
import { chainIntent, intentOf, sentBefore } from './intent';

const run = (o: Partial<Parameters<typeof intentOf>[0]> & { runId: string }) => ({
  firstExecutionRunId: o.firstExecutionRunId ?? o.runId,
  originalExecutionRunId: o.originalExecutionRunId ?? o.runId,
  continuedFromExecutionRunId: o.continuedFromExecutionRunId,
  attempt: o.attempt ?? 1,
  cronSchedule: o.cronSchedule,
});

describe('intentOf', () => {
  it('a new start, and the id started again after it closed: each its own run id', () => {
    expect(intentOf(run({ runId: 'r1' }))).toBe('r1');
    expect(intentOf(run({ runId: 'r2' }))).toBe('r2');
  });

  it('a workflow retry and a continue-as-new keep the chain’s first run', () => {
    expect(
      intentOf(run({ runId: 'r2', firstExecutionRunId: 'r1', continuedFromExecutionRunId: 'r1', attempt: 2 })),
    ).toBe('r1');
    expect(intentOf(run({ runId: 'c2', firstExecutionRunId: 'c1', continuedFromExecutionRunId: 'c1' }))).toBe('c1');
  });

  it('a reset keeps the base run’s started event, so its intent', () => {
    expect(intentOf(run({ runId: 'reset', firstExecutionRunId: 'base', originalExecutionRunId: 'base' }))).toBe('base');
  });

  it('cron: each run its own intent, its first retry the run it retries, a later retry none', () => {
    const cronSchedule = '@every 4s';
    expect(intentOf(run({ runId: 'k1', cronSchedule }))).toBe('k1');
    const second = { firstExecutionRunId: 'k1', continuedFromExecutionRunId: 'k1', cronSchedule };
    expect(intentOf(run({ runId: 'k2', ...second }))).toBe('k2');
    expect(intentOf(run({ runId: 'k2b', ...second, continuedFromExecutionRunId: 'k2', attempt: 2 }))).toBe('k2');
    expect(intentOf(run({ runId: 'k2c', ...second, continuedFromExecutionRunId: 'k2b', attempt: 3 }))).toBeUndefined();
  });
});

describe('chainIntent', () => {
  it('intent: once fixed, the chain’s intent is read back as it is (a carried state keeps its own)', () => {
    expect(chainIntent({ intent: 'r1' })).toBe('r1');
    expect(chainIntent({ intent: '' })).toBe('');
  });
});

describe('sentBefore: the writes that need no look-up before they are sent', () => {
  const oneShot = dedupWrite({
    name: 'pay',
    idempotency: { carrier: 'header', name: 'Idempotency-Key', deduplicates: false },
  });

  it('intent: a read is never looked up first', () => {
    const ctx = routerContext([spec()]);
    expect(sentBefore(ctx, readyScope(spec()))).toBeUndefined();
  });

  it('intent: a write whose reconciliation runs in this run joins it, not a second look-up', () => {
    const ctx = routerContext([oneShot]);
    ctx.st.reconciling = ['wf-1:s1'];
    ctx.reconciliations.set('wf-1:s1', new Promise(() => {}));
    expect(sentBefore(ctx, readyScope(oneShot))).toBeUndefined();
  });

  it('intent: a replay-safe write (its receiver deduplicates) that no earlier run left reconciling', () => {
    const write = dedupWrite();
    expect(sentBefore(routerContext([write]), readyScope(write))).toBeUndefined();
  });

  it('intent: a write this run already called (its failure is in the ledger) is not looked up again here', () => {
    const ctx = routerContext([oneShot]);
    const scope = readyScope(oneShot);
    ctx.st.calls = recordFailure(ctx.st.calls, {
      tool: 'pay',
      argsHash: scope.hash,
      credentialVersion: 0,
      failure: failure({ tool: 'pay' }),
      endedAtMs: 1_000,
    });
    expect(sentBefore(ctx, scope)).toBeUndefined();
  });
});
