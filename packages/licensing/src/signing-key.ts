import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface SigningKey {
  privateKey: KeyObject;
  publicKey: KeyObject;
  /** The verifying key as a PEM (SPKI) document: what GET /api/license/public-key answers. */
  publicKeyPem: string;
}

export const SIGNING_KEY_FILE = 'license-signing-key.pem';

/**
 * The server's Ed25519 signing key: `pem` when given (LICENSE_SIGNING_KEY, so that several
 * instances sign alike), else the one kept in `dataDir`, made on first start and readable by its
 * owner only. The private key is never logged or answered.
 */
export function loadSigningKey({ pem, dataDir }: { pem?: string; dataDir: string }): SigningKey {
  let privateKey: KeyObject;
  if (pem) {
    privateKey = createPrivateKey(pem);
  } else {
    const file = path.join(dataDir, SIGNING_KEY_FILE);
    if (existsSync(file)) {
      privateKey = createPrivateKey(readFileSync(file, 'utf8'));
    } else {
      privateKey = generateKeyPairSync('ed25519').privateKey;
      mkdirSync(dataDir, { recursive: true });
      writeFileSync(file, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600, flag: 'wx' });
      chmodSync(file, 0o600);
    }
  }
  if (privateKey.asymmetricKeyType !== 'ed25519') throw new Error('The licence signing key is not an Ed25519 key');
  const publicKey = createPublicKey(privateKey);
  return { privateKey, publicKey, publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString() };
}
