import { createCipheriv, createDecipheriv, hkdfSync, type KeyObject, randomBytes } from 'node:crypto';

/**
 * Keys at rest (docs/licensing.md): a key made from a registration file is kept sealed, so that its
 * licence file can be exported again, and nothing else can read it. AES-256-GCM under a key
 * derived (HKDF-SHA256) from the licence signing key: whoever can sign licence files can unseal,
 * nobody else, and a database dump alone reveals no key. Layout: `iv(12) | tag(16) | ciphertext`.
 */
const INFO = 'opsdeck/sealed-license-key/v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

function sealingKey(signingPrivateKey: KeyObject): Buffer {
  const ikm = signingPrivateKey.export({ format: 'der', type: 'pkcs8' });
  return Buffer.from(hkdfSync('sha256', ikm, Buffer.alloc(0), INFO, 32));
}

/** The key sealed: a fresh random IV each time, so sealing one key twice gives different bytes. */
export function sealKey(key: string, signingPrivateKey: KeyObject): Uint8Array {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', sealingKey(signingPrivateKey), iv);
  const ciphertext = Buffer.concat([cipher.update(key, 'utf8'), cipher.final()]);
  return new Uint8Array(Buffer.concat([iv, cipher.getAuthTag(), ciphertext]));
}

/** The key back; throws when the bytes were changed or sealed under another signing key. */
export function unsealKey(sealed: Uint8Array, signingPrivateKey: KeyObject): string {
  const bytes = Buffer.from(sealed);
  if (bytes.length < IV_BYTES + TAG_BYTES) throw new Error('sealed key is too short');
  const decipher = createDecipheriv('aes-256-gcm', sealingKey(signingPrivateKey), bytes.subarray(0, IV_BYTES));
  decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
}
