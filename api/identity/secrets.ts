/**
 * Secrets the service needs, generated on first start and kept under DATA_DIR/secrets when not given in the
 * environment. Files are created with mode 0600 inside a 0700 directory.
 */
import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';

export type Secrets = {
  /** PASERK `k4.local.…`: the symmetric key of session access tokens (PASETO v4.local). */
  pasetoKey: string;
};

const PASERK_LOCAL = /^k4\.local\.[A-Za-z0-9_-]{43}$/;

/** A new PASERK k4.local key: 32 random bytes, base64url without padding. */
export const generatePasetoKey = () => `k4.local.${randomBytes(32).toString('base64url')}`;

async function readOrCreate(file: string, create: () => string, valid: (value: string) => boolean): Promise<string> {
  const saved = (await readFile(file, 'utf8').catch(() => null))?.trim();
  if (saved !== undefined) {
    if (!valid(saved)) throw new Error(`The secret in ${file} is malformed; fix or delete it`);
    return saved;
  }
  const value = create();
  // Written whole to a file of this call's own, then linked into place: `link` fails if another process got there
  // first (then its value is the one to use), and no reader ever sees the file half-written.
  const own = `${file}.${process.pid}.${randomBytes(6).toString('hex')}`;
  await writeFile(own, `${value}\n`, { mode: 0o600, flag: 'wx' });
  try {
    await link(own, file);
    return value;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return readOrCreate(file, create, valid);
  } finally {
    await rm(own, { force: true });
  }
}

export async function loadSecrets(options: { dataDir: string; pasetoKey?: string }): Promise<Secrets> {
  if (options.pasetoKey) return { pasetoKey: options.pasetoKey };
  const dir = join(resolve(options.dataDir), 'secrets');
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const pasetoKey = await readOrCreate(join(dir, 'paseto-key'), generatePasetoKey, (value) => PASERK_LOCAL.test(value));
  return { pasetoKey };
}
