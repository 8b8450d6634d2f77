/**
 * zod, loaded on first use instead of when a module of the router loads.
 *
 * Why: a worker preloads the router's workflow modules once per reusable V8 context (`RECOVERY_PRELOAD_MODULES`),
 * and Temporal then deep-freezes every module loaded while preloading (`@temporalio/worker`, reusable-vm
 * `deepFreeze`). If the router imported zod at the top, zod would be one of them, frozen for the user's workflow
 * code too — and many of zod's string formats (`z.email()`, `z.ipv4()`, `z.ulid()`, …) reset `lastIndex` on zod's
 * own RegExps, which then throws. Loaded here, from a schema builder that runs inside a workflow, zod lands in that
 * run's module cache like any module the user's code imports; the router keeps this one instance, with the schemas
 * it built (`lazy()`), for every later run of the context.
 *
 * On first load it installs zod's English messages (zod's package.json says `"sideEffects": false`, so a workflow
 * bundle drops the side effect that would; without it every issue reads "Invalid input").
 *
 * Node side (activities, tests) it is a plain `require('zod')`, once.
 * @returns zod's `z` namespace.
 */
import type { z as Zod } from 'zod';

let loaded: typeof Zod | undefined;

export function zod(): typeof Zod {
  if (loaded === undefined) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use (see above)
    const { z } = require('zod') as { z: typeof Zod };
    z.config(z.locales.en());
    loaded = z;
  }
  return loaded;
}
