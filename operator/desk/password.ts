/**
 * Operator passwords, hashed with scrypt (RFC 7914) through Node's `crypto.scrypt`, stored as a PHC string
 * `$scrypt$ln=17,r=8,p=1$<salt>$<hash>` (base64). Parameters: N = 2^17, r = 8, p = 1 (OWASP Password Storage Cheat
 * Sheet, "scrypt": the recommended minimum), a 16-byte random salt, a 32-byte key. Checks run one at a time (each
 * takes 128 MiB for about a second at most), compare in constant time, and an unknown user costs the same as a wrong
 * password: a decoy hash with the users' own parameters (one set for all: config/desk-schema.ts). Node side.
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { SCRYPT_HASH } from '../../config/desk-schema';

/** scrypt's cost for a new hash: N = 2^`ln`, block size `r`, parallelism `p` (OWASP's recommended minimum). */
const DEFAULT = { ln: 17, r: 8, p: 1 };
const KEY_BYTES = 32;
/** Longest password accepted, in characters: longer input is refused before it is hashed. */
export const MAX_PASSWORD_CHARS = 1_024;

function derive(password: string, salt: Buffer, ln: number, r: number, p: number, bytes: number): Promise<Buffer> {
  const options: ScryptOptions = { N: 2 ** ln, r, p, maxmem: 2 ** ln * r * 256 };
  return new Promise((ok, fail) =>
    scrypt(password.normalize('NFC'), salt, bytes, options, (err, key) => (err ? fail(err) : ok(key))),
  );
}

/**
 * The PHC string for `password`, with a fresh salt.
 * @throws RangeError when the password is empty or longer than `MAX_PASSWORD_CHARS`.
 */
export async function hashPassword(password: string, params: Partial<typeof DEFAULT> = {}): Promise<string> {
  if (typeof password !== 'string' || password.length === 0 || password.length > MAX_PASSWORD_CHARS)
    throw new RangeError(`a desk password must be 1 to ${MAX_PASSWORD_CHARS} characters`);
  const { ln, r, p } = { ...DEFAULT, ...params };
  const salt = randomBytes(16);
  const key = await derive(password, salt, ln, r, p, KEY_BYTES);
  return `$scrypt$ln=${ln},r=${r},p=${p}$${salt.toString('base64')}$${key.toString('base64')}`;
}

let queue: Promise<unknown> = Promise.resolve();
/** Runs `fn` after every check before it: one scrypt at a time. */
function serially<T>(fn: () => Promise<T>): Promise<T> {
  const next = queue.then(fn, fn);
  queue = next.catch(() => undefined);
  return next;
}

/** A hash of a random password with the parameters of `like` (a user's hash; the defaults without one). */
export function decoyHash(like: string | undefined): Promise<string> {
  const m = SCRYPT_HASH.exec(like ?? '');
  const params = m ? { ln: Number(m[1]), r: Number(m[2]), p: Number(m[3]) } : {};
  return hashPassword(randomBytes(18).toString('base64'), params);
}

/**
 * True when `password` matches `stored` (a `hashPassword` string). With `stored` undefined (no such user) it checks
 * against `decoy` (`decoyHash`) and answers false, at the same cost. Never throws: a malformed hash answers false.
 */
export function verifyPassword(password: unknown, stored: string | undefined, decoy: string): Promise<boolean> {
  if (typeof password !== 'string' || password.length === 0 || password.length > MAX_PASSWORD_CHARS)
    return Promise.resolve(false);
  return serially(async () => {
    const target = stored ?? decoy;
    const m = SCRYPT_HASH.exec(target);
    if (!m) return false;
    const [ln, r, p] = [Number(m[1]), Number(m[2]), Number(m[3])];
    if (ln < 10 || ln > 20 || r < 1 || r > 32 || p < 1 || p > 16) return false;
    const expected = Buffer.from(m[5]!, 'base64');
    if (expected.length < 16) return false;
    const key = await derive(password, Buffer.from(m[4]!, 'base64'), ln, r, p, expected.length).catch(() => undefined);
    return key !== undefined && timingSafeEqual(key, expected) && stored !== undefined;
  });
}
