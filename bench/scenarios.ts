/** The benchmark's scenarios: what the loopback inventory service answers, and what each run must show. */
import type { Script } from '../examples/scripted-service';
import type { Inventory } from './activities';

export const INVENTORY_ROUTE = 'GET /inventory';
export const INVENTORY: Inventory = { items: [{ id: 'a1' }] };

export interface Scenario {
  name: string;
  description: string;
  /** The service's script, reset before every run. */
  script: Script;
  /** Requests the service must receive per run (= activity attempts). */
  expectedHits: number;
}

export const SCENARIOS: readonly Scenario[] = [
  {
    name: 'happy-path',
    description: 'one call that succeeds first time (200)',
    script: { [INVENTORY_ROUTE]: [{ status: 200, body: INVENTORY }] },
    expectedHits: 1,
  },
  {
    name: 'retry-once',
    description: 'one call that fails once with 503, then succeeds (server-side activity retry after 50 ms)',
    script: { [INVENTORY_ROUTE]: [{ status: 503 }, { status: 200, body: INVENTORY }] },
    expectedHits: 2,
  },
];
