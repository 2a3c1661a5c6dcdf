import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const scrypt = (password: string, salt: Buffer, keyLength: number, options: ScryptOptions) =>
  new Promise<Buffer>((resolve, reject) =>
    scryptCallback(password, salt, keyLength, options, (error, key) => (error ? reject(error) : resolve(key))),
  );

/**
 * scrypt: memory-hard, in Node's standard library (no native add-on to build). N = 2^15, r = 8 uses
 * 32 MiB per hash, ~50–100 ms on this class of machine. Parameters are stored with each hash so they
 * can be raised later without invalidating existing passwords.
 */
const DEFAULTS = { N: 2 ** 15, r: 8, p: 1, keyLength: 32 };

export function createPasswordHasher(params: Partial<typeof DEFAULTS> = {}) {
  const { N, r, p, keyLength } = { ...DEFAULTS, ...params };
  const maxmem = 256 * N * r;
  async function hash(password: string): Promise<string> {
    const salt = randomBytes(16);
    const key = await scrypt(password, salt, keyLength, { N, r, p, maxmem });
    return `scrypt$${N}$${r}$${p}$${salt.toString('base64url')}$${key.toString('base64url')}`;
  }
  /**
   * Whether `password` matches `stored`. Without a stored hash (an unknown address, a Google-only
   * account) the password is still checked, against a dummy hash of the same cost, and refused: a
   * sign-in takes as long for an address nobody registered as for a wrong password, so timing does
   * not tell which addresses have accounts.
   */
  async function verify(password: string, stored: string | null | undefined): Promise<boolean> {
    if (!stored) {
      await verify(password, await dummy());
      return false;
    }
    const [scheme, n, rr, pp, salt, key] = stored.split('$');
    if (scheme !== 'scrypt' || !n || !rr || !pp || !salt || !key) return false;
    const expected = Buffer.from(key, 'base64url');
    const options = { N: Number(n), r: Number(rr), p: Number(pp), maxmem: 256 * Number(n) * Number(rr) };
    const actual = await scrypt(password, Buffer.from(salt, 'base64url'), expected.length, options);
    return timingSafeEqual(actual, expected);
  }
  /** A hash of nobody's password with this hasher's parameters, made once on first use. */
  let dummyHash: Promise<string> | undefined;
  const dummy = () => (dummyHash ??= hash(randomBytes(16).toString('hex')));
  return { hash, verify };
}
export type PasswordHasher = ReturnType<typeof createPasswordHasher>;
