/**
 * One circuit breaker per downstream, shared by every workflow whose activities run on this worker, so runs do not
 * each retry "reasonably" into one failing downstream (docs/DESIGN.md, "Circuit breaker", after the AWS
 * Well-Architected Agentic AI Lens). Built on cockatiel's `CircuitBreakerPolicy`
 * with a `ConsecutiveBreaker`: after `threshold` consecutive downstream faults the circuit opens; while open,
 * calls fail fast without touching the downstream; after `halfOpenAfterMs` one trial call is let through
 * (concurrent callers wait for its verdict), and its success closes the circuit.
 *
 * Only infrastructure faults count (what the classifier calls transient or outcome_unknown); a 4xx is the
 * downstream working correctly and counts as a success.
 *
 * Why a lost answer (`outcome_unknown`: a timeout or a reset after the request was sent) counts as a fault: it is
 * the breaker's classic signal (a downstream too slow to answer in time), and every further write sent into it
 * becomes one more operation that needs a lookup or a person. Opening the circuit bounds that number. What is
 * refused while it is open is refused before anything is sent (`transient/circuit_open`, phase preflight); the
 * router waits for the half-open trial within the call's retry budget, and a write still refused after it is
 * escalated as "never sent" (workflows/tool-router.ts), never silently replanned.
 */
import {
  BrokenCircuitError,
  circuitBreaker,
  ConsecutiveBreaker,
  handleType,
  type CircuitBreakerPolicy,
} from 'cockatiel';
import { z } from 'zod';
import { optionData, optionRules } from '../recovery/errors';
import { lazy } from '../recovery/lazy';

/**
 * The circuit breaker of each downstream (cockatiel's consecutive breaker): `threshold` faults in a row open it
 * for `halfOpenAfterMs` ms, then one trial call decides.
 */
export interface BreakerOptions {
  /** Consecutive downstream faults that open the circuit. @default 5 */
  threshold?: number;
  /** How long the circuit stays open before one trial call, in ms. @default 10_000 */
  halfOpenAfterMs?: number;
}

/**
 * The rules of `BreakerOptions` (the plugin's `breaker` option): an object with no other keys, `threshold` a safe
 * integer ≥ 1, `halfOpenAfterMs` a finite number of ms ≥ 0 (zod 4's `z.number()` refuses NaN and ±Infinity).
 * Each message is the rule, for `formatOptionIssue` to prefix with the field. Built on first use (recovery/lazy.ts).
 */
export const breakerOptionsSchema = lazy(() => {
  const { positiveInteger, msAtLeast, strictly } = optionRules(z);
  return strictly(
    { threshold: positiveInteger(), halfOpenAfterMs: msAtLeast(0) },
    ['threshold', 'halfOpenAfterMs'],
    'must be an object { threshold?: positive integer, halfOpenAfterMs?: ms ≥ 0 }',
  );
});

/** Thrown through the breaker to count a downstream fault; carries the original outcome. */
export class DownstreamFault extends Error {
  override readonly name = 'DownstreamFault';
  constructor(readonly original: unknown) {
    super('downstream fault');
  }
}

/** The circuit is open: `retryAfterMs` is the time until the next trial call, in ms. */
export class CircuitOpen extends Error {
  override readonly name = 'CircuitOpen';
  constructor(
    readonly downstream: string,
    readonly retryAfterMs: number,
  ) {
    super(`circuit open for ${downstream}`);
  }
}

/** What the tool activity runs calls through: the local `BreakerRegistry` or the shared one (activities/shared-breaker.ts). */
export interface Breakers {
  /** @throws CircuitOpen while the circuit is open (nothing was sent). */
  execute<T>(downstream: string, fn: () => Promise<T>): Promise<T>;
  /** The circuit's state for `downstream` (a tool's `downstream`, default its name). */
  state(downstream: string): 'closed' | 'open' | 'half_open' | 'isolated';
}

export class BreakerRegistry implements Breakers {
  private readonly breakers = new Map<string, { policy: CircuitBreakerPolicy; openedAtMs: number }>();
  private readonly threshold: number;
  private readonly halfOpenAfterMs: number;

  /**
   * @throws RangeError when `options` fails `breakerOptionsSchema`, naming the field
   *   (`breaker.threshold must be a positive integer (got 0)`).
   */
  constructor(
    options: BreakerOptions = {},
    private readonly now: () => number = Date.now,
  ) {
    const parsed = optionData(breakerOptionsSchema().safeParse(options), ['breaker'], (m) => new RangeError(m));
    this.threshold = parsed.threshold ?? 5;
    this.halfOpenAfterMs = parsed.halfOpenAfterMs ?? 10_000;
  }

  /**
   * Runs `fn` through the downstream's breaker. `fn` throws `DownstreamFault` to count a fault; its original
   * error is rethrown to the caller.
   * @throws CircuitOpen while the circuit is open (nothing was sent).
   */
  async execute<T>(downstream: string, fn: () => Promise<T>): Promise<T> {
    const entry = this.entry(downstream);
    try {
      return await entry.policy.execute(fn);
    } catch (err) {
      if (err instanceof BrokenCircuitError) {
        const remaining = Math.max(0, this.halfOpenAfterMs - (this.now() - entry.openedAtMs));
        throw new CircuitOpen(downstream, remaining);
      }
      if (err instanceof DownstreamFault) throw err.original;
      throw err;
    }
  }

  /** The state of a downstream's circuit: `closed`, `open`, `half_open` or `isolated`. */
  state(downstream: string): 'closed' | 'open' | 'half_open' | 'isolated' {
    const s = this.breakers.get(downstream)?.policy.state ?? 0;
    return (['closed', 'open', 'half_open', 'isolated'] as const)[s] ?? 'closed';
  }

  private entry(downstream: string) {
    let entry = this.breakers.get(downstream);
    if (!entry) {
      const policy = circuitBreaker(handleType(DownstreamFault), {
        halfOpenAfter: this.halfOpenAfterMs,
        breaker: new ConsecutiveBreaker(this.threshold),
      });
      const created = { policy, openedAtMs: 0 };
      policy.onBreak(() => {
        created.openedAtMs = this.now();
      });
      this.breakers.set(downstream, created);
      entry = created;
    }
    return entry;
  }
}
