import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { statSync } from 'node:fs';
import path from 'node:path';
import { checkLicenseFile, writeLicenseFile } from '@opsdeck/licensing/license-file';
import { samplePayload } from '@opsdeck/licensing/sample-payload';
import { SIGNING_KEY_FILE } from '@opsdeck/licensing/signing-key';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app';

const payload = samplePayload();

describe('GET /api/license/public-key', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers the Ed25519 verifying key as a PEM without sign-in, and only with an app key', async () => {
    const answer = await fetch(`${t.baseUrl}/api/license/public-key`, { headers: { 'x-app-key': 'opsdeck-agent' } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^application\/x-pem-file/);
    const pem = await answer.text();
    expect(pem).toMatch(/^-----BEGIN PUBLIC KEY-----\n[\s\S]+\n-----END PUBLIC KEY-----\n$/);
    expect(createPublicKey(pem).asymmetricKeyType).toBe('ed25519');
    expect(await t.call('/api/license/public-key', { appKey: null })).toMatchObject({
      status: 401,
      body: { key: 'ERROR_APP_KEY_INVALID' },
    });
  });

  it('keeps the signing key in DATA_DIR, readable by its owner only', () => {
    expect(statSync(path.join(t.dataDir, SIGNING_KEY_FILE)).mode & 0o777).toBe(0o600);
  });
});

describe('LICENSE_SIGNING_KEY', () => {
  const signer = generateKeyPairSync('ed25519');
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({
      LICENSE_SIGNING_KEY: signer.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it('is the key the server verifies with, so several instances sign alike; a file it signed checks out', async () => {
    const pem = await (
      await fetch(`${t.baseUrl}/api/license/public-key`, { headers: { 'x-app-key': 'opsdeck-console' } })
    ).text();
    expect(pem).toBe(signer.publicKey.export({ type: 'spki', format: 'pem' }).toString());
    expect(checkLicenseFile(writeLicenseFile(payload, signer.privateKey), pem)).toMatchObject({ valid: true });
  });
});
