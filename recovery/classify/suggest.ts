/**
 * Small heuristics that turn a validation failure into a concrete next step for the model: the key it probably
 * meant, the enum value in the right case, the two numbers packed into one string.
 * Source of the need: docs/DESIGN.md, "Routes" (Repair: a suggestion names the likely fix) — an unknown key
 * `amount` close to `amountCents`; `USD` for `usd`; `x: "861, 365"` with `y` missing → "split into x and y".
 * Pure: no I/O.
 */

/** Longest strings compared by edit distance, in characters (longer ones are not close to anything). */
const MAX_COMPARE_CHARS = 64;

/**
 * Most candidate keys one call's suggestions compare (`closestKey`, `enumHint`), shared through a `Budget`: a
 * schema with 10,000 keys and an error with thousands of unknown ones cannot make suggestions cost minutes.
 */
export const MAX_KEY_COMPARISONS = 2_000;

/** Comparisons left to a call's suggestions; each candidate key `closestKey` looks at spends one. */
export interface CompareBudget {
  left: number;
}

/**
 * Edit distance with adjacent transpositions (optimal string alignment, "Damerau-Levenshtein"): insert, delete,
 * substitute and swap two neighbours each cost 1, so the typo `eru` is 1 from `eur`.
 * @returns the distance, or `Infinity` when either string is longer than 64 characters.
 */
export function editDistance(a: string, b: string): number {
  if (a.length > MAX_COMPARE_CHARS || b.length > MAX_COMPARE_CHARS) return Infinity;
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}

const norm = (s: string): string => s.toLowerCase().replace(/[\s_-]/g, '');

/**
 * The known key `unknown` most likely meant, or `undefined` when none is close. Close means, best first: equal
 * ignoring case, `_` and `-` (`amount_cents` → `amountCents`); one a prefix of the other, at least 3 characters
 * (`amount` → `amountCents`); edit distance ≤ a third of the shorter length (`curency` → `currency`).
 * Ties go to the earlier key in `known` (callers list missing keys first).
 * @param budget comparisons left (one per candidate looked at); when spent, the best so far is the answer.
 */
export function closestKey(
  unknown: string,
  known: readonly string[],
  budget: CompareBudget = { left: MAX_KEY_COMPARISONS },
): string | undefined {
  const u = norm(unknown);
  if (u === '') return undefined;
  let best: { key: string; score: number } | undefined;
  for (const key of known) {
    if (--budget.left < 0) {
      budget.left = 0;
      break;
    }
    const k = norm(key);
    if (k === '' || key === unknown) continue;
    let score: number;
    if (k === u) score = 0;
    else if (Math.min(k.length, u.length) >= 3 && (k.startsWith(u) || u.startsWith(k)))
      score = 1 + Math.abs(k.length - u.length) / 100;
    else {
      const limit = Math.max(1, Math.floor(Math.min(u.length, k.length) / 3));
      // The distance is at least the difference in length: no table needed to rule such a key out.
      const d = Math.abs(u.length - k.length) > limit ? Infinity : editDistance(u, k);
      score = d <= limit ? 2 + d : Infinity;
    }
    if (score < (best?.score ?? Infinity)) best = { key, score };
  }
  return best?.key;
}

/**
 * A hint for a string that is not one of `allowed`: a case fix ("use lowercase 'usd'", "use uppercase 'USD'",
 * "use 'Usd'"), else the closest value ("did you mean 'eur'?"), else `undefined`.
 */
export function enumHint(
  received: string,
  allowed: readonly string[],
  budget: CompareBudget = { left: MAX_KEY_COMPARISONS },
): string | undefined {
  const sameLetters = allowed.find((a) => a.toLowerCase() === received.toLowerCase());
  if (sameLetters !== undefined) {
    if (sameLetters === sameLetters.toLowerCase()) return `use lowercase '${sameLetters}'`;
    if (sameLetters === sameLetters.toUpperCase()) return `use uppercase '${sameLetters}'`;
    return `use '${sameLetters}'`;
  }
  const trimmed = allowed.find((a) => a === received.trim());
  if (trimmed !== undefined) return `remove the surrounding spaces: '${trimmed}'`;
  const close = closestKey(received, allowed, budget);
  return close === undefined ? undefined : `did you mean '${close}'?`;
}

/**
 * The numbers in a string made only of numbers and separators (`"861, 365"` → [861, 365], `"12.50"` → [12.5]);
 * `undefined` for anything else.
 */
export function numbersIn(text: string): number[] | undefined {
  if (text.length > 200 || !/^\s*[-+]?\d+(?:\.\d+)?(?:\s*[,;\s]\s*[-+]?\d+(?:\.\d+)?)*\s*$/.test(text))
    return undefined;
  const nums = text.match(/[-+]?\d+(?:\.\d+)?/g)?.map(Number) ?? [];
  return nums.length > 0 && nums.every(Number.isFinite) ? nums : undefined;
}
