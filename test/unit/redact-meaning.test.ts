/**
 * The rules of "redaction by meaning" (issue 27): vendor-prefixed tokens (one row each), token-shaped strings,
 * masked fragments, e-mail addresses, account ids and prose that introduces a secret, each with text that must
 * stay. Pure: no workers, no servers.
 */
import { redact, REDACTION_RULES } from '../../recovery/redact';
import { isTokenShaped } from '../../recovery/redact-entropy';
import { VENDOR_TOKENS } from '../../recovery/redact-vendor-tokens';

/** One token of each vendor row (made up; the shapes are the vendors'). */
const VENDOR_SAMPLES: Record<string, string> = {
  'OpenAI / Anthropic key': 'sk-proj-Ab3De6Gh9Jk2Mn5P',
  'GitHub token': 'ghs_R2d2C3po9Lk8Jh7Gf6Ds5Aq4',
  'Slack token': 'xoxb-2841-9973',
  'AWS access key id': 'ASIAQWERTYUIOPASDFGH',
  'Google API key': 'AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6',
  'Google OAuth token or client secret': 'GOCSPX-Ab3De6Gh9Jk2Mn5Pq8St1Vw',
  'Stripe key or webhook secret': 'whsec_Q2x9LmP4vB7nR1tY8sK3',
  'GitLab token': 'glrt-Ab3De6Gh9Jk2Mn5Pq8',
  'npm token': 'npm_Ab3De6Gh9Jk2Mn5Pq8St1Vw4Yz7Bc0Ef3Hi6',
  'SendGrid key': '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',
  'Hugging Face token': 'hf_aBcDeFgHiJkLmNoPqRsTuVwXyZaBcDeFgH',
  'Mailgun key': 'key-3ax6xnjp29jd6fds4gc373sgvjxteol0',
  'Shopify token': 'shpat_0123456789abcdef0123456789abcdef',
  'DigitalOcean token': `dop_v1_${'0123456789abcdef'.repeat(4)}`,
  'PyPI token': `pypi-AgEIcHlwaS5vcmc${'Ab3De6Gh9J'.repeat(6)}`,
  'Databricks token': 'dapi0123456789abcdef0123456789abcdef',
  'Postman key': `PMAK-${'0123456789ab'.repeat(2)}-${'0123456789abcdef0'.repeat(2)}`,
  'Linear key': `lin_api_${'Ab3De6Gh9J'.repeat(4)}`,
  'Grafana token': `glsa_${'Ab3De6Gh'.repeat(4)}_0123abcd`,
  'Vault token': 'hvs.CAESIAb3De6Gh9Jk2Mn5Pq8St1Vw4',
  'age secret key': `AGE-SECRET-KEY-1${'QWERTY0123'.repeat(5)}QWERTYUI`,
  'LLM provider key': `gsk_${'Ab3De6Gh9J'.repeat(4)}`,
  'Twilio API key': 'SK0123456789abcdef0123456789abcdef',
  'Sentry token': `sntrys_${'Ab3De6Gh9J'.repeat(4)}`,
  'Atlassian token': `ATATT3${'xFfGF0Ab3De6Gh9J'.repeat(8)}`,
  'Telegram bot token': '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw1',
  'Notion token': `ntn_${'Ab3De6Gh9J'.repeat(5)}`,
  'Supabase token': `sbp_${'0123456789abcdef0123'.repeat(2)}`,
};

describe('vendor-prefixed tokens: every row of the table, with its source', () => {
  it('every row has a sample here, a source and a hint', () => {
    expect(VENDOR_TOKENS.map((v) => v.name).sort()).toEqual(Object.keys(VENDOR_SAMPLES).sort());
    for (const v of VENDOR_TOKENS)
      expect([v.name, v.source.length > 10, v.hint.length > 0]).toEqual([v.name, true, true]);
  });
  it.each(VENDOR_TOKENS.map((v) => [v.name, v] as const))('%s: removed from prose, its hint matches', (name, v) => {
    const token = VENDOR_SAMPLES[name]!;
    expect(new RegExp(`^(?:${v.pattern})$`).test(token)).toBe(true);
    expect(new RegExp(v.hint).test(token)).toBe(true);
    expect(redact(`upstream said ${token} was revoked`)).toBe('upstream said [redacted] was revoked');
  });
});

describe('redact: masked fragments, e-mail addresses, account ids', () => {
  it.each<[string, string]>([
    ['Incorrect API key provided: sk-abc12….', 'Incorrect API key provided: [redacted].'],
    ['key sk-abc12... was revoked', 'key [redacted] was revoked'],
    ['Incorrect API key provided: sk-proj-Ab12*****wxYZ.', 'Incorrect API key provided: [redacted].'],
    ['Invalid API Key provided: sk_live_****4f2Q', 'Invalid API Key provided: [redacted]'],
    ['token abcd****wxyz expired', 'token [redacted] expired'],
    ['card ****1234 declined', 'card [redacted] declined'],
    ['card •••• 4242 declined', 'card [redacted] declined'],
    ['card XXXX-XXXX-XXXX-1234 declined', 'card [redacted] declined'],
    ['owner ann.lee+billing@example.co.uk left', 'owner [email] left'],
    ['cannot notify j.doe@mail.acme-corp.internal', 'cannot notify [email]'],
    ['Permission denied for ci-deployer@[host] on it', 'Permission denied for [email] on it'],
    ['caller deployer@my-proj-123456.iam.gserviceaccount.com lacks it', 'caller [email] lacks it'],
    ['No such organization: org-Xq7bKp2LmN4vR8sT1wY3zA9c.', 'No such organization: [account].'],
    ['Project proj_Kx92LmQ7vB3nR8tY1sW4zA6c has no access', 'Project [account] has no access'],
    ['Account acct_1Nv0FGQ9RKHgCVdK is restricted', 'Account [account] is restricted'],
    ['User: arn:aws:iam::493817206451:user/ci-bot is not authorized', 'User: [account] is not authorized'],
    ['quota exceeded for AWS account 5820-1493-7706', 'quota exceeded for AWS account [account]'],
    ['AccountId: 493817206451', 'AccountId: [account]'],
    ['not a member of tenant 72f988bf-86f1-41af-91ab-2d7cd011db47.', 'not a member of tenant [account].'],
    ['{"organization": "acme-prod", "n": 1}', '{"organization": "[account]", "n": 1}'],
    ['card 4242 4242 4242 4242 declined', 'card [redacted] declined'],
    ['card 4242424242424242 declined', 'card [redacted] declined'],
    ['amex 3782 822463 10005 declined', 'amex [redacted] declined'],
    ['IBAN DE89 3704 0044 0532 0130 00 rejected', 'IBAN [account] rejected'],
    ['IBAN GB82WEST12345698765432 rejected', 'IBAN [account] rejected'],
    ['X-API-KEY header value Q7ZK2M9XW4RT8PLN is invalid', 'X-API-KEY header value [redacted] is invalid'],
  ])('redact(%j) → %j', (text, expected) => {
    expect(redact(text)).toBe(expected);
  });
});

describe('redact: secrets in XML, Ruby hashes and JSON text inside a JSON string', () => {
  it.each<[string, string]>([
    ['<password>hunter2</password>', '<password>[redacted]</password>'],
    ['<ns:ApiKey a="1">abc123</ns:ApiKey>', '<ns:ApiKey a="1">[redacted]</ns:ApiKey>'],
    ['<AccountId>493817206451</AccountId>', '<AccountId>[account]</AccountId>'],
    ['{"password"=>"hunter2", "n"=>1}', '{"password"=>"[redacted]", "n"=>1}'],
    ['upstream said {\\"token\\":\\"abc123\\",\\"n\\":1}', 'upstream said {\\"token\\":\\"[redacted]\\",\\"n\\":1}'],
  ])('redact(%j) → %j', (text, expected) => {
    expect(redact(text)).toBe(expected);
    expect(redact(expected)).toBe(expected);
  });
  it.each(['<name>Ann</name>', '<keyword>monkey</keyword>', 'amounts 5000 1000 2000 3000', 'timestamp 1700000000000'])(
    'redact(%j) leaves it as it is',
    (text) => {
      expect(redact(text)).toBe(text);
    },
  );
});

describe('redact: prose that introduces a secret, in several languages', () => {
  it.each<[string, string]>([
    ['the passphrase is: correct-horse-battery-staple', 'the passphrase is: [redacted]'],
    ['the passphrase is purple monkey dishwasher lamp. Rotate it.', 'the passphrase is [redacted]. Rotate it.'],
    ['MFA already set up. Backup codes: 48213 90551 17384', 'MFA already set up. Backup codes: [redacted]'],
    ['recovery codes are 7a1c-93fe, b2d4-0c11; keep them', 'recovery codes are [redacted]; keep them'],
    ['the password for user admin is swordfish', 'the password for user admin is [redacted]'],
    ['your one-time code is 493817', 'your one-time code is [redacted]'],
    ['verification code: 582014', 'verification code: [redacted]'],
    ['api key: live-omega-delta', 'api key: [redacted]'],
    ['Access Token = abc', 'Access Token = [redacted]'],
    ['client secret was set to "plain words here"', 'client secret was set to "[redacted]"'],
    ['das Passwort lautet Sommer-Regen', 'das Passwort lautet [redacted]'],
    ['Kennwort: Hund-Katze-Maus', 'Kennwort: [redacted]'],
    ['le mot de passe est : chat-noir-violet', 'le mot de passe est : [redacted]'],
    ['la contraseña es gato-azul-marino', 'la contraseña es [redacted]'],
    ['a senha é cachorro-verde', 'a senha é [redacted]'],
    ['la password è cane-rosso', 'la password è [redacted]'],
    ['het wachtwoord is fiets-boom', 'het wachtwoord is [redacted]'],
    ['временный пароль: zelenyj-les', 'временный пароль: [redacted]'],
    ['初始密码是 lanse-haiyang', '初始密码是 [redacted]'],
    ['密码：Zx9kLm2', '密码:[redacted]'],
    ['パスワードは hunter2 です', 'パスワードは [redacted] です'],
    ['비밀번호는 qwerty77', '비밀번호는 [redacted]'],
    ['hasło: kot-pies', 'hasło: [redacted]'],
    ['şifre: kedi-köpek', 'şifre: [redacted]'],
    ['lösenord är katt-hund', 'lösenord är [redacted]'],
    ['mật khẩu là meo-cho', 'mật khẩu là [redacted]'],
  ])('redact(%j) → %j', (text, expected) => {
    expect(redact(text)).toBe(expected);
  });

  it.each([
    'the password is wrong',
    'the token is expired',
    'the API key is invalid',
    'api key: missing',
    'password: required',
    'the password is too short',
    'the token was revoked',
    'password must be at least 8 characters',
    'the passphrase is: required',
    'Backup codes: none',
    'das Passwort ist falsch',
    'le mot de passe est incorrect',
    'la contraseña es incorrecta',
    'пароль: неверный',
    '密码是必填项',
    'password authentication failed for user "app"',
    'session expired, sign in again',
    'token limit 4096 exceeded',
    'account is locked for 15 minutes',
    'org-wide policy applies',
    'see ACME-2024-001 for the key rotation schedule',
    'lodash@4.17.21 and @acme/sdk@1.2.3',
    '*** WARNING ***',
    'the refresh credential is dead; only a human can sign in again',
    'request 01ARZ3NDEKTSV4RRFFQ69G5FAV failed',
  ])('redact(%j) leaves it as it is', (text) => {
    expect(redact(text)).toBe(text);
  });
});

/** A deterministic generator (a 32-bit LCG, Numerical Recipes constants), so the measured rates are fixed. */
function randomStrings(alphabet: string, length: number, count: number, seed: number): string[] {
  let x = seed >>> 0;
  const next = () => (x = (Math.imul(x, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  return Array.from({ length: count }, () =>
    Array.from({ length }, () => alphabet[Math.floor(next() * alphabet.length)]).join(''),
  );
}
const B62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

describe('isTokenShaped: the rule of recovery/redact-entropy.ts', () => {
  it.each<[string, number, number, number]>([
    // alphabet, length, least share recognised (measured with these seeds: 0.983, 0.998, 0.989, 0.947, 0.901)
    [B62, 20, 0.98, 1],
    [B62, 32, 0.99, 2],
    ['0123456789abcdef', 32, 0.98, 3],
    ['0123456789abcdef', 20, 0.93, 4],
    ['abcdefghijklmnopqrstuvwxyz0123456789', 32, 0.87, 5],
  ])('random strings over %s of length %i: at least %f are token-shaped', (alphabet, length, least, seed) => {
    const samples = randomStrings(alphabet, length, 2000, seed);
    const share = samples.filter(isTokenShaped).length / samples.length;
    expect(share).toBeGreaterThanOrEqual(least);
  });

  it.each([
    'InvalidBase64EncodingException',
    'x509CertificateVerificationFailed',
    'PaymentIntentsV2Api',
    'ThisIsAVeryLongCamelCaseIdentifier1234',
    'XMLHttpRequestEventTarget',
    'K8sPodDisruptionBudgetV1Beta1',
    'INSUFFICIENT_FUNDS_2024_Q3_REPORT',
    'PROD-2024-00012345-EU-WEST-1A',
    'the-quick-brown-fox-jumps-over-the-lazy-dog',
    'data.attributes.amount.value',
    '1.2.3-beta.1+build.20260101',
    'getUserAccountsByOrganizationId2',
    'abcdefghijklmnopqrstuvwxyz012345',
    'a1a1a1a1a1a1a1a1a1a1a1a1',
    'cus_NffrFeUfNV2Hib',
    'ch_3MmlLrLkdIwHu7ix0snN0B15',
    '123e4567-e89b-12d3-a456-426614174000',
    'order-123e4567-e89b-12d3-a456-426614174000',
    '01ARZ3NDEKTSV4RRFFQ69G5FAV',
  ])('%s is not token-shaped', (run) => {
    expect(isTokenShaped(run)).toBe(false);
  });

  it.each(['q7Lm2Xv9Rt4Kp8Zs1Wn6Yb3H', '9f86d081884c7d659a2feaa0c55ad015', 'dGhpcyBpcyBhIHRlc3Q=', 'Xk9QmT2vLp8RzW4a'])(
    '%s is token-shaped',
    (run) => {
      expect(isTokenShaped(run)).toBe(true);
    },
  );

  it('the table has the token-shaped rule last, after paths and hosts', () => {
    expect(REDACTION_RULES[REDACTION_RULES.length - 1]?.name).toBe('token-shaped string');
  });
});
