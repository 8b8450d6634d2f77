/**
 * The circuit breaker shared by every worker of the namespace (docs/DESIGN.md, "Circuit breaker": shared mode):
 * the state lives in the entity workflow `breaker:<downstream>` (workflows/breaker-entity.ts); each worker keeps a
 * view of it, taken from the entity's answers and trusted for `cacheMs`.
 *
 * - Warm circuit (a call succeeded since it last closed, and no failure since): calls go straight to the
 *   downstream, with no wait on the shared state; the view is re-read in the background once older than `cacheMs`.
 *   A success is reported only when the entity had counted failures (it resets them).
 * - Cold or suspect circuit (no answer yet, or a failure since): one call at a time per worker and downstream,
 *   each outcome reported and its answer awaited before the next call, so every worker learns at once that the
 *   circuit opened. The first answer of the downstream (a 2xx or a 4xx) warms the circuit for every worker. An outage from cold therefore costs the downstream at most `threshold` + W − 1 calls for W
 *   workers (the failures that open the circuit, plus one in flight per other worker).
 * - Open: refused before anything is sent (`CircuitOpen`), from the view, with no wait on the shared state until
 *   the half-open time; then `recovery.breakerProbe` grants the single probe, with a lease, to one worker.
 *
 * The waits of one call on the entity add up to at most `timeoutMs` (default 2 000 ms; SharedStateChannel bounds
 * each); when that runs out — or the entity cannot be reached — before the call is sent, the call runs through the
 * worker's local breaker (activities/breaker.ts). (A call on a cold circuit may also queue behind this worker's
 * previous call to the same downstream: that is the downstream's time, the price of the threshold + W bound.)
 * A report that is lost after the call ran is dropped: the call is never run twice. Node-side only.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import type { UpdateDefinition } from '@temporalio/common';
import { breakerEntityWorkflow, viewOf, type BreakerEntityInput } from '../workflows/breaker-entity';
import {
  breakerEntityId,
  breakerProbeUpdate,
  breakerReportUpdate,
  breakerStateQuery,
  type BreakerView,
  type ProbeAnswer,
} from '../workflows/entity-definitions';
import { BreakerRegistry, CircuitOpen, DownstreamFault, type BreakerOptions, type Breakers } from './breaker';
import { newView, type View } from './shared-breaker-view';
import { HOLDER, SharedStateChannel, SharedStateUnavailable, type SharedStateOptions } from './shared-state';

/**
 * `breaker: { shared: true, … }`: one circuit per downstream for every worker of the namespace, kept in the
 * entity workflow `breaker:<downstream>` (docs/operating.md, "Shared mode").
 */
export interface SharedBreakerOptions extends BreakerOptions, SharedStateOptions {
  /** Keep the breaker in Temporal, shared by every worker of the namespace. */
  shared: true;
  /** How long a worker trusts its view of a warm circuit before re-reading it, in ms. @default 1_000 */
  cacheMs?: number;
  /** How long a granted half-open probe may stay unreported before another worker gets it, in ms. @default 30_000 */
  probeLeaseMs?: number;
}

export class SharedBreaker implements Breakers {
  readonly channel: SharedStateChannel;
  private readonly views = new Map<string, View>();
  private readonly cacheMs: number;
  /** What is left of the running call's wait on the shared state, ms (one budget of `timeoutMs` per call). */
  private readonly budgets = new AsyncLocalStorage<{ leftMs: number }>();

  constructor(
    private readonly options: SharedBreakerOptions & { taskQueue: string },
    readonly local: BreakerRegistry = new BreakerRegistry({
      threshold: options.threshold,
      halfOpenAfterMs: options.halfOpenAfterMs,
    }),
    private readonly now: () => number = Date.now,
  ) {
    this.channel = new SharedStateChannel(options, now);
    this.cacheMs = options.cacheMs ?? 1_000;
  }

  /** Same contract as `BreakerRegistry.execute`. @throws CircuitOpen while the shared circuit is open. */
  async execute<T>(downstream: string, fn: () => Promise<T>): Promise<T> {
    if (!this.channel.reachable()) return this.local.execute(downstream, fn);
    let ran = false;
    const once = () => {
      ran = true;
      return fn();
    };
    try {
      const budget = { leftMs: this.channel.timeoutMs };
      return await this.budgets.run(budget, () => this.route(downstream, this.view(downstream), once));
    } catch (err) {
      // The shared state failed before the call was sent: run it on local state. After it ran, never again.
      if (err instanceof SharedStateUnavailable && !ran) return this.local.execute(downstream, fn);
      throw err;
    }
  }

  /** The circuit's state as this worker last saw it. */
  state(downstream: string): 'closed' | 'open' | 'half_open' | 'isolated' {
    return this.views.get(downstream)?.state ?? 'closed';
  }

  private async route<T>(downstream: string, v: View, fn: () => Promise<T>): Promise<T> {
    if (v.state !== 'closed') return this.halfOpen(downstream, v, fn);
    if (v.warm) {
      if (this.now() - v.fetchedAtMs > this.cacheMs) this.rereadInBackground(downstream, v);
      return this.run(downstream, v, fn);
    }
    return this.oneAtATime(downstream, v, fn);
  }

  /** Cold or suspect: one call in flight per worker; each outcome's answer is awaited before the next call. */
  private async oneAtATime<T>(downstream: string, v: View, fn: () => Promise<T>): Promise<T> {
    const before = v.gate;
    let release!: () => void;
    v.gate = new Promise<void>((done) => (release = done));
    try {
      await before;
      if (v.fetchedAtMs === 0) await this.reread(downstream, v); // first call of this worker: is it warm already?
      if (v.state !== 'closed') return await this.halfOpen(downstream, v, fn);
      if (v.warm) release(); // warm by now: the calls queued behind this one need not wait for it
      return await this.run(downstream, v, fn);
    } finally {
      release();
    }
  }

  /** Open: refused from the view until the half-open time; then one worker gets the probe. */
  private async halfOpen<T>(downstream: string, v: View, fn: () => Promise<T>): Promise<T> {
    const waitMs = v.openUntilMs - this.now();
    if (waitMs > 0) throw new CircuitOpen(downstream, waitMs);
    // One probe request in flight per worker: Temporal limits the updates in flight on one workflow (10 by default).
    if (v.probing) {
      await v.probing.catch(() => undefined);
      return this.route(downstream, v, fn); // the view now says who holds the probe, or that the circuit closed
    }
    v.probing = this.waitShared((ms) =>
      this.updateEntity(downstream, breakerProbeUpdate, { holder: HOLDER, requestId: `${HOLDER}:${randomUUID()}` }, ms),
    );
    let answer: ProbeAnswer;
    try {
      answer = await v.probing;
    } finally {
      v.probing = undefined;
    }
    this.apply(v, answer.view);
    if (answer.granted) return this.run(downstream, v, fn, answer.leaseId);
    if (v.state === 'closed') return this.route(downstream, v, fn); // another worker's probe closed it
    throw new CircuitOpen(downstream, Math.max(0, v.openUntilMs - this.now()));
  }

  /**
   * Runs the call; reports what the entity needs to know, awaiting its answer (bounded). An error that is not a
   * `DownstreamFault` (a 4xx: the downstream answered) counts as a success, as in the local breaker.
   */
  private async run<T>(downstream: string, v: View, fn: () => Promise<T>, leaseId?: string): Promise<T> {
    const lease = leaseId === undefined ? {} : { leaseId };
    const answered = async () => {
      if (leaseId !== undefined || !v.warm || v.consecutiveFailures > 0)
        await this.report(downstream, v, { ok: true, ...lease });
    };
    let result: T;
    try {
      result = await fn();
    } catch (err) {
      if (!(err instanceof DownstreamFault)) {
        await answered();
        throw err;
      }
      v.warm = false;
      await this.report(downstream, v, { ok: false, ...lease });
      throw err.original;
    }
    await answered();
    return result;
  }

  /**
   * Reports an outcome. A probe's goes at once; other outcomes are batched: while this worker's report is in
   * flight, later outcomes wait and go together in the next one, so a worker has at most one report in flight per
   * downstream. The caller waits for its batch's answer at most `timeoutMs`; a lost report is dropped.
   */
  private async report(downstream: string, v: View, outcome: { ok: boolean; leaseId?: string }): Promise<void> {
    if (outcome.leaseId !== undefined) {
      const leaseId = outcome.leaseId;
      await this.waitShared((ms) => this.send(downstream, v, [outcome.ok], leaseId, ms)).catch(() => undefined);
      return;
    }
    if (!v.pending) {
      let settle!: () => void;
      const sent = new Promise<void>((done) => (settle = done));
      v.pending = { outcomes: [], sent, settle };
    }
    const batch = v.pending;
    batch.outcomes.push(outcome.ok);
    // The first send is bounded by this call's budget, so it gives up no later than this call stops waiting.
    if (!v.flushing) void this.flush(downstream, v, this.budgets.getStore()?.leftMs ?? this.channel.timeoutMs);
    await this.waitShared(async (ms) => {
      let timer: NodeJS.Timeout | undefined;
      const bound = new Promise<void>((done) => (timer = setTimeout(done, ms)));
      await Promise.race([batch.sent, bound]);
      clearTimeout(timer);
    }).catch(() => undefined); // budget spent: the batch still goes, this call does not wait for it
  }

  private async flush(downstream: string, v: View, firstMs: number): Promise<void> {
    v.flushing = true;
    let ms: number | undefined = firstMs;
    while (v.pending) {
      const batch = v.pending;
      v.pending = undefined;
      await this.send(downstream, v, batch.outcomes, undefined, ms).catch(() => undefined);
      ms = undefined;
      batch.settle();
    }
    v.flushing = false;
  }

  private async send(downstream: string, v: View, outcomes: boolean[], leaseId?: string, ms?: number): Promise<void> {
    try {
      const report = leaseId === undefined ? { holder: HOLDER, outcomes } : { holder: HOLDER, outcomes, leaseId };
      const view = await this.updateEntity(downstream, breakerReportUpdate, report, ms);
      this.apply(v, view);
    } catch (err) {
      if (!(err instanceof SharedStateUnavailable)) throw err; // lost: the channel now backs off to local state
    }
  }

  private async reread(downstream: string, v: View): Promise<void> {
    const id = breakerEntityId(downstream);
    const state = await this.waitShared((ms) =>
      this.channel.query(id, (c: Client) => c.workflow.getHandle(id).query(breakerStateQuery), ms),
    );
    if (state) this.apply(v, viewOf(state, Date.now()));
    else v.fetchedAtMs = this.now(); // no entity yet: cold
  }

  private rereadInBackground(downstream: string, v: View): void {
    if (v.rereading) return;
    v.rereading = true;
    this.budgets
      .exit(() => this.reread(downstream, v)) // in the background: not part of any call's wait
      .catch(() => undefined) // the channel backs off; the view stays as it was
      .finally(() => (v.rereading = false));
  }

  /** One wait on the shared state, within what is left of the running call's budget (else `timeoutMs`). */
  private async waitShared<T>(run: (ms: number) => Promise<T>): Promise<T> {
    const budget = this.budgets.getStore();
    const ms = budget ? budget.leftMs : this.channel.timeoutMs;
    if (ms <= 0) throw new SharedStateUnavailable('this call spent its wait on the shared state');
    const t0 = this.now();
    try {
      return await run(ms);
    } finally {
      if (budget) budget.leftMs -= this.now() - t0;
    }
  }

  private apply(v: View, view: BreakerView): void {
    v.state = view.state;
    v.consecutiveFailures = view.consecutiveFailures;
    v.warm = view.warm;
    v.openUntilMs = view.state === 'closed' ? 0 : this.now() + view.retryAfterMs;
    v.fetchedAtMs = this.now();
  }

  private view(downstream: string): View {
    let v = this.views.get(downstream);
    if (!v) this.views.set(downstream, (v = newView()));
    return v;
  }

  /** `update` of the downstream's breaker entity, started if it is not running, bounded by `ms`. */
  private updateEntity<R, A>(downstream: string, update: UpdateDefinition<R, [A]>, arg: A, ms?: number): Promise<R> {
    const start: [BreakerEntityInput] = [this.startInput(downstream)];
    return this.channel.update(breakerEntityWorkflow, breakerEntityId(downstream), start, update, [arg], undefined, ms);
  }

  private startInput(downstream: string): BreakerEntityInput {
    return {
      downstream,
      threshold: this.options.threshold ?? 5,
      halfOpenAfterMs: this.options.halfOpenAfterMs ?? 10_000,
      probeLeaseMs: this.options.probeLeaseMs ?? 30_000,
    };
  }
}
