import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkLicenseFile, writeLicenseFile } from './license-file';
import { samplePayload } from './sample-payload';
import { loadSigningKey } from './signing-key';

const payload = samplePayload({
  license: { id: 3, type: 'pro', expirationDate: Date.UTC(2027, 0, 5, 15) },
  issuedAt: Date.UTC(2026, 10, 23),
});

describe('licence files', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'opsdeck-licensing-'));
  const signing = loadSigningKey({ dataDir });

  it('are the payload and its Ed25519 signature between the exact markers', () => {
    const text = writeLicenseFile(payload, signing.privateKey);
    const lines = text.split('\n');
    expect(lines[0]).toBe('-----BEGIN OPSDECK LICENSE-----');
    expect(lines[2]).toBe('-----END OPSDECK LICENSE-----');
    expect(lines[3]).toBe('-----BEGIN OPSDECK SIGNATURE-----');
    expect(lines[5]).toBe('-----END OPSDECK SIGNATURE-----');
    expect(lines[6]).toBe('');
    expect(JSON.parse(Buffer.from(lines[1]!, 'base64').toString('utf8'))).toEqual(payload);
    expect(Buffer.from(lines[4]!, 'base64')).toHaveLength(64);
  });

  it('verify with the public key as a PEM, and say whether the licence has expired', () => {
    const text = writeLicenseFile(payload, signing.privateKey);
    expect(signing.publicKeyPem).toMatch(/^-----BEGIN PUBLIC KEY-----\n/);
    expect(checkLicenseFile(text, signing.publicKeyPem, Date.UTC(2026, 11, 1))).toEqual({
      valid: true,
      payload,
      expired: false,
    });
    expect(checkLicenseFile(text.replace(/\n/g, '\r\n'), signing.publicKey, Date.UTC(2027, 1, 1))).toMatchObject({
      valid: true,
      expired: true,
    });
  });

  it('refuse a changed byte, another signer, and anything else', () => {
    const text = writeLicenseFile(payload, signing.privateKey);
    const lines = text.split('\n');
    const changed = Buffer.from(lines[1]!, 'base64');
    changed[changed.length - 5]! ^= 1;
    const tampered = [lines[0], changed.toString('base64'), ...lines.slice(2)].join('\n');
    expect(checkLicenseFile(tampered, signing.publicKey)).toMatchObject({ valid: false });
    const other = generateKeyPairSync('ed25519');
    expect(checkLicenseFile(text, other.publicKey)).toMatchObject({ valid: false });
    expect(checkLicenseFile(writeLicenseFile(payload, other.privateKey), signing.publicKey)).toMatchObject({
      valid: false,
    });
    expect(checkLicenseFile('hello', signing.publicKey)).toEqual({
      valid: false,
      reason: 'not an Opsdeck licence file',
    });
  });

  it('sign with one key kept in the data directory, owner-only, or given as a PEM', () => {
    const file = path.join(dataDir, 'license-signing-key.pem');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(loadSigningKey({ dataDir }).publicKeyPem).toBe(signing.publicKeyPem);
    const pem = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const given = loadSigningKey({ pem, dataDir });
    expect(given.publicKeyPem).not.toBe(signing.publicKeyPem);
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ type: 'pkcs8', format: 'pem' });
    expect(() => loadSigningKey({ pem: rsa.toString(), dataDir })).toThrow(/Ed25519/);
    rmSync(dataDir, { recursive: true, force: true });
  });
});
