import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { newLicenseKey } from './keys';
import { sealKey, unsealKey } from './sealing';

const signing = generateKeyPairSync('ed25519').privateKey;

describe('sealed licence keys', () => {
  it('unseal to the key, and seal differently each time (a fresh IV)', () => {
    const { key } = newLicenseKey();
    const sealed = sealKey(key, signing);
    expect(sealed.length).toBe(12 + 16 + key.length);
    expect(unsealKey(sealed, signing)).toBe(key);
    expect(Buffer.from(sealKey(key, signing)).equals(Buffer.from(sealed))).toBe(false);
    expect(Buffer.from(sealed).toString('latin1')).not.toContain(key);
  });

  it('refuse any changed byte: the IV, the tag or the ciphertext', () => {
    const sealed = sealKey(newLicenseKey().key, signing);
    for (const index of [0, 12, 28, sealed.length - 1]) {
      const changed = Uint8Array.from(sealed);
      changed[index]! ^= 1;
      expect(() => unsealKey(changed, signing), `byte ${index}`).toThrow();
    }
    expect(() => unsealKey(sealed.subarray(0, 20), signing)).toThrow();
  });

  it('refuse another signing key', () => {
    const sealed = sealKey(newLicenseKey().key, signing);
    expect(() => unsealKey(sealed, generateKeyPairSync('ed25519').privateKey)).toThrow();
  });
});
