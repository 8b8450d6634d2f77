/** Timing helpers of the write-safety cells. */

/** Resolves after `ms` ms. */
export const pause = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * `p`'s value, or `late` when `p` has not settled within `ms` ms. The timer is cleared once `p` settles, so a
 * settled race keeps nothing alive.
 */
export function within<T, L>(p: Promise<T>, ms: number, late: L): Promise<T | L> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<L>((r) => (timer = setTimeout(() => r(late), ms)));
  return Promise.race([p, deadline]).finally(() => clearTimeout(timer));
}
