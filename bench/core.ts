/**
 * The pure core's cost per failed call, in µs: classify (a 503 with `Retry-After`) + the gate (an identical call
 * after it, once its backoff is over) + the route table. Measured in this process, in batches after a warm-up; the
 * median batch's time per call. No I/O, no Temporal.
 */
import { classify, type CallContext } from '../recovery/classify';
import { gateIdenticalCall } from '../recovery/call-ledger';
import { argsHash } from '../recovery/canonical';
import { routeFor } from '../recovery/routes';
import { summarize } from './stats';

const CTX: CallContext = {
  tool: 'check_inventory',
  callId: 'c1',
  effect: 'read',
  deduplicates: false,
  approvalCanLift: false,
  nowMs: 1_000,
  diagnosticRef: 'bench/core',
};

/** µs per classify + gate + route, median of `batches` batches of `perBatch` calls. */
export function coreMicrosPerCall(batches = 7, perBatch = 2_000): number {
  const hash = argsHash({ sku: 'SKU-1' });
  const one = (i: number) => {
    const failure = classify(
      { kind: 'http', status: 503, headers: { 'retry-after': '1' }, body: { error: 'busy' } },
      CTX,
    );
    const previous = {
      tool: CTX.tool,
      argsHash: hash,
      credentialVersion: 0,
      failure,
      endedAtMs: 1_000,
      earliestRetryAtMs: 2_000,
    };
    gateIdenticalCall(previous, { tool: CTX.tool, argsHash: hash, credentialVersion: 0 }, 2_000 + i);
    return routeFor(failure).action;
  };
  for (let i = 0; i < perBatch; i++) one(i); // warm-up
  const times: number[] = [];
  for (let b = 0; b < batches; b++) {
    const t0 = performance.now();
    for (let i = 0; i < perBatch; i++) one(i);
    times.push(((performance.now() - t0) * 1000) / perBatch);
  }
  return summarize(times).median;
}
