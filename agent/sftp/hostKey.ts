/**
 * The SFTP service's host key (docs/sftp.md): an ED25519 key made on first start (or by `gsm-agent install`)
 * in `<data-dir>/sftp/host_ed25519_key`, mode 0600, in the agent's own folder (0700). Its SHA256 fingerprint is what
 * `sftp` shows on a first connection, and what the service shows on the machine's record to compare it with.
 */
import { chmod, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import ssh2 from 'ssh2';
import { sshFingerprint } from '../../schema/sshKeys.ts';

const { utils } = ssh2;

export type HostKey = { privateKey: Buffer; fingerprint: string };

export const hostKeyPath = (dataDir: string) => join(dataDir, 'sftp', 'host_ed25519_key');

/**
 * A new ED25519 host key in OpenSSH form. ssh2 1.17's generator drops the leading zero bytes of the public key, so about
 * 1 key in 256 comes out unreadable by its own parser (mscdex/ssh2#1390, #1513): an agent that made one could not start
 * its SFTP service. A key that does not read back is made again.
 */
export function generateHostKey(): Buffer {
  for (let attempt = 1; ; attempt++) {
    const privateKey = Buffer.from(utils.generateKeyPairSync('ed25519', { comment: 'gsm-agent sftp host key' }).private);
    const parsed = utils.parseKey(privateKey);
    // 16 misses in a row happen once in 2^128 tries: past that, say why.
    if (!(parsed instanceof Error)) return privateKey;
    if (attempt === 16) throw new Error(`an SFTP host key could not be made: ${parsed.message}`);
  }
}

/** The host key, made when there is none yet. A key file another user could read is refused (as sshd does). */
export async function loadOrCreateHostKey(dataDir: string): Promise<HostKey> {
  const folder = join(dataDir, 'sftp');
  await mkdir(folder, { recursive: true, mode: 0o700 });
  await chmod(folder, 0o700);
  const path = hostKeyPath(dataDir);
  let privateKey: Buffer;
  try {
    const info = await stat(path);
    if ((info.mode & 0o077) !== 0)
      throw new Error(`the SFTP host key ${path} may be read by other users (mode ${(info.mode & 0o777).toString(8)}); make it 0600`);
    privateKey = await readFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    privateKey = generateHostKey();
    // `wx`: two agents starting at once on one data directory do not overwrite each other's key.
    await writeFile(path, privateKey, { mode: 0o600, flag: 'wx' }).catch(async (writeError: NodeJS.ErrnoException) => {
      if (writeError.code !== 'EEXIST') throw writeError;
      privateKey = await readFile(path);
    });
  }
  const parsed = utils.parseKey(privateKey);
  if (parsed instanceof Error) throw new Error(`the SFTP host key ${path} cannot be read: ${parsed.message}`);
  const key = Array.isArray(parsed) ? parsed[0]! : parsed;
  return { privateKey, fingerprint: sshFingerprint(key.getPublicSSH()) };
}
