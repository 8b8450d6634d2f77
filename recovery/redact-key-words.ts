/**
 * The vocabulary of key names that hold a secret or an account identifier, read by `keyMeaning`
 * (recovery/redact-keys.ts). A key is split into words first (`accessToken`, `access_token`, `access-token`,
 * `Access.Token` → `access token`), so these are words, not patterns. Each group names its source.
 * Pure: no imports.
 */

/**
 * Stems that make a key secret wherever they stand, also glued inside a word (`dbPassword`, `newpassword`,
 * `clientsecret`, `aws_credentials`), unless the key's last word is a `METADATA_WORDS` word
 * (`password_min_length`). OWASP Logging Cheat Sheet, "Data to exclude": authentication passwords, encryption keys
 * and other primary secrets; CWE-532.
 */
export const STRONG_STEMS: readonly string[] = Object.freeze([
  'password',
  'passwd',
  'passphrase',
  'passcode',
  'secret',
  'credential',
  'privkey',
]);
/** Words that contain a strong stem and name no secret (`secretary`, `secretion`). */
export const NOT_STRONG = /^secret(?:ar|ion|ed$)/;

/**
 * Last words that name what a secret is *about*, not the secret: a key ending in one holds metadata even with a
 * strong stem before it (`password_changed_at`, `secret_name`, `credentials_expire_at`, `password_policy`).
 */
export const METADATA_WORDS: ReadonlySet<string> = new Set([
  'length',
  'len',
  'count',
  'policy',
  'policies',
  'rule',
  'rules',
  'strength',
  'score',
  'required',
  'enabled',
  'disabled',
  'set',
  'present',
  'exists',
  'expires',
  'expire',
  'expiry',
  'expired',
  'expiration',
  'changed',
  'updated',
  'created',
  'modified',
  'rotated',
  'at',
  'on',
  'date',
  'time',
  'ttl',
  'age',
  'type',
  'kind',
  'format',
  'version',
  'name',
  'names',
  'label',
  'manager',
  'field',
  'fields',
  'error',
  'errors',
  'message',
  'status',
  'state',
  'valid',
  'invalid',
  'mismatch',
  'min',
  'max',
  'minimum',
  'maximum',
  'attempts',
  'retries',
]);

/**
 * Last words that name a secret by themselves (`pwd`, `db_pass`, `otp`, `access_token`, `basic_auth`,
 * `set-cookie`, `code_verifier`, `x-hub-signature-256` once trailing numbers are dropped).
 * - passwords and PINs: OWASP Logging Cheat Sheet; `pw`, `pwd`, `pass` as written in config files;
 * - one-time passwords: RFC 4226 (HOTP), RFC 6238 (TOTP);
 * - bearer tokens and JWTs: RFC 6750, RFC 7519; `token` as the last word (`access_token`, `refresh_token`,
 *   `id_token`, RFC 6749 §1.4–1.5, OpenID Connect Core §2) — except the page tokens below;
 * - HTTP credentials: `authorization` (RFC 9110 §11.6.2), `auth`, `cookie` / `cookies` (RFC 6265);
 * - signatures and MACs (replayable request credentials): `signature`, `sig` (Azure SAS), `hmac`;
 * - PKCE `code_verifier` (RFC 7636 §4.1), OAuth 1.0a `oauth_verifier` (RFC 5849 §2.2): `verifier`;
 * - client assertions (RFC 7521 §4.2, SAML): `assertion`;
 * - wallet seeds (BIP-39): `mnemonic`; password-hash inputs: `salt`, `pepper` (a pepper is secret, NIST SP
 *   800-63B §5.1.1.2; a salt is not secret but is half of an offline attack and of no use to the model);
 * - connection strings with their passwords: `dsn`; card verification values (PCI DSS, "sensitive authentication
 *   data"): `cvv`, `cvc`; credentials in short: `creds`, `cred`;
 * - sessions (OWASP Session Management Cheat Sheet: the session id is a bearer credential): glued `sessionid`,
 *   `sessid` (`PHPSESSID`, `JSESSIONID`); a key that is only `session` or `sid` (`SOLO_WORDS`).
 */
export const SECRET_LAST_WORDS: ReadonlySet<string> = new Set([
  'pass',
  'pw',
  'pwd',
  'pin',
  'otp',
  'totp',
  'hotp',
  'token',
  'jwt',
  'bearer',
  'auth',
  'authorization',
  'cookie',
  'cookies',
  'signature',
  'sig',
  'hmac',
  'verifier',
  'assertion',
  'mnemonic',
  'salt',
  'pepper',
  'dsn',
  'cvv',
  'cvc',
  'creds',
  'cred',
  'sessionid',
  'sessid',
]);

/** Words that name a secret when they are the whole key (`session`, `sid`); `get_session`, `call_sid` do not. */
export const SOLO_WORDS: ReadonlySet<string> = new Set(['session', 'sid']);

/** A glued word ending like this is secret (`accesstoken`, `csrftoken`, `xapikey`, `phpsessid`, `setcookie`). */
export const SECRET_SUFFIXES: readonly string[] = Object.freeze([
  'token',
  'apikey',
  'privatekey',
  'secretkey',
  'accesskey',
  'signingkey',
  'masterkey',
  'sessionid',
  'sessid',
  'cookie',
  'signature',
  'verifier',
]);

/** `token` after these names a page cursor, not a credential (Google APIs `nextPageToken`, AWS `NextToken`). */
export const PAGE_WORDS: ReadonlySet<string> = new Set([
  'page',
  'next',
  'pagination',
  'continuation',
  'cursor',
  'sync',
  'resume',
]);

/**
 * Last words that name a secret only after one of these words: the word before it in the key, the two words before
 * it glued (`one_time_code` → `onetime`), or the parent's key in a body (`{ api: { key } }`). A bare `key`, `code` or `id` is not secret (`idempotency_key`, `sort_key`,
 * `error_code`, `currency_code`, `customer_id` stay).
 * - `key`: API keys and key material (OWASP: "encryption keys"; Azure `AccountKey`, `primaryKey`; SSH, PGP keys);
 * - `code`: one-time and authorization codes (RFC 6749 §4.1.2 authorization code, RFC 8628 device code, OTP,
 *   recovery and backup codes as GitHub and Google issue them, card security codes);
 * - `tokens` (plural: `max_tokens` and `prompt_tokens` are counts): only credentials;
 * - `id`: a session id (OWASP Session Management Cheat Sheet); `sid` after `connect` (express-session);
 * - `phrase`: pass, seed and recovery phrases (BIP-39); `string`: connection strings; `number`: card numbers
 *   (PCI DSS: the primary account number).
 */
export const QUALIFIED_LAST_WORDS: Readonly<Record<string, ReadonlySet<string>>> = Object.freeze({
  key: new Set([
    'api',
    'access',
    'secret',
    'private',
    'signing',
    'sign',
    'encryption',
    'decryption',
    'master',
    'auth',
    'client',
    'license',
    'licence',
    'account',
    'ssh',
    'gpg',
    'pgp',
    'shared',
    'session',
    'app',
    'application',
    'webhook',
    'service',
    'storage',
    'subscription',
    'hmac',
    'crypto',
    'deploy',
    'consumer',
    'root',
    'admin',
    'recovery',
    'symmetric',
    'aes',
    'rsa',
    'primary',
    'secondary',
    'sas',
    'developer',
    'ingest',
    'ingestion',
    'write',
    'partner',
    'merchant',
    'restricted',
    'live',
    'server',
    'data',
    'product',
    'activation',
    'serial',
    'unlock',
  ]),
  keys: new Set(['api', 'access', 'secret', 'private', 'signing', 'encryption', 'master', 'ssh', 'recovery']),
  code: new Set([
    'auth',
    'authorization',
    'oauth',
    'verification',
    'verify',
    'otp',
    'mfa',
    'tfa',
    'totp',
    'sms',
    'security',
    'recovery',
    'backup',
    'reset',
    'access',
    'device',
    'login',
    'signin',
    'pin',
    'activation',
    'unlock',
    'magic',
    'onetime',
    'twofactor',
  ]),
  codes: new Set(['recovery', 'backup', 'verification', 'mfa', 'otp', 'security', 'onetime']),
  tokens: new Set(['access', 'refresh', 'id', 'auth', 'api', 'bearer', 'session', 'csrf', 'xsrf', 'oauth', 'personal']),
  id: new Set(['session', 'sess']),
  sid: new Set(['connect', 'session']),
  phrase: new Set(['pass', 'seed', 'recovery', 'secret', 'mnemonic', 'backup']),
  string: new Set(['connection', 'conn']),
  str: new Set(['connection', 'conn']),
  number: new Set(['card']),
});

/**
 * Account and organisation identifiers (docs/DESIGN.md, "What the model sees"): who holds the credential, which
 * the model never needs — `account_id`, `AccountId`, `aws_account_id`, `account_sid` (Twilio), `org_id`,
 * `organization` (`OpenAI-Organization`), `tenant_id`, `subscription_id` (Azure). Business objects (`customer_id`,
 * `order_id`) stay. The last word is one of `ACCOUNT_ID_WORDS` after one of `ACCOUNT_WORDS`, or the key is a bare
 * `ACCOUNT_WORDS` word other than `account`.
 */
export const ACCOUNT_WORDS: ReadonlySet<string> = new Set([
  'account',
  'acct',
  'org',
  'organization',
  'organisation',
  'tenant',
  'subscription',
]);
/** See `ACCOUNT_WORDS`. */
export const ACCOUNT_ID_WORDS: ReadonlySet<string> = new Set(['id', 'ids', 'number', 'no', 'sid', 'arn']);
