import { createPublicKey, type KeyObject, sign, verify } from 'node:crypto';

/**
 * A licence file (`.lic`, docs/licensing.md): a key bound to one person and their machines,
 * signed by the server with Ed25519 so that a machine can check it with no network.
 */
export interface LicensePayload {
  format: typeof LICENSE_FORMAT;
  version: 1;
  /** The full licence key. */
  key: string;
  keyId: number;
  tenantId: string;
  company: { id: number; name: string };
  license: { id: number; type: string; expirationDate: number };
  department: { id: number; name: string } | null;
  fullName: string;
  emailAddress: string;
  macAddresses: string[];
  /** Keys of the activities the licence type unlocks. */
  premiumActivities: string[];
  /** Epoch milliseconds. */
  issuedAt: number;
}

export const LICENSE_FORMAT = 'opsdeck-license';
export const LICENSE_BEGIN = '-----BEGIN OPSDECK LICENSE-----';
export const LICENSE_END = '-----END OPSDECK LICENSE-----';
export const SIGNATURE_BEGIN = '-----BEGIN OPSDECK SIGNATURE-----';
export const SIGNATURE_END = '-----END OPSDECK SIGNATURE-----';

/** The file's text: the payload's bytes in base64, then the Ed25519 signature over exactly them. */
export function writeLicenseFile(payload: LicensePayload, privateKey: KeyObject): string {
  const bytes = Buffer.from(JSON.stringify(payload), 'utf8');
  const signature = sign(null, bytes, privateKey);
  return [
    LICENSE_BEGIN,
    bytes.toString('base64'),
    LICENSE_END,
    SIGNATURE_BEGIN,
    signature.toString('base64'),
    SIGNATURE_END,
    '',
  ].join('\n');
}

export type LicenseCheck =
  | { valid: true; payload: LicensePayload; expired: boolean }
  | { valid: false; reason: string };

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/**
 * Whether a licence file is genuine (its signature verifies with `publicKey`, a KeyObject or a
 * PEM) and, if it is, what it grants and whether its licence has expired at `now`.
 */
export function checkLicenseFile(text: string, publicKey: KeyObject | string, now = Date.now()): LicenseCheck {
  const lines = text.replace(/\r\n/g, '\n').replace(/\n+$/, '').split('\n');
  if (
    lines.length !== 6 ||
    lines[0] !== LICENSE_BEGIN ||
    lines[2] !== LICENSE_END ||
    lines[3] !== SIGNATURE_BEGIN ||
    lines[5] !== SIGNATURE_END ||
    !BASE64.test(lines[1]!) ||
    !BASE64.test(lines[4]!)
  ) {
    return { valid: false, reason: 'not an Opsdeck licence file' };
  }
  const bytes = Buffer.from(lines[1]!, 'base64');
  const signature = Buffer.from(lines[4]!, 'base64');
  const key = typeof publicKey === 'string' ? createPublicKey(publicKey) : publicKey;
  let genuine = false;
  try {
    genuine = verify(null, bytes, key, signature);
  } catch {
    genuine = false;
  }
  if (!genuine)
    return { valid: false, reason: 'the signature does not match: the file was changed or not issued by this server' };
  let payload: LicensePayload;
  try {
    payload = JSON.parse(bytes.toString('utf8')) as LicensePayload;
  } catch {
    return { valid: false, reason: 'the signed payload is not JSON' };
  }
  if (payload.format !== LICENSE_FORMAT || payload.version !== 1) {
    return { valid: false, reason: `the payload is not ${LICENSE_FORMAT} version 1` };
  }
  return { valid: true, payload, expired: payload.license.expirationDate <= now };
}
