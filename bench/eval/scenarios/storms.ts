/**
 * Storms on a read: the stock service answers an error from the first request on for a seeded while, then 200 —
 * a 503 storm that does not say when it ends (transient), and a 429 storm whose `Retry-After` says how many seconds
 * are left (RFC 9110 §10.2.3). A retry before the storm's end cannot succeed.
 */
import type { WorldAnswer } from '../world-service';
import { REACTIONS, hasFields, judgeSuccess, lastSuccessEnd, type RunContext, type Scenario } from '../scenario';

interface Storm {
  name: string;
  exercises: string;
  description: string;
  /** Shortest storm and how much longer a seed may make it, ms. */
  minMs: number;
  spanMs: number;
  /** The answer while the storm lasts, `leftMs` before its end. */
  answer(leftMs: number): WorldAnswer;
  routerActions: readonly string[];
}

function stormScenario(storm: Storm): Scenario {
  return {
    name: storm.name,
    exercises: storm.exercises,
    description: storm.description,
    persistent: false,
    routerActions: storm.routerActions,
    prepare({ index, random, env }: RunContext) {
      const sku = `SKU-${storm.name}-${index}`;
      const stormMs = storm.minMs + Math.floor(random() * storm.spanMs);
      let firstAt: number | undefined;
      return {
        goal: `How many units of ${sku} are in stock? (run ${index})`,
        script: {
          on: REACTIONS,
          steps: [{ id: 'stock', tool: 'get_stock', args: { sku } }],
          submit: { resultFrom: 'stock' },
        },
        arrange() {
          env.world.fault(`GET /inventory/${sku}`, (_n, now) => {
            firstAt ??= now;
            const left = firstAt + stormMs - now;
            return left > 0 ? storm.answer(left) : undefined;
          });
        },
        curedAtMs: () => (firstAt ?? 0) + stormMs,
        judge: (o) =>
          judgeSuccess(o, {
            matches: (r) => hasFields(r, { sku, units: 4 }),
            what: 'stock reading',
            at: lastSuccessEnd(o, 'get_stock'),
          }),
      };
    },
  };
}

export const transientStorm = stormScenario({
  name: 'transient-503',
  exercises: 'transient',
  description: 'a read answered 503 (no Retry-After) for 0.3–2.5 s from its first request, then 200',
  minMs: 300,
  spanMs: 2_200,
  answer: () => ({ status: 503, body: { error: 'unavailable' } }),
  routerActions: ['retry'],
});

export const rateLimitStorm = stormScenario({
  name: 'rate-limit-storm',
  exercises: 'transient (a 429 storm with Retry-After)',
  description: '429 with `Retry-After` (the seconds left) for 1.2–3 s from the first request, then 200',
  minMs: 1_200,
  spanMs: 1_800,
  answer: (left) => ({
    status: 429,
    headers: { 'retry-after': String(Math.ceil(left / 1_000)) },
    body: { error: 'rate_limited' },
  }),
  routerActions: ['retry'],
});
