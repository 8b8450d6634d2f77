/**
 * Counts what workflow code creates while runs execute on a debug-mode worker in this thread (bench/promises.ts):
 * the workflow VM's promises, seen by a promise hook (a promise whose constructor is neither this module's `Promise`
 * nor the main context's was made in a workflow VM context), and the bytes allocated, from V8's sampling heap
 * profiler with the objects garbage collection took back included. Node's docs: "Promise hooks"
 * (`v8.promiseHooks`), "Inspector".
 */
import type { HeapProfiler } from 'node:inspector';
import { Session } from 'node:inspector/promises';
import v8 from 'node:v8';
import { runInThisContext } from 'node:vm';
import { temporal } from '@temporalio/proto';
import type { Workload } from '../scale/rows';

/** One workload's counts, per measured run. */
export interface WorkloadCount {
  workload: Workload;
  runs: number;
  promisesPerRun: number;
  /**
   * Each measured run's promises, read once the worker is quiet after it. Not always the same under load: a
   * finished run's eviction can still land in the next run's count.
   */
  promisesByRun: number[];
  /** KiB allocated by the whole process per run (worker, client, the inventory service). */
  allocatedKiBPerRun: number;
  /** KiB of it allocated inside the workflow VM's promise hook (its stack capture). */
  hookKiBPerRun: number;
  /** The last measured run's history: its events, and their size encoded as the server stores them (protobuf). */
  history: { events: number; bytes: number };
}

/**
 * The main context's `Promise`. Under jest, this module runs in a context of its own, and Node's own promises (its
 * `fs/promises`, the native bridge's) are the main context's: neither is a workflow VM's.
 */
const MAIN_REALM_PROMISE: unknown = runInThisContext('Promise');

/** Bytes between heap samples (the profiler's mean interval). */
const SAMPLING_INTERVAL_BYTES = 512;
/** The promise hook's functions in @temporalio/worker's lib/workflow/vm-shared.js. */
const HOOK_FUNCTIONS = new Set([
  'init',
  'settled',
  'Error.prepareStackTrace',
  'cutoffStructuredStackTrace',
  'formatCallsiteName',
  'getActivator',
]);

/** Runs `runOnce` `warmup` times, then `runs` times counted, one after another. */
export async function countDuring(
  workload: Workload,
  o: { runs: number; warmup: number },
  runOnce: (tag: string, i: number) => Promise<{ fetchHistory(): Promise<temporal.api.history.v1.IHistory> }>,
): Promise<WorkloadCount> {
  let promises = 0;
  const hook = v8.promiseHooks.createHook({
    init(promise: Promise<unknown>) {
      if (promise.constructor !== Promise && promise.constructor !== MAIN_REALM_PROMISE) promises += 1;
    },
  });
  const session = new Session();
  session.connect();
  try {
    for (let i = 0; i < o.warmup; i++) await runOnce('warmup', i);
    await quiet(() => promises);
    promises = 0;
    await session.post('HeapProfiler.startSampling', {
      samplingInterval: SAMPLING_INTERVAL_BYTES,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
    let last: Awaited<ReturnType<typeof runOnce>> | undefined;
    const promisesByRun: number[] = [];
    for (let i = 0; i < o.runs; i++) {
      const before = promises;
      last = await runOnce('measured', i);
      // The worker evicts a finished run after its result is out: wait for that, so each run counts its own.
      await quiet(() => promises);
      promisesByRun.push(promises - before);
    }
    const { profile } = await session.post('HeapProfiler.stopSampling');
    const history = (await last?.fetchHistory()) ?? {};
    const bytes = allocatedBytes(profile.head);
    return {
      workload,
      runs: o.runs,
      promisesPerRun: promisesByRun.reduce((sum, n) => sum + n, 0) / o.runs,
      promisesByRun,
      allocatedKiBPerRun: bytes.total / 1024 / o.runs,
      hookKiBPerRun: bytes.hook / 1024 / o.runs,
      history: {
        events: history.events?.length ?? 0,
        bytes: temporal.api.history.v1.History.encode(history).finish().length,
      },
    };
  } finally {
    hook();
    session.disconnect();
  }
}

/** How long a count must stay the same to be read, ms; and the most time given to it, ms. */
const QUIET_MS = 30;
const QUIET_LIMIT_MS = 2_000;

/** Resolves once `read()` has not changed for QUIET_MS (or after QUIET_LIMIT_MS). */
async function quiet(read: () => number): Promise<void> {
  const until = Date.now() + QUIET_LIMIT_MS;
  for (let seen = read(); Date.now() < until; seen = read()) {
    await new Promise((ok) => setTimeout(ok, QUIET_MS));
    if (read() === seen) return;
  }
}

type ProfileNode = Pick<HeapProfiler.SamplingHeapProfileNode, 'selfSize' | 'callFrame'> & {
  children?: readonly ProfileNode[];
};

/** The sampled bytes of a profile's tree, and those of the nodes under the promise hook's functions. */
export function allocatedBytes(head: ProfileNode): { total: number; hook: number } {
  let total = 0;
  let hook = 0;
  const walk = (node: ProfileNode, underHook: boolean) => {
    const inHook =
      underHook || (node.callFrame.url.endsWith('vm-shared.js') && HOOK_FUNCTIONS.has(node.callFrame.functionName));
    total += node.selfSize;
    if (inHook) hook += node.selfSize;
    for (const child of node.children ?? []) walk(child, inHook);
  };
  walk(head, false);
  return { total, hook };
}
