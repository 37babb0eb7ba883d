/**
 * PASETO v4.local (XChaCha20 + keyed BLAKE2b), plugged into the `paseto` package's token layer.
 *
 * `paseto` 4 handles token framing, claims (`exp`, `iat`, …) and their validation, but ships v4.local only as an
 * interface: the cipher needs BLAKE2b and XChaCha20, which neither Web Crypto nor Node's crypto offers in the needed
 * form. This file supplies them from the audited @noble libraries, exactly as the PASETO v4 specification describes
 * (checked against the official test vectors in test/identity/pasetoV4Local.test.ts).
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { blake2b } from '@noble/hashes/blake2.js';
import { xchacha20 } from '@noble/ciphers/chacha.js';
import { LocalDecrypt, LocalEncrypt, LocalProtocol, type Key } from 'paseto';

const HEADER = new TextEncoder().encode('v4.local.');
const ENCRYPTION_INFO = new TextEncoder().encode('paseto-encryption-key');
const AUTH_INFO = new TextEncoder().encode('paseto-auth-key-for-aead');
const NONCE_BYTES = 32;
const TAG_BYTES = 32;
const KEY_BYTES = 32;

/** A v4.local symmetric key. `bytes` never leaves the process. */
export type V4LocalKey = Key & { readonly algorithm: { readonly name: 'PASETO v4.local' }; readonly bytes: Uint8Array };

/** Imports a PASERK `k4.local.<base64url of 32 bytes>` key. */
export function importV4LocalKey(paserk: string): V4LocalKey {
  const match = /^k4\.local\.([A-Za-z0-9_-]{43})$/.exec(paserk);
  const bytes = match ? Buffer.from(match[1]!, 'base64url') : undefined;
  if (!bytes || bytes.length !== KEY_BYTES) throw new Error('expected a PASERK k4.local key');
  return { algorithm: { name: 'PASETO v4.local' }, extractable: false, type: 'secret', bytes: new Uint8Array(bytes) };
}

const concat = (...parts: Uint8Array[]) => new Uint8Array(Buffer.concat(parts));

/** Little-endian 64-bit length with the top bit cleared, as PAE requires. */
function le64(value: number): Uint8Array {
  const out = Buffer.alloc(8);
  out.writeBigUInt64LE(BigInt(value) & 0x7fffffffffffffffn);
  return out;
}

/** Pre-authentication encoding: the count of pieces, then each piece prefixed by its length. */
function pae(...pieces: Uint8Array[]): Uint8Array {
  return concat(le64(pieces.length), ...pieces.flatMap((piece) => [le64(piece.length), piece]));
}

function deriveKeys(key: Uint8Array, nonce: Uint8Array) {
  const derived = blake2b(concat(ENCRYPTION_INFO, nonce), { key, dkLen: 56 });
  return {
    encryptionKey: derived.subarray(0, 32),
    counterNonce: derived.subarray(32, 56),
    authKey: blake2b(concat(AUTH_INFO, nonce), { key, dkLen: 32 }),
  };
}

/** Encrypts `message`; answers the token body `nonce || ciphertext || tag`. `nonce` is given only by tests. */
export function encryptV4Local(
  key: Uint8Array,
  message: Uint8Array,
  footer: Uint8Array,
  implicit: Uint8Array,
  nonce = new Uint8Array(randomBytes(NONCE_BYTES)),
): Uint8Array {
  const { encryptionKey, counterNonce, authKey } = deriveKeys(key, nonce);
  const ciphertext = xchacha20(encryptionKey, counterNonce, message);
  const tag = blake2b(pae(HEADER, nonce, ciphertext, footer, implicit), { key: authKey, dkLen: TAG_BYTES });
  return concat(nonce, ciphertext, tag);
}

export class V4LocalDecryptError extends Error {
  override name = 'V4LocalDecryptError';
}

/** Checks the tag in constant time and decrypts; throws V4LocalDecryptError on any mismatch. */
export function decryptV4Local(key: Uint8Array, payload: Uint8Array, footer: Uint8Array, implicit: Uint8Array): Uint8Array {
  if (payload.length < NONCE_BYTES + TAG_BYTES) throw new V4LocalDecryptError('token too short');
  const nonce = payload.subarray(0, NONCE_BYTES);
  const ciphertext = payload.subarray(NONCE_BYTES, payload.length - TAG_BYTES);
  const tag = payload.subarray(payload.length - TAG_BYTES);
  const { encryptionKey, counterNonce, authKey } = deriveKeys(key, nonce);
  const expected = blake2b(pae(HEADER, nonce, ciphertext, footer, implicit), { key: authKey, dkLen: TAG_BYTES });
  if (!timingSafeEqual(expected, tag)) throw new V4LocalDecryptError('invalid token');
  return xchacha20(encryptionKey, counterNonce, ciphertext);
}

const EncryptFactory = LocalEncrypt<4, V4LocalKey>({
  version: 4,
  run: async (key, message, footer, implicit) => encryptV4Local(key.bytes, message, footer, implicit ?? new Uint8Array()),
});

const DecryptFactory = LocalDecrypt<4, V4LocalKey>({
  version: 4,
  run: async (key, payload, footer, implicit) => decryptV4Local(key.bytes, payload, footer, implicit ?? new Uint8Array()),
});

/** The v4.local protocol: `Encrypt(key, claims, options)` and `Decrypt(key, token, options)`. */
export const v4Local = new LocalProtocol(EncryptFactory, DecryptFactory);
