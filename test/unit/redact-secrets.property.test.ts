/**
 * The redaction property of issue 27: secrets planted under random secret-like keys (any spelling, any depth, any
 * value type) and token-shaped strings planted in random prose never reach what the model and the history get —
 * `publicObservedState` (a 409 body, as an object or as JSON text), `publicText`, and the failure record and
 * feedback that `classify`, `semanticMeta` and `feedbackFor` build. A leak is any 10 characters of the secret in a
 * row. Pure: no workers, no servers.
 */
import fc from 'fast-check';
import { semanticMeta } from '../../activities/postcondition';
import type { AnyTool } from '../../activities/define-tool';
import { classify, type RawOutcome } from '../../recovery/classify';
import { publicText } from '../../recovery/classify/text';
import { feedbackFor } from '../../recovery/feedback';
import { publicObservedState } from '../../recovery/observed-state';
import { isTokenShaped } from '../../recovery/redact-entropy';
import { routeFor } from '../../recovery/routes';

const TOOL = { name: 'pay', effect: 'write' } as unknown as AnyTool;
const CTX = {
  tool: 'pay',
  callId: 'c1',
  effect: 'write' as const,
  deduplicates: false,
  approvalCanLift: false,
  nowMs: 1_700_000_000_000,
  diagnosticRef: 'property/1',
};

/** The failure record and the feedback of one failed call, as JSON. */
function visible(raw: RawOutcome): string {
  const failure = classify(raw, CTX);
  const meta = semanticMeta(raw, failure, TOOL);
  return JSON.stringify({
    failure,
    feedback: feedbackFor(failure, routeFor(failure).action, { observedState: meta.observedState }),
  });
}

/** True when any `min(10, secret.length)` characters of `secret` in a row occur in `out`. */
function leaks(out: string, secret: string): boolean {
  const n = Math.min(10, secret.length);
  for (let i = 0; i + n <= secret.length; i++) if (out.includes(secret.slice(i, i + n))) return true;
  return false;
}

const chars = (alphabet: string, min: number, max: number) =>
  fc.string({ unit: fc.constantFrom(...alphabet.split('')), minLength: min, maxLength: max });
const B62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** A distinctive secret value: `Zq`, a digit, then letters and digits; no prose contains it. */
const marker = chars(B62, 8, 14).map((s) => `Zq7${s}`);

/** Keys that name a secret or an account id by themselves, as words. */
const SECRET_KEYS: string[][] = [
  ['password'],
  ['pw'],
  ['pwd'],
  ['passwd'],
  ['passphrase'],
  ['secret'],
  ['api', 'key'],
  ['client', 'secret'],
  ['access', 'token'],
  ['refresh', 'token'],
  ['id', 'token'],
  ['private', 'key'],
  ['code', 'verifier'],
  ['recovery', 'codes'],
  ['backup', 'codes'],
  ['otp'],
  ['pin'],
  ['cookie'],
  ['set', 'cookie'],
  ['auth'],
  ['authorization'],
  ['credentials'],
  ['creds'],
  ['session', 'id'],
  ['signing', 'secret'],
  ['webhook', 'secret'],
  ['mnemonic'],
  ['salt'],
  ['cvv'],
  ['card', 'number'],
  ['x', 'api', 'key'],
  ['bearer'],
  ['jwt'],
  ['signature'],
  ['one', 'time', 'code'],
  ['verification', 'code'],
  ['seed', 'phrase'],
  ['connection', 'string'],
  ['account', 'id'],
  ['org', 'id'],
  ['tenant', 'id'],
  ['subscription', 'id'],
  ['secret', 'access', 'key'],
  ['db', 'password'],
];
/** Words a key may start with; they never change what its last words mean. */
const PREFIXES = [[], [], ['my'], ['new'], ['stripe'], ['smtp'], ['user'], ['primary'], ['aws']];
/** A one-word key and the parent key that makes it a secret (`{ api: { key } }`); bodies only. */
const QUALIFIED: [string, string][] = [
  ['api', 'key'],
  ['session', 'id'],
  ['card', 'number'],
  ['org', 'id'],
  ['recovery', 'codes'],
  ['private', 'key'],
];

const cap = (w: string) => `${w[0]!.toUpperCase()}${w.slice(1)}`;
const STYLES: ((w: string[]) => string)[] = [
  (w) => w.join('_'),
  (w) => w.map((x, i) => (i === 0 ? x : cap(x))).join(''),
  (w) => w.map(cap).join(''),
  (w) => w.join('-'),
  (w) => w.map(cap).join('-'),
  (w) => w.join('.'),
  (w) => w.join('_').toUpperCase(),
];
const secretKey = fc
  .tuple(
    fc.constantFrom(...PREFIXES),
    fc.constantFrom(...SECRET_KEYS),
    fc.constantFrom(...STYLES),
    fc.constantFrom('', '', '2', '_v2'),
  )
  .map(([p, w, style, tail]) => `${style([...p, ...w])}${tail}`);

/** Harmless keys and values around the secret. */
const HARMLESS_KEYS = [
  'id',
  'name',
  'amount',
  'status',
  'note',
  'items',
  'created_at',
  'currency',
  'sku',
  'count',
  'existing',
  'data',
  'result',
  'error',
];
const filler = fc.dictionary(
  fc.constantFrom(...HARMLESS_KEYS),
  fc.oneof(fc.constantFrom('ok', 'slot 10:00 is taken', 'EUR'), fc.integer({ min: 0, max: 100 }), fc.boolean()),
  { maxKeys: 3 },
);
/** The value under the secret key: the marker as a string, a long number, a list, or an object. */
const secretValue = fc.tuple(marker, fc.integer({ min: 0, max: 3 })).map(([m, kind]): [unknown, string] => {
  if (kind === 0) return [m, m];
  if (kind === 1) return [[m, 'second'], m];
  if (kind === 2) return [{ value: m, note: 'x' }, m];
  const n = 10_000_000 + ((m.charCodeAt(3) * 7919 + m.length * 104_729) % 89_999_999);
  return [n, String(n)];
});
/** Wraps `inner` in `path` (objects; a list now and then). */
const wrap = (inner: Record<string, unknown>, path: string[], lists: boolean[]): unknown =>
  path.reduceRight<unknown>((acc, key, i) => ({ [key]: lists[i] ? [acc] : acc }), inner);

describe('property: secrets under secret-like keys never reach the model or the history', () => {
  it('in a 409 body, at any depth, as an object or as JSON text', () => {
    fc.assert(
      fc.property(
        secretKey,
        secretValue,
        filler,
        fc.array(fc.constantFrom(...HARMLESS_KEYS), { maxLength: 5 }),
        fc.array(fc.boolean(), { minLength: 5, maxLength: 5 }),
        (key, [value, secret], around, path, lists) => {
          const body = wrap({ ...around, [key]: value }, path, lists);
          for (const seen of [
            JSON.stringify(publicObservedState(body) ?? null),
            JSON.stringify(publicObservedState(JSON.stringify(body)) ?? null),
            visible({ kind: 'http', status: 409, headers: {}, body }),
          ]) {
            expect([key, leaks(seen, secret)]).toEqual([key, false]);
          }
        },
      ),
      { numRuns: 400 },
    );
  });

  it('under a one-word key that its parent key qualifies, in a body', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...QUALIFIED),
        marker,
        filler,
        fc.array(fc.constantFrom(...HARMLESS_KEYS), { maxLength: 3 }),
        ([parent, key], m, around, path) => {
          const body = wrap({ ...around, [parent]: { [key]: m, kind: 'x' } }, path, []);
          expect(leaks(JSON.stringify(publicObservedState(body) ?? null), m)).toBe(false);
          expect(leaks(visible({ kind: 'http', status: 409, headers: {}, body }), m)).toBe(false);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('in the text of a 5xx body: key=value, key: value and JSON text, quoted in publicMessage', () => {
    const form = fc.constantFrom<(k: string, v: string) => string>(
      (k, v) => `${k}=${v}`,
      (k, v) => `${k}: ${v}`,
      (k, v) => `"${k}": "${v}"`,
      (k, v) => `'${k}': '${v}'`,
      (k, v) => JSON.stringify({ result: { [k]: v } }),
      (k, v) => JSON.stringify({ [k]: [v, 'b'] }),
      (k, v) => JSON.stringify({ [k]: { value: v } }),
    );
    fc.assert(
      fc.property(
        secretKey,
        marker,
        form,
        fc.constantFrom('upstream said', 'failed:', 'Error', ''),
        (key, m, write, lead) => {
          const text = `${lead} ${write(key, m)} (retry later)`;
          expect([text, leaks(publicText(text, 10_000), m)]).toEqual([text, false]);
          expect([
            text,
            leaks(visible({ kind: 'http', status: 502, headers: {}, body: { message: text } }), m),
          ]).toEqual([text, false]);
        },
      ),
      { numRuns: 400 },
    );
  });
});

/** Token-shaped strings: vendor-prefixed, random (filtered by the documented rule), masked, e-mail and account ids. */
type Planted = [text: string, secret: string];
const tokenShaped: fc.Arbitrary<Planted> = fc.oneof<fc.Arbitrary<Planted>[]>(
  chars(B62, 20, 40).map((t): Planted => [`sk-${t}`, t]),
  chars(B62, 36, 36).map((t): Planted => [`ghp_${t}`, t]),
  fc.tuple(chars('0123456789', 4, 12), chars(B62, 10, 24)).map(([a, b]): Planted => [`xoxb-${a}-${b}`, b]),
  fc
    .tuple(chars(`${B62}_-`, 22, 22), chars(`${B62}_-`, 43, 43))
    .map(([a, b]): Planted => [`SG.${a}.${b}`, `${a}.${b}`]),
  chars(B62, 34, 34).map((t): Planted => [`hf_${t}`, t]),
  chars(`${B62}_-`, 20, 20).map((t): Planted => [`glpat-${t}`, t]),
  chars('ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 16, 16).map((t): Planted => [`AKIA${t}`, `AKIA${t}`]),
  chars('0123456789abcdefghijklmnopqrstuvwxyz', 32, 32).map((t): Planted => [`key-${t}`, t]),
  fc
    .oneof(chars(B62, 20, 48), chars('0123456789abcdef', 24, 64))
    .filter(isTokenShaped)
    .map((t): Planted => [t, t]),
  chars(B62, 5, 5).map((t): Planted => [`sk-7${t}…`, `sk-7${t}`]),
  fc.tuple(chars(B62, 4, 4), chars(B62, 4, 4)).map(([a, b]): Planted => [`sk-proj-7${a}*******${b}`, `7${a}`]),
  chars(B62, 24, 24).map((t): Planted => [`org-7${t}`, t]),
  fc
    .tuple(chars('abcdefghijklmnopqrstuvwxyz', 3, 10), chars('abcdefghijklmnopqrstuvwxyz', 3, 8))
    .map(([u, d]): Planted => [`zq${u}@${d}-corp.example.com`, `zq${u}@`]),
);
const proseWord = fc.constantFrom(
  'the',
  'request',
  'failed',
  'key',
  'token',
  'is',
  'was',
  'password',
  'for',
  'user',
  'with',
  'upstream',
  'said',
  'retry',
  'later',
  'Error:',
  'id',
  'account',
  'code',
  '10:00',
  '2026-12-01',
  'EUR',
  'O-1842',
  'cus_42',
  'data.amount',
);
const separator = fc.constantFrom(' ', '\n', ' "', '" ', ' (', ') ', ', ', '; ', ': ', " '", "' ");

describe('property: token-shaped strings in random prose never reach the model or the history', () => {
  it('publicText and the failure record of a 5xx answer', () => {
    fc.assert(
      fc.property(
        fc.array(proseWord, { maxLength: 8 }),
        tokenShaped,
        fc.array(proseWord, { maxLength: 8 }),
        separator,
        separator,
        (before, [token, secret], after, s1, s2) => {
          const text = `${before.join(' ')}${s1}${token}${s2}${after.join(' ')}`;
          expect([text, leaks(publicText(text, 10_000), secret)]).toEqual([text, false]);
          expect([
            text,
            leaks(visible({ kind: 'http', status: 503, headers: {}, body: { message: text } }), secret),
          ]).toEqual([text, false]);
          expect([text, leaks(JSON.stringify(publicObservedState({ note: text })), secret)]).toEqual([text, false]);
        },
      ),
      { numRuns: 1000 },
    );
  });
});
