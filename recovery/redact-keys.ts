/**
 * Which keys and words name a secret, for the redaction rules (recovery/redact-rules-secrets.ts) and for
 * `isSecretKey`, which other modules ask about field names (recovery/observed-state.ts). Pure: no imports.
 */

/** Header names whose whole value is a credential. */
export const CREDENTIAL_HEADERS =
  'proxy-authorization|authorization|set-cookie|cookie|x-api-key|api-key|x-auth-token|x-amz-security-token|x-goog-api-key|x-access-token';

/**
 * Secret key names (see `isSecretKey`). A key is secret when it contains `secret`, `password`, `passwd`,
 * `credential` or `privkey`; or its last word (camelCase, snake_case, kebab-case and dots split words) is one of
 * `SECRET_WORDS`, ends with one of `SECRET_SUFFIXES`, or its last two words form one of `SECRET_PAIRS`.
 */
const SECRET_ANYWHERE = /secret|passw(?:or)?d|credential|privkey/i;
const SECRET_WORDS = new Set([
  'pass',
  'pwd',
  'passphrase',
  'passcode',
  'pin',
  'otp',
  'token',
  'auth',
  'authorization',
  'bearer',
  'cookie',
  'signature',
  'sig',
  'jwt',
  'apikey',
  'sessionid',
]);
/** A glued word ending like this is secret too (`accesstoken`, `csrftoken`, `xapikey`). */
const SECRET_SUFFIXES = ['token', 'apikey', 'cookie', 'signature', 'authorization', 'sessionid'];
const SECRET_PAIRS = new Set([
  'apikey',
  'accesskey',
  'privatekey',
  'secretkey',
  'accountkey',
  'signingkey',
  'encryptionkey',
  'masterkey',
  'authkey',
  'sessionid',
]);

/**
 * A key=value key that may name a secret (the rule then asks `isSecretKey`): one ending in a secret word, or
 * containing `secret`/`password`/`passwd`/`credential`. Keys that cannot be secret are not matched at all, so
 * their values stay open to the other rules (`x?token=…` inside `example:8443/v1/x?token=…`).
 */
export const SECRET_KEY_SOURCE =
  '[A-Za-z0-9_.-]{0,100}?(?:pass(?:word|wd|phrase|code)?|pwd|pin|otp|secret|token|key|credentials?|cookie|auth(?:orization)?|signature|sig|bearer|jwt|privkey|session[_-]?id)|[A-Za-z0-9_.-]{0,100}?(?:secret|passw(?:or)?d|credential|privkey)[A-Za-z0-9_.-]{1,100}';

/**
 * A word every key matched by `SECRET_KEY_SOURCE` contains (`privkey` has `key`, `signature` has `sig`, `passwd`
 * has `pass`): the precheck of the 'secret key-value' rule.
 */
export const SECRET_KEY_HINT = /pass|pwd|pin|otp|secret|token|key|credential|cookie|auth|sig|bearer|jwt|session/i;

/** Credential nouns in prose: `password hunter2`, `token is abc123def456`, `X-Api-Key abcd1234`. */
export const CREDENTIAL_NOUNS =
  'pass(?:word|wd|phrase|code)|pwd|pin|otp|secret|token|api[ _-]?key|access[ _-]?key|secret[ _-]?key|private[ _-]?key|client[ _-]?secret|credentials?|x-api-key|x-auth-token|authorization';

/** A word every noun of `CREDENTIAL_NOUNS` contains: the precheck of the 'credential in prose' rule. */
export const CREDENTIAL_NOUN_HINT = /pass|pwd|pin|otp|secret|token|key|credential|authorization/i;

/**
 * True when a key or field name names a secret: it contains `secret`, `password`, `passwd`, `credential` or
 * `privkey`; or its last word is `pass`, `pwd`, `passphrase`, `passcode`, `pin`, `otp`, `token`, `auth`,
 * `authorization`, `bearer`, `cookie`, `signature`, `sig`, `jwt`, `apikey` or `sessionid` (or ends with
 * `token`, `apikey`, `cookie`, `signature`, `authorization`, `sessionid`); or its last two words are
 * `api key`, `access key`, `private key`, `secret key`, `account key`, `signing key`, `encryption key`,
 * `master key`, `auth key` or `session id`. Words are split at camelCase humps, `_`, `-`, `.` and spaces.
 * E.g. `password`, `api_key`, `accessToken`, `client_secret`, `x-api-key`, `privateKey`, `pwd` → true;
 * `max_tokens`, `token_count`, `customerId`, `idempotency_key`, `bypass` → false.
 */
export function isSecretKey(key: string): boolean {
  if (typeof key !== 'string') return false;
  if (SECRET_ANYWHERE.test(key)) return true;
  const words = key
    .slice(-200)
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== '');
  const last = words[words.length - 1];
  if (last === undefined) return false;
  if (SECRET_WORDS.has(last) || SECRET_SUFFIXES.some((s) => last.endsWith(s))) return true;
  return words.length >= 2 && SECRET_PAIRS.has(`${words[words.length - 2]}${last}`);
}
