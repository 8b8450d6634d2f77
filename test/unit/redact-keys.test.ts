/**
 * Key names by meaning (recovery/redact-keys.ts): a key is split into words and matched against one vocabulary
 * (recovery/redact-key-words.ts), whatever its spelling. Pure: no workers, no servers.
 */
import { isSecretKey, KEY_HINT, keyMeaning, keyWords } from '../../recovery/redact-keys';
import {
  ACCOUNT_ID_WORDS,
  ACCOUNT_WORDS,
  QUALIFIED_LAST_WORDS,
  SECRET_LAST_WORDS,
  SECRET_SUFFIXES,
  SOLO_WORDS,
  STRONG_STEMS,
} from '../../recovery/redact-key-words';

describe('keyWords: every spelling of a key gives the same words', () => {
  it.each<[string, string[]]>([
    ['access_token', ['access', 'token']],
    ['accessToken', ['access', 'token']],
    ['AccessToken', ['access', 'token']],
    ['access-token', ['access', 'token']],
    ['Access.Token', ['access', 'token']],
    ['ACCESS_TOKEN', ['access', 'token']],
    ['XApiKey', ['x', 'api', 'key']],
    ['APIKey', ['api', 'key']],
    ['x-hub-signature-256', ['x', 'hub', 'signature', '256']],
    ['sha256', ['sha', '256']],
    ['existing.api.key', ['existing', 'api', 'key']],
    ['', []],
  ])('keyWords(%j) → %j', (key, words) => {
    expect(keyWords(key)).toEqual(words);
  });
});

describe('keyMeaning: secrets, in any spelling', () => {
  it.each([
    // passwords, strong stems anywhere
    'password',
    'Password',
    'PASSWORD',
    'passwd',
    'db_password',
    'dbPassword',
    'newpassword',
    'password_confirmation',
    'password_hash',
    'passphrase',
    'passcode',
    'client_secret',
    'clientSecret',
    'secret_value',
    'webhookSecret',
    'aws_credentials',
    'Credentials',
    'privkey',
    // last words
    'pw',
    'pwd',
    'pass',
    'smtp_pass',
    'pin',
    'otp',
    'totp',
    'token',
    'access_token',
    'refreshToken',
    'id_token',
    'csrftoken',
    'X-Auth-Token',
    'auth',
    'basic_auth',
    'authorization',
    'bearer',
    'jwt',
    'cookie',
    'Set-Cookie',
    'cookies',
    'signature',
    'X-Hub-Signature-256',
    'sig',
    'hmac',
    'code_verifier',
    'oauth_verifier',
    'client_assertion',
    'mnemonic',
    'salt',
    'pepper',
    'dsn',
    'cvv',
    'cvc2',
    'creds',
    'session',
    'sid',
    'sessionid',
    'PHPSESSID',
    'JSESSIONID',
    'connect.sid',
    // qualified last words
    'api_key',
    'apiKey',
    'x-api-key',
    'xapikey',
    'api_key_v2',
    'private_key',
    'privateKey',
    'secretAccessKey',
    'AccountKey',
    'primaryKey',
    'ssh_key',
    'license_key',
    'existing.api.key',
    'recovery_codes',
    'backup_codes',
    'one_time_code',
    'verification_code',
    'auth_code',
    'device_code',
    'security_code',
    'session_id',
    'sessionId',
    'seed_phrase',
    'connection_string',
    'card_number',
    'access_tokens',
  ])('keyMeaning(%j) → secret', (key) => {
    expect(keyMeaning(key)).toBe('secret');
    expect(isSecretKey(key)).toBe(true);
  });

  it.each([
    'account_id',
    'AccountId',
    'accountid',
    'aws_account_id',
    'account_number',
    'account_sid',
    'org_id',
    'orgId',
    'organization',
    'OpenAI-Organization',
    'organisation_id',
    'tenant',
    'tenant_id',
    'tenantId',
    'subscription_id',
  ])('keyMeaning(%j) → account', (key) => {
    expect(keyMeaning(key)).toBe('account');
    expect(isSecretKey(key)).toBe(false);
  });

  it.each([
    'max_tokens',
    'prompt_tokens',
    'token_count',
    'tokenCount',
    'token_type',
    'token_limit',
    'tokens_used',
    'next_page_token',
    'nextPageToken',
    'NextToken',
    'keyword',
    'keyboard',
    'monkey',
    'turkey',
    'passenger',
    'passport',
    'bypass',
    'compass',
    'passed',
    'idempotency_key',
    'sort_key',
    'partition_key',
    'public_key_id',
    'key',
    'keys',
    'key_id',
    'code',
    'error_code',
    'status_code',
    'currency_code',
    'promo_code',
    'confirmation_code',
    'id',
    'customer_id',
    'customerId',
    'client_id',
    'call_sid',
    'get_session',
    'session_expires_at',
    'password_min_length',
    'password_changed_at',
    'passwordPolicy',
    'secret_name',
    'secretary',
    'secretary_name',
    'credentials_expire_at',
    'oauth_method',
    'auth_url',
    'cookie_consent',
    'pinned',
    'shipping',
    'account',
    'subscription',
    'amountCents',
    '',
  ])('keyMeaning(%j) → nothing', (key) => {
    expect(keyMeaning(key)).toBeUndefined();
  });

  it('a non-string key names nothing and does not throw', () => {
    expect(keyMeaning(42 as unknown as string)).toBeUndefined();
    expect(keyMeaning(null as unknown as string)).toBeUndefined();
  });
});

describe('keyMeaning: the parent key qualifies a one-word key', () => {
  it.each<[string, string, 'secret' | 'account' | undefined]>([
    ['api', 'key', 'secret'],
    ['private', 'key', 'secret'],
    ['session', 'id', 'secret'],
    ['card', 'number', 'secret'],
    ['recovery', 'codes', 'secret'],
    ['seed', 'phrase', 'secret'],
    ['org', 'id', 'account'],
    ['account', 'id', 'account'],
    ['account', 'sid', 'account'],
    ['customer', 'id', undefined],
    ['order', 'key', undefined],
    ['page', 'token', 'secret'], // `token` alone names a secret; the page cursor is `page_token` in one key
    ['idempotency', 'key', undefined],
    ['api', 'version', undefined],
  ])('{ %s: { %s } } → %s', (parent, key, meaning) => {
    expect(keyMeaning(key, parent)).toBe(meaning);
  });

  it('a key of two words is judged on its own words only', () => {
    expect(keyMeaning('key_name', 'api')).toBeUndefined();
    expect(keyMeaning('sort_key', 'api')).toBeUndefined();
  });
});

describe('KEY_HINT is a necessary condition of every key the vocabulary names', () => {
  const named: string[] = [
    ...STRONG_STEMS,
    ...SECRET_LAST_WORDS,
    ...SECRET_SUFFIXES,
    ...SOLO_WORDS,
    ...Object.entries(QUALIFIED_LAST_WORDS).flatMap(([last, qs]) => [...qs].map((q) => `${q}_${last}`)),
    ...[...ACCOUNT_WORDS].flatMap((a) => [...ACCOUNT_ID_WORDS].map((id) => `${a}_${id}`)),
  ];
  it.each(named)('%s: named by keyMeaning and matched by KEY_HINT', (key) => {
    expect(keyMeaning(key)).toBeDefined();
    expect(KEY_HINT.test(key)).toBe(true);
  });
});
