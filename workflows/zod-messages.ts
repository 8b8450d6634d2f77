/**
 * zod's global configuration, set while the module loads, before any workflow runs.
 *
 * - English error messages: zod installs them as a module side effect, and zod's package.json says
 *   `"sideEffects": false`, so Temporal's webpack bundle drops it; without this every issue reads "Invalid input".
 * - zod ≥ 4.6 also fills `globalThis.__zod_globalConfig` lazily (its memoizer, on the first container schema
 *   built). A worker that preloads the router's modules (`RECOVERY_PRELOAD_MODULES`) freezes the globals after
 *   preloading (`@temporalio/worker`, reusable-vm `deepFreeze`), and the router builds its schemas on first use
 *   (`lazy()`), so without a first container built here the first workflow's schema throws "Cannot add property
 *   memoizer, object is not extensible". The throwaway schema below is built and used once, and kept by no one.
 *
 * Import it (for its effect) from each workflow module that reports zod issues.
 */
import { z } from 'zod';

z.config(z.locales.en());
z.object({ warm: z.array(z.string()) }).safeParse({ warm: [] });
