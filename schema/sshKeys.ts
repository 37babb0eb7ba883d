/**
 * SSH public keys that users register for SFTP (docs/sftp.md): the OpenSSH one-line form
 * (`ssh-ed25519 AAAA… comment`), checked down to the key itself (the point is on its curve, the RSA modulus has at
 * least 2048 bits) and fingerprinted as OpenSSH prints it (`SHA256:…`). Shared by the API (registration) and the
 * service's SFTP authentication (the key an agent was shown).
 */
import { createHash, createPublicKey } from 'node:crypto';
import { z } from 'zod';
import { name, timestamp } from './http.ts';

export const MIN_RSA_BITS = 2048;
export const MAX_RSA_BITS = 16384;
/** Keys a user may hold at once. */
export const MAX_SSH_KEYS = 50;

const CURVES = {
  'ecdsa-sha2-nistp256': { name: 'nistp256', jwk: 'P-256', bytes: 32, bits: 256 },
  'ecdsa-sha2-nistp384': { name: 'nistp384', jwk: 'P-384', bytes: 48, bits: 384 },
  'ecdsa-sha2-nistp521': { name: 'nistp521', jwk: 'P-521', bytes: 66, bits: 521 },
} as const;

export const SSH_KEY_ALGORITHMS = ['ssh-ed25519', 'ssh-rsa', ...(Object.keys(CURVES) as (keyof typeof CURVES)[])] as const;
export type SshKeyAlgorithm = (typeof SSH_KEY_ALGORITHMS)[number];

export type ParsedSshKey = {
  algorithm: SshKeyAlgorithm;
  bits: number;
  /** The key's wire form, base64 (the second field of an `authorized_keys` line). */
  publicKey: string;
  /** `SHA256:` and the unpadded base64 of the SHA-256 of the wire form, as `ssh-keygen -l` prints it. */
  fingerprint: string;
  /** The comment after the key, if any. */
  comment: string | null;
};

export class SshKeyError extends Error {
  override name = 'SshKeyError';
}

/** Reads SSH wire strings (uint32 length, then bytes) from a blob, refusing anything that runs past its end. */
class WireReader {
  #offset = 0;
  readonly blob: Buffer;
  constructor(blob: Buffer) {
    this.blob = blob;
  }
  string(): Buffer {
    if (this.#offset + 4 > this.blob.length) throw new SshKeyError('the key is truncated');
    const length = this.blob.readUInt32BE(this.#offset);
    this.#offset += 4;
    if (length > this.blob.length - this.#offset) throw new SshKeyError('the key is truncated');
    const value = this.blob.subarray(this.#offset, this.#offset + length);
    this.#offset += length;
    return value;
  }
  get done(): boolean {
    return this.#offset === this.blob.length;
  }
}

const base64url = (bytes: Buffer) => bytes.toString('base64url');
/** An SSH mpint as unsigned big-endian bytes (a leading zero byte only marks a positive number). */
const unsigned = (mpint: Buffer) => {
  let start = 0;
  while (start < mpint.length - 1 && mpint[start] === 0) start++;
  return mpint.subarray(start);
};
const bitLength = (bytes: Buffer) => (bytes.length === 0 || (bytes.length === 1 && bytes[0] === 0) ? 0 : (bytes.length - 1) * 8 + (32 - Math.clz32(bytes[0]!)));

/** `SHA256:…` of a key's wire form. */
export function sshFingerprint(blob: Buffer): string {
  return `SHA256:${createHash('sha256').update(blob).digest('base64').replace(/=+$/, '')}`;
}

/**
 * Checks a key's wire form (`algorithm` as named outside it, e.g. by the SSH client) and answers its algorithm and
 * size. Throws SshKeyError saying what is wrong.
 */
export function checkSshKeyBlob(algorithm: string, blob: Buffer): { algorithm: SshKeyAlgorithm; bits: number } {
  const reader = new WireReader(blob);
  const inner = reader.string().toString('latin1');
  if (inner !== algorithm) throw new SshKeyError(`the key says it is ${JSON.stringify(inner.slice(0, 40))}, not ${algorithm}`);
  if (algorithm === 'ssh-ed25519') {
    const key = reader.string();
    if (key.length !== 32 || !reader.done) throw new SshKeyError('not an Ed25519 key');
    importKey({ kty: 'OKP', crv: 'Ed25519', x: base64url(key) });
    return { algorithm, bits: 256 };
  }
  if (algorithm === 'ssh-rsa') {
    const e = unsigned(reader.string());
    const n = unsigned(reader.string());
    if (!reader.done) throw new SshKeyError('not an RSA key');
    const bits = bitLength(n);
    if (bits < MIN_RSA_BITS) throw new SshKeyError(`RSA keys need at least ${MIN_RSA_BITS} bits (this one has ${bits})`);
    if (bits > MAX_RSA_BITS) throw new SshKeyError(`RSA keys of more than ${MAX_RSA_BITS} bits are not accepted`);
    if (bitLength(e) === 0 || bitLength(e) > 64) throw new SshKeyError('not an RSA key (its exponent)');
    importKey({ kty: 'RSA', n: base64url(n), e: base64url(e) });
    return { algorithm, bits };
  }
  if (algorithm in CURVES) {
    const curve = CURVES[algorithm as keyof typeof CURVES];
    const curveName = reader.string().toString('latin1');
    const point = reader.string();
    if (curveName !== curve.name || !reader.done) throw new SshKeyError(`not an ${algorithm} key`);
    if (point.length !== 1 + 2 * curve.bytes || point[0] !== 4) throw new SshKeyError(`not an ${algorithm} key (only uncompressed points)`);
    importKey({ kty: 'EC', crv: curve.jwk, x: base64url(point.subarray(1, 1 + curve.bytes)), y: base64url(point.subarray(1 + curve.bytes)) });
    return { algorithm: algorithm as SshKeyAlgorithm, bits: curve.bits };
  }
  throw new SshKeyError(`keys of type ${JSON.stringify(algorithm.slice(0, 40))} are not accepted: use ssh-ed25519, ecdsa-sha2-nistp256/384/521 or ssh-rsa`);
}

function importKey(jwk: Record<string, string>): void {
  try {
    createPublicKey({ key: jwk, format: 'jwk' });
  } catch {
    throw new SshKeyError('the key is not a valid public key (its point or numbers are wrong)');
  }
}

/** Parses one OpenSSH public key line (`<type> <base64> [comment]`). Throws SshKeyError saying what is wrong. */
export function parseSshPublicKey(line: string): ParsedSshKey {
  const text = line.trim();
  if (/[\r\n]/.test(text)) throw new SshKeyError('one key on one line, please');
  if (text.startsWith('-----BEGIN')) throw new SshKeyError('that is a PEM key; paste the OpenSSH form (the contents of the .pub file)');
  const match = /^(\S+)\s+([A-Za-z0-9+/]+={0,2})(?:\s+(.*))?$/.exec(text);
  if (!match) throw new SshKeyError('expected an OpenSSH public key: "<type> <base64> [comment]", such as the contents of ~/.ssh/id_ed25519.pub');
  const [, type, encoded, comment] = match;
  if (type!.includes('-cert-v01@openssh.com')) throw new SshKeyError('certificates are not accepted; paste the key itself');
  if (type!.startsWith('sk-')) throw new SshKeyError('security-key (sk-) keys are not accepted yet');
  const blob = Buffer.from(encoded!, 'base64');
  if (blob.toString('base64') !== encoded!.padEnd(Math.ceil(encoded!.length / 4) * 4, '=')) throw new SshKeyError('the key is not valid base64');
  const { algorithm, bits } = checkSshKeyBlob(type!, blob);
  return { algorithm, bits, publicKey: blob.toString('base64'), fingerprint: sshFingerprint(blob), comment: comment?.trim() || null };
}

// ---- HTTP

export const sshKey = z
  .object({
    id: z.string(),
    name: z.string(),
    algorithm: z.enum(SSH_KEY_ALGORITHMS),
    bits: z.int(),
    fingerprint: z
      .string()
      .meta({ description: 'SHA256 fingerprint as `ssh-keygen -l` prints it.', example: 'SHA256:uNiVztksCsDhcc0u9e8BujQXVUpKZIDTMczCvj3tD2s' }),
    publicKey: z.string().meta({ description: 'The key in OpenSSH form (`<type> <base64>`), without its comment.' }),
    createdAt: timestamp,
    lastUsedAt: timestamp.nullable(),
  })
  .meta({ id: 'SshKey' });
export type SshKey = z.infer<typeof sshKey>;

export const createSshKeyBody = z
  .object({
    name,
    publicKey: z
      .string()
      .min(1, 'is required')
      .max(16 * 1024)
      .meta({
        description: 'One OpenSSH public key line: ed25519, ecdsa (nistp256/384/521) or rsa of 2048 bits or more.',
        example: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIE… me@laptop',
      }),
  })
  .strict();
