/**
 * Pure unit tests of the scale benchmark's rows (bench/scale/rows.ts) and the bare agent's observations
 * (bench/workflows.ts): no workers, no servers, no timing.
 */
import {
  formatScale,
  medianMeasured,
  scaleRow,
  scaleRowOf,
  type Measured,
  type Workload,
} from '../../bench/scale/rows';
import { toolResultObservation } from '../../bench/workflows';

const m = (runsPerSec: number, p95Ms = 1_000, peakRssMiB = 400, cpuMsPerCall = 10): Measured => ({
  runsPerSec,
  p95Ms,
  peakRssMiB,
  cpuMsPerCall,
});
const measured: Record<Workload, Measured> = {
  bareActivityWorkflow: m(40),
  toolPlanWorkflow: m(38, 1_100, 440, 11),
  bareAgentWorkflow: m(25, 2_000, 420, 16),
  agentWorkflow: m(20, 2_500, 462, 20),
};

describe('scaleRow', () => {
  it('holds toolPlanWorkflow to the one-activity workflow', () => {
    const row = scaleRow(100, 'toolPlanWorkflow', measured);
    expect(row).toMatchObject({
      n: 100,
      workflow: 'toolPlanWorkflow',
      baseline: 'bareActivityWorkflow',
      runsPerSec: 38,
      bareRunsPerSec: 40,
      throughputRatio: 0.95,
      throughputRatioVsOneActivity: 0.95,
      bareP95Ms: 1_000,
      rssRatio: 1.1,
      cpuRatio: 1.1,
    });
  });

  it('holds agentWorkflow to the bare agent loop, and keeps the one-activity ratio', () => {
    const row = scaleRow(1_000, 'agentWorkflow', measured);
    expect(row).toEqual({
      n: 1_000,
      workflow: 'agentWorkflow',
      baseline: 'bareAgentWorkflow',
      runsPerSec: 20,
      bareRunsPerSec: 25,
      throughputRatio: 0.8,
      throughputRatioVsOneActivity: 0.5,
      p95Ms: 2_500,
      bareP95Ms: 2_000,
      rssMiB: 462,
      bareRssMiB: 420,
      rssRatio: 1.1,
      cpuMsPerCall: 20,
      bareCpuMsPerCall: 16,
      cpuRatio: 1.25,
      repeats: 1,
      throughputRatios: [0.8],
    });
  });

  it('prints one line per row with both ratios', () => {
    const table = formatScale([scaleRow(1_000, 'agentWorkflow', measured)]).split('\n');
    expect(table).toHaveLength(4);
    expect(table[3]).toMatch(/^1000\s+agentWorkflow\s+bareAgentWorkflow\s+20 \(25\)\s+×0\.8\s+×0\.8\s+×0\.5\s/);
  });
});

describe('repeats', () => {
  it("takes each metric's median over the repeats (the middle one, or the mean of the two middle ones)", () => {
    expect(medianMeasured([m(30, 900, 410, 9), m(10, 1_100, 400, 12), m(20, 1_000, 450, 10)])).toEqual(
      m(20, 1_000, 410, 10),
    );
    expect(medianMeasured([m(30), m(10)])).toEqual(m(20));
    expect(() => medianMeasured([])).toThrow(RangeError);
  });

  it("a row of repeats is the ratio of the medians, and keeps each repeat's own ratio in order", () => {
    const repeats: Record<Workload, Measured[]> = {
      bareActivityWorkflow: [m(40), m(50), m(20)],
      toolPlanWorkflow: [m(38), m(40), m(22)],
      bareAgentWorkflow: [m(25), m(25), m(25)],
      agentWorkflow: [m(20), m(25), m(30)],
    };
    const row = scaleRowOf(500, 'toolPlanWorkflow', repeats);
    expect(row).toMatchObject({ runsPerSec: 38, bareRunsPerSec: 40, throughputRatio: 0.95, repeats: 3 });
    expect(row.throughputRatios).toEqual([0.95, 0.8, 1.1]);
    expect(scaleRowOf(500, 'agentWorkflow', repeats)).toMatchObject({
      throughputRatio: 1,
      throughputRatioVsOneActivity: 0.63,
      throughputRatios: [0.8, 1, 1.2],
    });
  });
});

describe('toolResultObservation', () => {
  it('is a tool_result of the planner contract, empty only without a value', () => {
    const call = { callId: 'inv', tool: 'check_inventory', args: { sku: 'SKU-1' } };
    expect(toolResultObservation(call, { items: [] }, 1)).toEqual({
      kind: 'tool_result',
      ...call,
      value: { items: [] },
      empty: false,
      turn: 1,
    });
    expect(toolResultObservation(call, null, 2)).toMatchObject({ empty: true, turn: 2 });
  });
});
