import { createHash, randomBytes } from 'node:crypto';

/**
 * Licence keys (docs/licensing.md): 160 random bits in Crockford's base32 (no I, L, O or U, so a
 * person can read one out), in groups of four after the `ODK` prefix:
 * `ODK-7F3Q-K2M9-…` (8 groups). Only the SHA-256 digest and the partial form are stored.
 */
export const KEY_PREFIX = 'ODK';
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const KEY_BYTES = 20;
const GROUP = 4;
const KEY_PATTERN = /^ODK(-[0-9A-HJKMNP-TV-Z]{4}){8}$/;

export interface NewLicenseKey {
  /** The full key: shown once, and written into a licence file; never stored. */
  key: string;
  /** What is stored to find the key again. */
  digest: string;
  /** What is shown to recognise it: the prefix, the first group and the last. */
  partial: string;
}

function base32(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += ALPHABET[(value << (5 - bits)) & 31];
  return out;
}

/** A new key with its digest and partial form. */
export function newLicenseKey(): NewLicenseKey {
  const body = base32(randomBytes(KEY_BYTES));
  const groups = body.match(new RegExp(`.{${GROUP}}`, 'g')) ?? [];
  const key = [KEY_PREFIX, ...groups].join('-');
  return { key, digest: keyDigest(key), partial: partialKey(key) };
}

/**
 * A key as typed back: upper case, without spaces, and with the letters people confuse read as
 * the digits they stand for (O → 0, I and L → 1), as Crockford's base32 does. Null when it is not
 * a key at all.
 */
export function normalizeKey(text: string): string | null {
  const upper = text.trim().toUpperCase().replace(/\s+/g, '');
  const [prefix, ...groups] = upper.split('-');
  if (prefix !== KEY_PREFIX) return null;
  const key = [prefix, ...groups.map((group) => group.replace(/O/g, '0').replace(/[IL]/g, '1'))].join('-');
  return KEY_PATTERN.test(key) ? key : null;
}

/** The stored form: SHA-256 of the normalized key, hex. */
export function keyDigest(key: string): string {
  return createHash('sha256')
    .update(normalizeKey(key) ?? key)
    .digest('hex');
}

/** `ODK-7F3Q-…-XW2D`: enough to recognise a key, 40 of its 160 bits, never enough to use it. */
export function partialKey(key: string): string {
  const groups = key.split('-');
  return `${groups[0]}-${groups[1]}-…-${groups.at(-1)}`;
}
