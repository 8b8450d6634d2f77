/**
 * A barrier for the fault-injecting servers of the examples and tests: the first `size` requests that reach it go on
 * only once all `size` arrived, so they are refused (or answered) together, as in a storm of concurrent calls. When
 * fewer have arrived `capMs` after the first, the ones held so far go on and the gate stays open: a run too loaded to
 * gather them all ends in its test's exact counts, not in a hang.
 *
 * The cap must be below the StartToClose timeout of every activity whose request the gate holds. An attempt held
 * past it is timed out and retried by Temporal behind the gate: a 20 000 ms hold under crm_read's 10 000 ms
 * StartToClose let one of 30 calls run its retry after the refresh, inside one activity, on a loaded machine (stop
 * 43). Time is a parameter: test/loopback/arrival-gate.test.ts runs it in milliseconds.
 */

/** The default cap, ms: below defineTool's default StartToClose (30 000 ms, activities/define-tool.ts). */
export const GATE_CAP_MS = 20_000;

export interface ArrivalGate {
  /** Resolves when this arrival may go on: at once when the gate is open, else when it opens. */
  pass(): Promise<void>;
  /** Arrivals the gate has held so far (0 to `size`). */
  readonly held: number;
  /** True once all `size` arrived or the cap passed: later arrivals are not held. */
  readonly open: boolean;
  /** Lets every held arrival go on and opens the gate (a server's `close`). */
  release(): void;
}

/**
 * @param size the arrivals to gather, an integer ≥ 1.
 * @param capMs how long after the first arrival the gate opens anyway, ms (> 0).
 * @throws RangeError when `size` or `capMs` is out of range.
 */
export function arrivalGate(size: number, capMs = GATE_CAP_MS): ArrivalGate {
  if (!Number.isInteger(size) || size < 1)
    throw new RangeError(`arrivalGate: size must be an integer ≥ 1, got ${size}`);
  if (!(capMs > 0)) throw new RangeError(`arrivalGate: capMs must be > 0, got ${capMs}`);
  const waiting: (() => void)[] = [];
  let timer: NodeJS.Timeout | undefined;
  let open = false;
  const release = () => {
    open = true;
    clearTimeout(timer);
    for (const go of waiting.splice(0)) go();
  };
  return {
    get held() {
      return waiting.length;
    },
    get open() {
      return open;
    },
    release,
    pass() {
      if (open) return Promise.resolve();
      const passed = new Promise<void>((go) => waiting.push(go));
      if (waiting.length === 1) timer = setTimeout(release, capMs).unref();
      if (waiting.length >= size) release();
      return passed;
    },
  };
}
