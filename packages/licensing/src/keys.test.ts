import { describe, expect, it } from 'vitest';
import { keyDigest, newLicenseKey, normalizeKey, partialKey } from './keys';

describe('licence keys', () => {
  it('are 160 random bits in eight readable groups, different every time', () => {
    const keys = Array.from({ length: 200 }, () => newLicenseKey().key);
    for (const key of keys) expect(key).toMatch(/^ODK(-[0-9A-HJKMNP-TV-Z]{4}){8}$/);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('store a SHA-256 digest and a partial form that reveals 8 of 32 characters', () => {
    const { key, digest, partial } = newLicenseKey();
    expect(digest).toMatch(/^[0-9a-f]{64}$/);
    expect(digest).toBe(keyDigest(key));
    const groups = key.split('-');
    expect(partial).toBe(`ODK-${groups[1]}-…-${groups[8]}`);
    expect(partialKey(key)).toBe(partial);
    expect(partial.replace(/[^0-9A-Z]/g, '').length).toBe(3 + 8);
  });

  it('are found again as typed back: any case, spaces, and O, I, L read as 0, 1, 1', () => {
    const key = 'ODK-7F3Q-K2M9-0000-1111-ABCD-EFGH-JKMN-PQRS';
    expect(normalizeKey(' odk-7f3q-k2m9-oooo-ilIL-abcd-efgh-jkmn-pqrs ')).toBe(key);
    expect(keyDigest('odk-7f3q-k2m9-oooo-ilIL-abcd-efgh-jkmn-pqrs')).toBe(keyDigest(key));
    expect(normalizeKey('ODK-7F3Q')).toBeNull();
    expect(normalizeKey('XYZ-7F3Q-K2M9-0000-1111-ABCD-EFGH-JKMN-PQRS')).toBeNull();
    expect(normalizeKey('ODK-7F3Q-K2M9-0000-1111-ABCD-EFGH-JKMN-PQRU')).toBeNull();
  });
});
