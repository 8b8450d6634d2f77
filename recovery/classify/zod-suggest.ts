/**
 * The one-line `suggestion` of a field issue: the concrete next step for the model ("did you mean amountCents?",
 * "rename amount to amountCents (positive integer)", "split into x and y: x=861, y=365", "use lowercase 'usd'",
 * "use the format YYYY-MM-DD"). Source: docs/DESIGN.md, "Routes" (Repair: a suggestion names the likely fix).
 *
 * One table, `SUGGESTION_RULES`, tried in order: the first rule with an answer wins; the last always answers.
 * Pure: no I/O.
 */
import { FORMAT_EXAMPLES, jsonFormatOf } from './schema-words';
import { isInteger, isNumeric, requiredPrefix, stringFormat } from './json-schema';
import { ownEntry, readString, renderValue } from './safe';
import { closestKey, enumHint, numbersIn } from './suggest';
import { pathLabel } from './text';
import { isMissing, knownKeysOf, parentOf, pathKey, presentAt, subAt, type Scope } from './zod-fields';
import { issueExpectsNumber, issueValues, type Entry } from './zod-issues';

/** What a rule sees: the problem, its scope, its words so far and its siblings. */
interface Facts {
  scope: Scope;
  e: Entry;
  expected: string;
  entries: readonly Entry[];
  key: string | number | undefined;
  parent: (string | number)[];
  missing: boolean;
  /** The value sent, when present. */
  value: unknown;
}

type Rule = (f: Facts) => string | undefined;

const lastName = (path: readonly (string | number)[]): string => pathLabel(path.slice(-1));

/** Numeric (and integer) by the schema when known, else by the issue's `expected`. */
function expectsNumber(scope: Scope, e: Entry): { numeric: boolean; integer: boolean } {
  const sub = subAt(scope, e.path);
  if (sub === undefined) return issueExpectsNumber(e.issue);
  return { numeric: isNumeric(sub, scope.json), integer: isInteger(sub, scope.json) };
}

/** The sibling keys a string of several numbers should be split into: the field itself, then missing numeric siblings. */
function splitTargets(scope: Scope, e: Entry, count: number, entries: readonly Entry[]): string[] | undefined {
  const key = e.path[e.path.length - 1];
  if (typeof key !== 'string' || count < 2) return undefined;
  const parent = pathKey(parentOf(e.path));
  const siblings = entries
    .filter(
      (o) => o !== e && pathKey(parentOf(o.path)) === parent && o.path.length === e.path.length && isMissing(scope, o),
    )
    .filter((o) => expectsNumber(scope, o).numeric)
    .map((o) => o.path[o.path.length - 1])
    .filter((k): k is string => typeof k === 'string');
  const targets = [key, ...siblings].slice(0, count);
  return targets.length === count ? targets : undefined;
}

function splitHint(targets: readonly string[], nums: readonly number[]): string {
  const names =
    targets.length === 2
      ? `${targets[0]} and ${targets[1]}`
      : `${targets.slice(0, -1).join(', ')} and ${targets[targets.length - 1]}`;
  return `split into ${names}: ${targets.map((t, i) => `${t}=${nums[i]}`).join(', ')}`;
}

/** The example mask of the field's string format (by the schema, else the issue's `format`), if any. */
function formatMask(f: Facts): string | undefined {
  const sub = subAt(f.scope, f.e.path);
  const issueFormat = readString(f.e.issue, 'format');
  const format =
    (sub === undefined ? undefined : stringFormat(sub, f.scope.json)) ?? (issueFormat && jsonFormatOf(issueFormat));
  return format ? ownEntry(FORMAT_EXAMPLES, format) : undefined;
}

const stringValues = (issue: unknown): string[] => issueValues(issue).filter((v): v is string => typeof v === 'string');

/** The suggestion rules, in order (see the module docs). */
const SUGGESTION_RULES: readonly Rule[] = [
  // An unknown key: the missing sibling or known key it is close to, else remove it.
  (f) => {
    if (f.e.code !== 'unknown_key' || typeof f.key !== 'string') return undefined;
    const missingSiblings = f.entries
      .filter((o) => pathKey(parentOf(o.path)) === pathKey(f.parent) && isMissing(f.scope, o))
      .map((o) => lastName(o.path));
    const close = closestKey(f.key, [...missingSiblings, ...knownKeysOf(f.scope, f.parent)], f.scope.compares);
    return close === undefined ? `remove ${f.key}` : `did you mean ${close}?`;
  },
  // Missing, with a sibling string holding several numbers (`{"x":"861, 365"}`): "split into x and y".
  (f) => {
    if (!f.missing || typeof f.key !== 'string') return undefined;
    for (const o of f.entries) {
      if (o === f.e || pathKey(parentOf(o.path)) !== pathKey(f.parent)) continue;
      const at = presentAt(f.scope, o);
      const nums = at.present && typeof at.value === 'string' ? numbersIn(at.value) : undefined;
      const targets = nums ? splitTargets(f.scope, o, nums.length, f.entries) : undefined;
      if (nums && targets && targets.includes(f.key)) return splitHint(targets, nums);
    }
    return undefined;
  },
  // Missing, with an unknown sibling key close to this one (`amount` for `amountCents`): rename it.
  (f) => {
    if (!f.missing || typeof f.key !== 'string') return undefined;
    const unknown = f.scope.unknownKeys.get(pathKey(f.parent)) ?? [];
    const known = [f.key, ...knownKeysOf(f.scope, f.parent).filter((k) => k !== f.key)];
    const renamed = unknown.find((u) => closestKey(u, known, f.scope.compares) === f.key);
    return renamed === undefined ? undefined : `rename ${renamed} to ${f.key} (${f.expected})`;
  },
  // Missing: add it, with the format's mask when there is one.
  (f) => {
    if (!f.missing) return undefined;
    const mask = f.scope.json === undefined ? undefined : formatMask(f);
    return `add ${pathLabel(f.e.path)} (${f.expected}${mask ? `, ${mask}` : ''})`;
  },
  // A string where a number was expected: split it, or send it without quotes.
  (f) => {
    if (typeof f.value !== 'string') return undefined;
    const { numeric, integer } = expectsNumber(f.scope, f.e);
    const nums = numeric ? numbersIn(f.value) : undefined;
    if (nums && nums.length >= 2) {
      const targets = splitTargets(f.scope, f.e, nums.length, f.entries);
      if (targets) return splitHint(targets, nums);
    }
    if (nums?.length !== 1) return undefined;
    return integer && !Number.isInteger(nums[0]!)
      ? `send an integer without quotes, not the string ${renderValue(f.value, 40)}`
      : `send ${nums[0]!} as a number, without quotes`;
  },
  // A string not among the allowed values: the case fix or the close value.
  (f) => {
    const values = stringValues(f.e.issue);
    if (typeof f.value !== 'string' || f.e.code !== 'invalid_value' || values.length === 0) return undefined;
    return enumHint(f.value, values, f.scope.compares) ?? `use one of ${values.join('|')}`;
  },
  // A string without its required prefix, or in the wrong format.
  (f) => {
    if (typeof f.value !== 'string') return undefined;
    const sub = subAt(f.scope, f.e.path);
    const issuePrefix = readString(f.e.issue, 'format') === 'starts_with' ? readString(f.e.issue, 'prefix') : undefined;
    const prefix = (sub === undefined ? undefined : requiredPrefix(sub, f.scope.json)) ?? issuePrefix;
    if (prefix !== undefined && !f.value.startsWith(prefix)) return `use a value that starts with ${prefix}`;
    const mask = formatMask(f);
    return mask === undefined ? undefined : `use the format ${mask}`;
  },
  (f) => {
    const values = issueValues(f.e.issue).map((v) => (typeof v === 'string' ? v : renderValue(v, 100)));
    return f.e.code === 'invalid_value' && values.length > 0 ? `use one of ${values.join('|')}` : undefined;
  },
  // A choice of values: name them ("use one of circle|square"), not "change kind to a one of …".
  (f) => (/^(one of|exactly) /.test(f.expected) ? `use ${f.expected}` : undefined),
  (f) =>
    f.expected === 'a valid value'
      ? `change ${pathLabel(f.e.path)} to a valid value`
      : `change ${pathLabel(f.e.path)} to a ${f.expected}`.replace(/ a (?=[aeiou]|[AEIO])/, ' an '),
];

/** The suggestion for one problem: the answer of the first rule of `SUGGESTION_RULES` that has one. */
export function suggestionOf(scope: Scope, e: Entry, expected: string, entries: readonly Entry[]): string {
  const at = presentAt(scope, e);
  const facts: Facts = {
    scope,
    e,
    expected,
    entries,
    key: e.path[e.path.length - 1],
    parent: parentOf(e.path),
    missing: isMissing(scope, e),
    value: at.present ? at.value : undefined,
  };
  for (const rule of SUGGESTION_RULES) {
    const answer = rule(facts);
    if (answer !== undefined) return answer;
  }
  return 'fix this field';
}
