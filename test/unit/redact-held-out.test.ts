/**
 * Held-out redaction cases (issue 27, item 7): secrets in the places a server or a client library really puts them
 * (5xx bodies, 409 bodies kept as observed state, SDK error shapes, nested JSON, `errors[].message`), read the way
 * the router reads them — `classify`, then the activity edge's `semanticMeta`, then `feedbackFor` — and checked on
 * everything the model and the history get: the failure record and the feedback. Beside them, harmless strings that
 * must reach the model unchanged, so that over-redaction fails too. Pure: no workers, no servers.
 *
 * The first block holds the issue's own samples, the second cases written for this table; neither was shown to the
 * rules while they were written.
 */
import { semanticMeta } from '../../activities/postcondition';
import type { AnyTool } from '../../activities/define-tool';
import { classify, type RawOutcome } from '../../recovery/classify';
import { feedbackFor } from '../../recovery/feedback';
import { routeFor } from '../../recovery/routes';

const TOOL = { name: 'pay', effect: 'write' } as unknown as AnyTool;
const CTX = {
  tool: 'pay',
  callId: 'c1',
  effect: 'write' as const,
  deduplicates: false,
  approvalCanLift: false,
  nowMs: 1_700_000_000_000,
  diagnosticRef: 'held-out/1',
};

/** Everything the model and the history get from one failed call: the failure record and the feedback. */
function visible(raw: RawOutcome): string {
  const failure = classify(raw, CTX);
  const meta = semanticMeta(raw.kind === 'thrown' ? raw.error : raw, failure, TOOL);
  const feedback = feedbackFor(failure, routeFor(failure).action, { observedState: meta.observedState });
  return JSON.stringify({ failure, feedback });
}

const http = (status: number, body: unknown): RawOutcome => ({ kind: 'http', status, headers: {}, body });
/** An OpenAI / Anthropic SDK `APIError`: own `status`, `headers` and `error` (the body). */
const sdkError = (status: number, message: string, extra: Record<string, unknown> = {}): RawOutcome => ({
  kind: 'thrown',
  error: Object.assign(new Error(`${status} ${message}`), {
    status,
    headers: {},
    error: { message, type: 'invalid_request_error', ...extra },
  }),
});
/** An axios error carrying the answer in `response`. */
const axiosError = (status: number, data: unknown): RawOutcome => ({
  kind: 'thrown',
  error: Object.assign(new Error(`Request failed with status code ${status}`), {
    isAxiosError: true,
    response: { status, headers: {}, data },
  }),
});

const SENDGRID_KEY = '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';

type Case = [label: string, raw: RawOutcome, secrets: string[]];

const ISSUE_SAMPLES: Case[] = [
  [
    '5xx: a SendGrid key quoted',
    http(502, { message: `relay rejected key ${SENDGRID_KEY}` }),
    ['nGeVfQFYQlKU0ufo8x5d1A', 'TwL2iGABf9DHoTf09kqeF8tAmbihYzrnopKc1s5crQe'],
  ],
  [
    '5xx: the passphrase in prose',
    http(500, { error: { message: 'unlock failed; the passphrase is: correct-horse-battery-staple' } }),
    ['correct-horse-battery-staple'],
  ],
  [
    '409: existing.api.key',
    http(409, { error: 'duplicate', existing: { id: 'int_7', api: { key: 'live-4411-aa' } } }),
    ['live-4411-aa'],
  ],
  ['409: creds.pw', http(409, { error: 'exists', creds: { user: 'svc', pw: 'Tr0ub4dor' } }), ['Tr0ub4dor']],
  [
    '409: recovery_codes',
    http(409, { message: 'already enrolled', recovery_codes: ['7a1c-93fe', 'b2d4-0c11'] }),
    ['7a1c-93fe', 'b2d4-0c11'],
  ],
  [
    '409: a PKCE code_verifier',
    http(409, { error: 'invalid_grant', request: { code_verifier: 'dBjftJeZ4CVPmB92K27uhbUJU1p1rwW1gFWFOEjXk' } }),
    ['dBjftJeZ4CVPmB92K27uhbUJU1p1rwW1gFWFOEjXk'],
  ],
  [
    'SDK: an OpenAI organisation id',
    sdkError(401, 'No such organization: org-Xq7bKp2LmN4vR8sT1wY3zA9c.', { code: 'invalid_organization' }),
    ['Xq7bKp2LmN4vR8sT1wY3zA9c'],
  ],
  [
    'SDK: a masked key fragment with …',
    sdkError(401, 'Incorrect API key provided: sk-abc12…. You can find your API key in your account settings.', {
      code: 'invalid_api_key',
    }),
    ['sk-abc12', 'abc12'],
  ],
  [
    'SDK: a service-account name before a redacted domain',
    http(403, {
      error: { message: 'Permission denied for ci-deployer@[host] on the bucket', status: 'PERMISSION_DENIED' },
    }),
    ['ci-deployer'],
  ],
  [
    '400: a string quoted from errors[].message',
    http(400, { errors: [{ field: 'webhook', message: 'signing secret is whsec_Q2x9LmP4vB7nR1tY8sK3 (rotate it)' }] }),
    ['whsec_Q2x9LmP4vB7nR1tY8sK3', 'Q2x9LmP4vB7nR1tY8sK3'],
  ],
];

const OWN_CASES: Case[] = [
  [
    'SDK: a masked key with stars',
    sdkError(401, 'Incorrect API key provided: sk-proj-Ab12*****************************wxYZ.'),
    ['Ab12', 'wxYZ'],
  ],
  [
    'Stripe: a masked live key',
    http(401, {
      error: { type: 'invalid_request_error', message: 'Invalid API Key provided: sk_live_****************4f2Q' },
    }),
    ['4f2Q'],
  ],
  [
    '5xx: a Slack bot token',
    http(503, { message: 'posting failed with xoxb-2841-99731-Kq8mTz3LwPa1 (rate limited upstream)' }),
    ['Kq8mTz3LwPa1'],
  ],
  [
    '409: a GitHub token nested',
    http(409, {
      message: 'webhook exists',
      hook: { config: { headers: [{ value: 'ghp_R2d2C3po9Lk8Jh7Gf6Ds5Aq4Wz3Xc2Vb1Nm0' }] } },
    }),
    ['R2d2C3po9Lk8Jh7Gf6Ds5Aq4Wz3Xc2Vb1Nm0'],
  ],
  [
    '5xx: a Hugging Face token',
    http(500, { error: 'model load failed for hf_aBcDeFgHiJkLmNoPqRsTuVwXyZaBcDeFgH' }),
    ['aBcDeFgHiJkLmNoPqRsTuVwXyZaBcDeFgH'],
  ],
  [
    '5xx: an Anthropic key',
    http(500, { error: { type: 'api_error', message: 'key sk-ant-api03-Zx8Yw7Vu6Ts5Rq4Po3Nm2Lk1 revoked' } }),
    ['Zx8Yw7Vu6Ts5Rq4Po3Nm2Lk1'],
  ],
  [
    '409: an AWS secret access key under a glued key',
    http(409, { conflict: { awsSecretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY' } }),
    ['wJalrXUtnFEMI'],
  ],
  [
    'AWS: an account number in an ARN',
    http(400, {
      message: 'User: arn:aws:iam::493817206451:user/ci-bot is not authorized to perform: s3:PutObject',
      code: 'ValidationException',
    }),
    ['493817206451', 'ci-bot'],
  ],
  [
    '5xx: an AWS account number in prose',
    http(500, { message: 'quota exceeded for AWS account 5820-1493-7706' }),
    ['5820-1493-7706'],
  ],
  [
    '409: a Stripe connected account id',
    http(409, { error: { message: 'Account acct_1Nv0FGQ9RKHgCVdK already has a payout in flight' } }),
    ['1Nv0FGQ9RKHgCVdK'],
  ],
  [
    '403: an Azure tenant id',
    http(403, { error: { message: 'The user is not a member of tenant 72f988bf-86f1-41af-91ab-2d7cd011db47.' } }),
    ['72f988bf-86f1-41af-91ab-2d7cd011db47'],
  ],
  [
    '5xx: an Azure storage connection string',
    http(500, {
      message:
        'DefaultEndpointsProtocol=https;AccountName=acmepay;AccountKey=Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==;EndpointSuffix=core',
    }),
    ['Eby8vdM02xNOcqFlqUwJPLlmEtlCD'],
  ],
  [
    '5xx: a German password sentence',
    http(500, { message: 'Anmeldung fehlgeschlagen: das Passwort lautet Sommer-Regen' }),
    ['Sommer-Regen'],
  ],
  [
    '5xx: a French password sentence',
    http(500, { message: 'le mot de passe est : chat-noir-violet' }),
    ['chat-noir-violet'],
  ],
  [
    '5xx: a Spanish password sentence',
    http(500, { message: 'la contraseña es gato-azul-marino' }),
    ['gato-azul-marino'],
  ],
  ['5xx: a Chinese password sentence', http(500, { message: '初始密码是 lanse-haiyang' }), ['lanse-haiyang']],
  ['5xx: a Russian password sentence', http(500, { message: 'временный пароль: zelenyj-les' }), ['zelenyj-les']],
  ['5xx: a one-time code in prose', http(502, { message: 'your one-time code is 493817' }), ['493817']],
  [
    '409: an api key with a colon in prose',
    http(409, { message: 'integration exists; api key: live-omega-delta' }),
    ['live-omega-delta'],
  ],
  [
    '409: a Twilio auth token nested',
    http(409, { account: { authToken: 'f2a1c9e8b7d6a5f4e3d2c1b0a9f8e7d6' } }),
    ['f2a1c9e8b7d6a5f4e3d2c1b0a9f8e7d6'],
  ],
  [
    '409: an OAuth client_secret nested',
    http(409, { app: { oauth: { client_id: 'app-77', client_secret: 'plain words here' } } }),
    ['plain words here'],
  ],
  ['409: a refresh_token under an array', http(409, { grants: [{ refresh_token: 'rt-short-1' }] }), ['rt-short-1']],
  ['409: cookies', http(409, { session: 'sess-abc', cookies: { sid: 's%3Aabc' } }), ['sess-abc', 's%3Aabc']],
  ['409: a webhook signature header', http(409, { headers: { 'X-Hub-Signature-256': 'sha256=9b2c11' } }), ['9b2c11']],
  ['409: a card PIN and CVV', http(409, { card: { last4: '4242', pin: 1234, cvv: '987' } }), ['1234', '987']],
  [
    '409: a seed phrase',
    http(409, { wallet: { mnemonic: 'abandon ability able about above absent' } }),
    ['abandon ability'],
  ],
  [
    '409: a Mailgun key in a nested message',
    http(409, { detail: { note: 'domain bound to key-3ax6xnjp29jd6fds4gc373sgvjxteol0' } }),
    ['3ax6xnjp29jd6fds4gc373sgvjxteol0'],
  ],
  [
    '5xx: a bare high-entropy token in prose',
    http(503, { message: 'retry later with ticket q7Lm2Xv9Rt4Kp8Zs1Wn6Yb3H' }),
    ['q7Lm2Xv9Rt4Kp8Zs1Wn6Yb3H'],
  ],
  [
    '409: a customer e-mail address',
    http(409, { message: 'already subscribed', owner: { email: 'ann.lee+billing@example.co.uk' } }),
    ['ann.lee', 'billing'],
  ],
  [
    '5xx: an e-mail in prose',
    http(500, { message: 'cannot notify j.doe@mail.acme-corp.internal right now' }),
    ['j.doe'],
  ],
  [
    '5xx: a GCP service account',
    http(403, {
      error: { message: 'caller deployer@my-proj-123456.iam.gserviceaccount.com lacks storage.objects.create' },
    }),
    ['deployer', 'my-proj-123456'],
  ],
  [
    '5xx: an OpenAI project id',
    sdkError(403, 'Project proj_Kx92LmQ7vB3nR8tY1sW4zA6c does not have access to model gpt-x'),
    ['Kx92LmQ7vB3nR8tY1sW4zA6c'],
  ],
  [
    '409: an npm token in a nested string',
    http(409, { registry: { note: 'published with npm_Ab3De6Gh9Jk2Mn5Pq8St1Vw4Yz7Bc0Ef3Hi6' } }),
    ['Ab3De6Gh9Jk2Mn5Pq8St1Vw4Yz7Bc0Ef3Hi6'],
  ],
  [
    '409: a GitLab token with a masked twin',
    http(409, { message: 'token glpat-Xy7Zq2Wv9Ut4Sr1P exists (shown as ****1P9z)' }),
    ['Xy7Zq2Wv9Ut4Sr1P', '1P9z'],
  ],
  [
    'axios: a backup-codes list in prose',
    axiosError(409, { message: 'MFA already set up. Backup codes: 48213 90551 17384' }),
    ['48213', '90551', '17384'],
  ],
  [
    '409: a JSON string body with a secret key at depth 3',
    http(409, '{"existing":{"hook":{"secret":"swordfish"}}}'),
    ['swordfish'],
  ],
  [
    '409: a salt and a password hash',
    http(409, { user: { password_hash: '$2b$12$abcdefghijABCDEFGHIJ12', salt: 'NaCl-77' } }),
    ['abcdefghijABCDEFGHIJ12', 'NaCl-77'],
  ],
];

describe('held-out redaction: no planted secret reaches the failure or the feedback', () => {
  test.each(ISSUE_SAMPLES)('issue sample: %s', (_label, raw, secrets) => {
    const seen = visible(raw);
    for (const s of secrets) expect([s, seen.includes(s)]).toEqual([s, false]);
  });
  test.each(OWN_CASES)('own case: %s', (_label, raw, secrets) => {
    const seen = visible(raw);
    for (const s of secrets) expect([s, seen.includes(s)]).toEqual([s, false]);
  });
});

/** Harmless text the model needs: each must reach it as written. */
const HARMLESS: [label: string, raw: RawOutcome, kept: string[]][] = [
  [
    '409: usage counters',
    http(409, { usage: { token_count: 42, max_tokens: 1000, prompt_tokens: 17 } }),
    ['"token_count":42', '"max_tokens":1000', '"prompt_tokens":17'],
  ],
  [
    '409: words that contain a stem',
    http(409, { keyword: 'monkey', passenger: 'Ann Lee', keyboard: 'us', bypass: false, compass: 'N' }),
    ['"keyword":"monkey"', '"passenger":"Ann Lee"', '"keyboard":"us"', '"bypass":false', '"compass":"N"'],
  ],
  [
    '409: codes that are not secrets',
    http(409, { code: 'slot_taken', currency_code: 'EUR', status_code: 409, promo_code: 'SUMMER24' }),
    ['"code":"slot_taken"', '"currency_code":"EUR"', '"status_code":409', '"promo_code":"SUMMER24"'],
  ],
  [
    '409: keys that are not credentials',
    http(409, {
      idempotency_key: 'op-123',
      sort_key: 'b',
      public_key_id: 'k1',
      token_type: 'Bearer',
      expires_in: 3600,
    }),
    [
      '"idempotency_key":"op-123"',
      '"sort_key":"b"',
      '"public_key_id":"k1"',
      '"token_type":"Bearer"',
      '"expires_in":3600',
    ],
  ],
  [
    '409: business ids',
    http(409, {
      message: 'customer cus_42 already has order O-1842',
      existing: { id: 'ch_3MmlLrLkdIwHu7ix0snN0B15', order: '123e4567-e89b-12d3-a456-426614174000' },
    }),
    [
      'customer cus_42 already has order O-1842',
      '"id":"ch_3MmlLrLkdIwHu7ix0snN0B15"',
      '"order":"123e4567-e89b-12d3-a456-426614174000"',
    ],
  ],
  [
    '409: password metadata',
    http(409, { password_min_length: 12, password_changed_at: '2026-01-02', secret_name: 'billing' }),
    ['"password_min_length":12', '"password_changed_at":"2026-01-02"', '"secret_name":"billing"'],
  ],
  [
    '409: times, amounts and slots',
    http(409, { message: 'slot 10:00 on 2026-12-01 is taken', free: ['11:00', '12:30'], amount: 12.5 }),
    ['slot 10:00 on 2026-12-01 is taken', '"free":["11:00","12:30"]', '"amount":12.5'],
  ],
  ['5xx: the password is wrong', http(401, { message: 'the password is wrong' }), ['the password is wrong']],
  ['5xx: the token has expired', http(401, { message: 'the token is expired' }), ['the token is expired']],
  [
    '5xx: a password rule',
    http(400, { message: 'password must be at least 8 characters' }),
    ['password must be at least 8 characters'],
  ],
  ['5xx: the API key is invalid', http(401, { message: 'the API key is invalid' }), ['the API key is invalid']],
  ['5xx: a missing key', http(401, { message: 'api key: missing' }), ['api key: missing']],
  ['5xx: a German rule', http(401, { message: 'das Passwort ist falsch' }), ['das Passwort ist falsch']],
  ['5xx: a French rule', http(401, { message: 'le mot de passe est incorrect' }), ['le mot de passe est incorrect']],
  [
    '5xx: an exception name with digits',
    http(500, { message: 'InvalidBase64EncodingException in AmazonS3Client' }),
    ['InvalidBase64EncodingException in AmazonS3Client'],
  ],
  [
    '5xx: a camel identifier with a version',
    http(500, { message: 'x509CertificateVerificationFailed for PaymentIntentsV2Api' }),
    ['x509CertificateVerificationFailed for PaymentIntentsV2Api'],
  ],
  [
    '5xx: a constant and a SKU',
    http(500, { message: 'INSUFFICIENT_FUNDS_2024 for SKU-12345-BLUE-XL' }),
    ['INSUFFICIENT_FUNDS_2024 for SKU-12345-BLUE-XL'],
  ],
  [
    '5xx: a dotted field path',
    http(400, { message: 'data.attributes.amount must be positive' }),
    ['data.attributes.amount must be positive'],
  ],
  [
    '5xx: a PostgreSQL auth message',
    http(500, { message: 'password authentication failed for user "app"' }),
    ['password authentication failed for user \\"app\\"'],
  ],
  ['5xx: a session word', http(500, { message: 'session expired, sign in again' }), ['session expired, sign in again']],
  [
    '5xx: a long hyphenated phrase',
    http(500, { message: 'the-quick-brown-fox-jumps-over-the-lazy-dog failed' }),
    ['the-quick-brown-fox-jumps-over-the-lazy-dog failed'],
  ],
  [
    '5xx: an account word without an id',
    http(500, { message: 'account is locked for 15 minutes' }),
    ['account is locked for 15 minutes'],
  ],
];

describe('held-out redaction: harmless strings reach the model as written', () => {
  test.each(HARMLESS)('harmless: %s', (_label, raw, kept) => {
    const seen = visible(raw);
    for (const k of kept) expect([k, seen.includes(k)]).toEqual([k, true]);
  });
});
