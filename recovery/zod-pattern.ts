/**
 * `matching(re, message)`: a string schema that must match `re`, safe in a frozen module. Temporal freezes the
 * modules it preloads into a reusable V8 context (@temporalio/worker `bundlerOptions.preloadModules`: shared
 * modules are deep-frozen), and zod's own `.regex()` check writes `pattern.lastIndex` before each test, which a
 * frozen RegExp refuses. `RegExp.prototype.test` on a pattern without the `g` or `y` flag writes nothing
 * (ECMAScript §22.2.7.2 RegExpBuiltinExec), so this refinement works on a frozen one.
 * Pure: no I/O.
 */
import { zod } from './zod-runtime';

/** @throws TypeError at build time when `re` has the `g` or `y` flag (its `test` would write `lastIndex`). */
export function matching(re: RegExp, message: string) {
  if (re.global || re.sticky) throw new TypeError('matching(): a pattern with the g or y flag keeps state');
  return zod()
    .string()
    .refine((s) => re.test(s), { message });
}
