/**
 * Which keys name a secret or an account identifier, by meaning: a key is split into words (snake_case, camelCase,
 * PascalCase, kebab-case, dotted, spaced; letters apart from digits) and its words are matched against one
 * vocabulary (recovery/redact-key-words.ts), for the redaction rules (recovery/redact-rules-pairs.ts) and for every
 * module that asks about a field name (recovery/observed-state.ts, recovery/classify/zod-fields.ts).
 * Pure. The rule is stated in docs/DESIGN.md, "What the model sees".
 */
import {
  ACCOUNT_ID_WORDS,
  ACCOUNT_WORDS,
  METADATA_WORDS,
  NOT_STRONG,
  PAGE_WORDS,
  QUALIFIED_LAST_WORDS,
  SECRET_LAST_WORDS,
  SECRET_SUFFIXES,
  SOLO_WORDS,
  STRONG_STEMS,
} from './redact-key-words';
import { splitWords } from './classify/words';

/** Header names whose whole value is a credential. */
export const CREDENTIAL_HEADERS =
  'proxy-authorization|authorization|set-cookie|cookie|x-api-key|api-key|x-auth-token|x-amz-security-token|x-goog-api-key|x-access-token';

/**
 * A part every key that `keyMeaning` names contains (`pwd` has `pw`, `privkey` has `key`, `signature` has `sig`,
 * `sessionid` has `sess`, `connection_string` has `conn`, `card_number` has `card`). The precheck of the key=value
 * rule and the core of its key pattern; test/unit/redact-keys.test.ts checks it against the whole vocabulary.
 */
const KEY_HINTS =
  'pass|pw|pin|otp|secret|cred|key|token|jwt|bearer|auth|cookie|sig|hmac|verifier|assertion|mnemonic|salt|pepper|dsn|cvv|cvc|sess|sid|code|phrase|conn|card|acct|account|org|tenant|subscription';
/** See `KEY_HINTS`; case-insensitive, not global. */
export const KEY_HINT = new RegExp(KEY_HINTS, 'i');

/**
 * A key of a key=value pair that may hold a secret (the rule then asks `keyMeaning`): a run of key characters with a
 * hint in it. Keys without a hint are not matched at all, so their values stay open to the other rules.
 */
export const SECRET_KEY_SOURCE = `[A-Za-z0-9_.-]{0,100}?(?:${KEY_HINTS})[A-Za-z0-9_.-]{0,100}`;

/** Longest tail of a key that is read, in characters. */
const MAX_KEY_CHARS = 200;

/** What a key names: a secret, an account identifier, or (undefined) neither. */
export type KeyMeaning = 'secret' | 'account';

/**
 * The words of a key, lower case: `XApiKey` → `x api key`, `client_secret` → `client secret`,
 * `existing.api.key` → `existing api key`, `x-hub-signature-256` → `x hub signature 256`, `sha256` → `sha 256`.
 * Only the last 200 characters are read.
 */
export function keyWords(key: string): string[] {
  return splitWords(key.slice(-MAX_KEY_CHARS));
}

/** The words that carry meaning: trailing numbers and a trailing version `v` dropped (`api_key_v2` → `api key`). */
function significant(words: string[]): string[] {
  let end = words.length;
  while (end > 0 && /^\d+$/.test(words[end - 1]!)) end--;
  if (end > 1 && words[end - 1] === 'v') end--;
  return words.slice(0, end);
}

/** True when a strong stem stands anywhere in the words, glued or not (`dbPassword`, `clientsecret`). */
function hasStrongStem(words: readonly string[]): boolean {
  const joined = words.join('');
  for (const stem of STRONG_STEMS) {
    for (let at = joined.indexOf(stem); at >= 0; at = joined.indexOf(stem, at + 1)) {
      if (!NOT_STRONG.test(joined.slice(at))) return true;
    }
  }
  return false;
}

/** The meaning of a key's last word given the words before it (see recovery/redact-key-words.ts). */
function lastWordMeaning(words: readonly string[]): KeyMeaning | undefined {
  const last = words[words.length - 1];
  if (last === undefined) return undefined;
  const prev = words[words.length - 2] ?? '';
  const glued = `${words[words.length - 3] ?? ''}${prev}`;
  if (last === 'token' || last.endsWith('token')) {
    return PAGE_WORDS.has(prev) || PAGE_WORDS.has(last.slice(0, -5)) ? undefined : 'secret';
  }
  if (SECRET_LAST_WORDS.has(last) || SECRET_SUFFIXES.some((s) => last.endsWith(s))) return 'secret';
  if (SOLO_WORDS.has(last) && words.length === 1) return 'secret';
  const qualifiers = QUALIFIED_LAST_WORDS[last];
  if (qualifiers !== undefined && (qualifiers.has(prev) || qualifiers.has(glued))) return 'secret';
  if (ACCOUNT_ID_WORDS.has(last) && ACCOUNT_WORDS.has(prev)) return 'account';
  if (ACCOUNT_WORDS.has(last) && last !== 'account' && last !== 'subscription') return 'account';
  if (/^(?:account|acct|org|organi[sz]ation|tenant|subscription)id$/.test(last)) return 'account';
  return undefined;
}

/**
 * What `key` names, by meaning:
 * - `'secret'` when a strong stem (`password`, `passwd`, `passphrase`, `passcode`, `secret`, `credential`,
 *   `privkey`) stands anywhere in it and its last word is not metadata (`password_changed_at` is not); or its last
 *   word names a secret (`pwd`, `otp`, `access_token`, `set-cookie`, `code_verifier`, `x-hub-signature-256`); or its
 *   last word does after the word before it (`api key`, `private key`, `recovery codes`, `session id`);
 * - `'account'` for an account or organisation identifier (`account_id`, `AccountId`, `org_id`, `organization`,
 *   `tenant_id`, `subscription_id`, `account_sid`);
 * - `undefined` otherwise: `max_tokens`, `token_count`, `token_type`, `next_page_token`, `keyword`, `monkey`,
 *   `passenger`, `bypass`, `idempotency_key`, `sort_key`, `public_key_id`, `error_code`, `customer_id`.
 * `parentKey`, the key of the object that holds `key` in a body, qualifies a one-word key: `{ api: { key } }`,
 * `{ session: { id } }`, `{ card: { number } }`, `{ org: { id } }`. Never throws; a non-string key names nothing.
 */
export function keyMeaning(key: string, parentKey?: string): KeyMeaning | undefined {
  if (typeof key !== 'string') return undefined;
  const words = significant(keyWords(key));
  const last = words[words.length - 1];
  if (last === undefined) return undefined;
  if (hasStrongStem(words) && !METADATA_WORDS.has(last)) return 'secret';
  if (words.length === 1 && typeof parentKey === 'string') {
    const parentLast = significant(keyWords(parentKey)).pop();
    const qualified = parentLast === undefined ? undefined : lastWordMeaning([parentLast, last]);
    if (qualified !== undefined) return qualified;
  }
  return lastWordMeaning(words);
}

/**
 * True when a key or field name names a secret (`keyMeaning(key) === 'secret'`): `password`, `pwd`, `api_key`,
 * `x-api-key`, `accessToken`, `client_secret`, `privateKey`, `creds`, `pw`, `recovery_codes`, `code_verifier` →
 * true; `max_tokens`, `token_count`, `customerId`, `idempotency_key`, `bypass`, `keyword`, `monkey`,
 * `passenger` → false.
 */
export function isSecretKey(key: string): boolean {
  return keyMeaning(key) === 'secret';
}

/**
 * True when the last segment of a field path names a secret or an account (`["user", "password"]`, `["api_key"]`):
 * the value at it is never shown, in a repair's `received` or anywhere else (docs/DESIGN.md, "Redaction by meaning").
 */
export function pathNamesSecret(path: readonly (string | number)[]): boolean {
  const last = path.at(-1);
  const parent = path.at(-2);
  return typeof last === 'string' && keyMeaning(last, typeof parent === 'string' ? parent : undefined) !== undefined;
}
