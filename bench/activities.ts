/**
 * The baseline's activity: the same GET the subject's `check_inventory` tool sends (examples/support-tools.ts),
 * with nothing around it — no schema, no breaker, no classifier. A non-2xx answer throws a plain Error, which the
 * retry policy retries like any other.
 */

/** What the inventory service answers. */
export interface Inventory {
  items: { id: string }[];
}

/** Builds the baseline activities against the service at `baseUrl` (`http://127.0.0.1:<port>`). */
export function createBaselineActivities(baseUrl: string) {
  return {
    /** @throws Error `HTTP <status>` for a non-2xx answer. */
    async fetchInventory(sku: string): Promise<Inventory> {
      const res = await fetch(`${baseUrl}/inventory?sku=${encodeURIComponent(sku)}`, {
        headers: { accept: 'application/json' },
      });
      const text = await res.text();
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      return JSON.parse(text) as Inventory;
    },
  };
}

export type BaselineActivities = ReturnType<typeof createBaselineActivities>;
