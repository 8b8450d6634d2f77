/**
 * The desk's password hashes and session tokens (operator/desk/password.ts, sessions.ts): pure, no server. The
 * hashes use ln = 10 here (N = 2^10) to keep the tests fast; the format and the checks are the same.
 */
import { decoyHash, hashPassword, MAX_PASSWORD_CHARS, verifyPassword } from '../../operator/desk/password';
import { MAX_SESSIONS_PER_USER, sameToken, SessionStore } from '../../operator/desk/sessions';
import { DeskConfigSchema } from '../../config/desk-schema';
import { LOGIN_LIMITS, LoginLimiter } from '../../operator/desk/login-limits';
import { SCRYPT_HASH } from '../../config/desk-schema';

describe('desk passwords (scrypt)', () => {
  test('hashPassword: a PHC string $scrypt$ln=17,r=8,p=1$<16-byte salt>$<32-byte key> by default, a new salt each time', async () => {
    const a = await hashPassword('s3cret');
    const m = SCRYPT_HASH.exec(a)!;
    expect([m[1], m[2], m[3]]).toEqual(['17', '8', '1']);
    expect([Buffer.from(m[4]!, 'base64').length, Buffer.from(m[5]!, 'base64').length]).toEqual([16, 32]);
    expect(await hashPassword('s3cret', { ln: 10 })).not.toBe(await hashPassword('s3cret', { ln: 10 }));
  });

  test('verifyPassword: the right password → true; a wrong one, an unknown user (no hash), a malformed hash → false', async () => {
    const stored = await hashPassword('correct horse', { ln: 10 });
    const decoy = await decoyHash(stored);
    await expect(verifyPassword('correct horse', stored, decoy)).resolves.toBe(true);
    await expect(verifyPassword('correct horsE', stored, decoy)).resolves.toBe(false);
    await expect(verifyPassword('correct horse', undefined, decoy)).resolves.toBe(false);
    await expect(verifyPassword('correct horse', stored.replace('ln=10', 'ln=11'), decoy)).resolves.toBe(false);
    await expect(verifyPassword('correct horse', '$scrypt$ln=99,r=8,p=1$AAAA$AAAA', decoy)).resolves.toBe(false);
    await expect(verifyPassword('correct horse', 'plain text', decoy)).resolves.toBe(false);
  });

  test('decoyHash: an unknown name is checked at the cost of a known one: the same ln, r and p', async () => {
    const stored = await hashPassword('pw', { ln: 11, r: 4, p: 2 });
    expect(SCRYPT_HASH.exec(await decoyHash(stored))!.slice(1, 4)).toEqual(['11', '4', '2']);
    expect(SCRYPT_HASH.exec(await decoyHash(undefined).then((h) => h))!.slice(1, 4)).toEqual(['17', '8', '1']);
  });

  test('passwords: Unicode is normalized (NFC) before hashing; non-strings, empty and over-long ones are refused', async () => {
    const stored = await hashPassword('caf\u00e9', { ln: 10 });
    await expect(verifyPassword('cafe\u0301', stored, stored)).resolves.toBe(true);
    for (const bad of [undefined, 5, '', 'x'.repeat(MAX_PASSWORD_CHARS + 1)])
      await expect(verifyPassword(bad, stored, stored)).resolves.toBe(false);
    await expect(hashPassword('')).rejects.toThrow(new RangeError('a desk password must be 1 to 1024 characters'));
  });
});

describe('desk sessions', () => {
  test('a login ends the old session and starts one with a new id and a new CSRF token; sessions expire', () => {
    let now = 1_000;
    const store = new SessionStore(60_000, 10_000, () => now);
    const anon = store.login(undefined, 'proxy-named');
    expect(anon.id).toMatch(/^[\w-]{43}$/);
    const in1 = store.login(anon, 'alice');
    expect([in1.id === anon.id, in1.csrf === anon.csrf, in1.user]).toEqual([false, false, 'alice']);
    expect(store.get(anon.id)).toBeUndefined();
    expect(store.get(in1.id)).toBe(in1);
    now += 60_000;
    expect(store.get(in1.id)).toBeUndefined();
  });

  test(`at most ${MAX_SESSIONS_PER_USER} sessions per operator and maxSessions in all: the oldest goes first`, () => {
    const store = new SessionStore(60_000, 100);
    const alice = store.login(undefined, 'alice');
    const bob = store.login(undefined, 'bob');
    for (let i = 0; i < MAX_SESSIONS_PER_USER; i++) store.login(undefined, 'alice');
    expect([store.get(alice.id), store.get(bob.id)]).toEqual([undefined, bob]);
    // bob's is the oldest of 17 (alice's 16 after him): 83 more fill the store to 100, the next one ends his.
    for (let i = 0; i < 83; i++) store.login(undefined, `user${i}`);
    expect(store.get(bob.id)).toEqual(bob);
    store.login(undefined, 'user83');
    expect(store.get(bob.id)).toBeUndefined();
  });

  test('the desk config: maxSessions defaults to 10,000, 16 to 1,000,000', () => {
    const parse = (desk: object) => DeskConfigSchema.safeParse(desk);
    expect(parse({}).data?.maxSessions).toBe(10_000);
    expect([15, 16, 1_000_000, 1_000_001, 1.5].map((maxSessions) => parse({ maxSessions }).success)).toEqual([
      false,
      true,
      true,
      false,
      false,
    ]);
  });

  test('sameToken: equal strings only; another length, a non-string → false', () => {
    expect(sameToken('abc', 'abc')).toBe(true);
    expect(sameToken('abd', 'abc')).toBe(false);
    expect(sameToken('abcd', 'abc')).toBe(false);
    expect(sameToken(['abc'], 'abc')).toBe(false);
    expect(sameToken(undefined, 'abc')).toBe(false);
  });
});

describe('login limits', () => {
  test(`per address and name: ${LOGIN_LIMITS.perName} attempts counted when they start, then 429 for that name only; a success clears the count`, () => {
    let now = 0;
    const limits = new LoginLimiter(() => now);
    for (let i = 0; i < LOGIN_LIMITS.perName; i++) limits.begin('10.0.0.1', 'alice')(false);
    expect(() => limits.begin('10.0.0.1', 'alice')).toThrow(
      'too many failed logins for this name from this address; try again in a few minutes',
    );
    limits.begin('10.0.0.1', 'bob')(true);
    limits.begin('10.0.0.2', 'alice')(true);
    now += LOGIN_LIMITS.windowMs + 1;
    limits.begin('10.0.0.1', 'alice')(true);
    limits.begin('10.0.0.1', 'alice')(false);
  });

  test(`at most ${LOGIN_LIMITS.inFlight} checks at once per address and per name; the next is refused at once, not queued`, () => {
    const limits = new LoginLimiter(() => 0);
    const flying = [limits.begin('10.0.0.1', 'a'), limits.begin('10.0.0.1', 'b')];
    const busy = 'other logins from this address or for this name are being checked; try again';
    expect(() => limits.begin('10.0.0.1', 'c')).toThrow(busy);
    const other = [limits.begin('10.0.0.2', 'd'), limits.begin('10.0.0.3', 'd')];
    expect(() => limits.begin('10.0.0.4', 'd')).toThrow(busy);
    flying[0]!(false);
    limits.begin('10.0.0.1', 'c')(false);
    for (const settle of [flying[1]!, ...other]) settle(false);
  });
});

describe('startDesk options', () => {
  test('a missing client or a malformed desk config is refused with ConfigError naming the field', async () => {
    const { startDesk } = await import('../../operator/desk/server');
    const { ConfigError } = await import('../../config/load');
    await expect(startDesk(undefined as never)).rejects.toThrow(
      new ConfigError('startDesk options', 'client', ['client: must be a @temporalio/client Client']),
    );
    const client = { workflow: { list: () => undefined } } as never;
    await expect(startDesk({ client, config: { port: 70_000 } })).rejects.toMatchObject({
      name: 'ConfigError',
      field: 'desk.port',
    });
    await expect(startDesk({ client, config: { users: [{ name: 'a', scrypt: 'plain' }] } })).rejects.toThrow(
      /desk\.users\.0\.scrypt: must be a \$scrypt\$ln=…,r=…,p=…\$salt\$hash string \(desk hash-password\)/,
    );
  });
});
