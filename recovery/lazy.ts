/**
 * A zod schema (or anything built from zod) built on first use and then kept: `lazy((z) => z.object({ … }))`.
 *
 * Why not at a module's top level (docs/DESIGN.md, "Performance"):
 * - without preloading, Temporal evaluates workflow modules again for every workflow run, so a schema built at the
 *   top costs every run that loads the module, whether or not it parses anything with it;
 * - with preloading, Temporal deep-freezes everything reachable from the preloaded modules' exports, and zod ≥ 4.4
 *   builds a schema's methods and parser on first use, as own properties: a frozen schema cannot parse. The cache
 *   here is a closure variable, which the freeze does not reach.
 * `build` receives zod (`zod()`, loaded on first use, see recovery/zod-runtime.ts). Pure: no I/O.
 */
import type { z as Zod } from 'zod';
import { zod } from './zod-runtime';

export function lazy<T>(build: (z: typeof Zod) => T): () => T {
  let built: { value: T } | undefined;
  return () => (built ??= { value: build(zod()) }).value;
}
