/**
 * intentOf: the run that began a run's intent, from the facts Temporal records (notes/lifecycle-probes/README.md,
 * verified on the dev server). Pure unit tests: no workers, no servers.
 */
import { intentOf } from '../../workflows/router/intent';

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
