import { readFile } from 'node:fs/promises';

/** What an agent needs from a licence file (docs/licensing.md): its key and machines, and who it is for. */
export interface LicenseFileContents {
  key: string;
  macAddresses: string[];
  fullName: string | null;
  hostname: string | null;
  company: string | null;
}

const BEGIN_LICENSE = '-----BEGIN OPSDECK LICENSE-----';
const END_LICENSE = '-----END OPSDECK LICENSE-----';

export class LicenseFileError extends Error {
  override name = 'LicenseFileError';
}

/**
 * Reads the payload of a `.lic` file: six lines, the second the base64 of a UTF-8 JSON payload.
 * The signature is not checked here: the server checks the key itself at CONNECT, and
 * `npm run verify-license` checks files offline.
 */
export function parseLicenseFile(text: string): LicenseFileContents {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  if (lines[0] !== BEGIN_LICENSE || lines[2] !== END_LICENSE || !lines[1]) {
    throw new LicenseFileError('not an Opsdeck licence file (expected its six lines)');
  }
  let payload: unknown;
  try {
    payload = JSON.parse(Buffer.from(lines[1], 'base64').toString('utf8'));
  } catch {
    throw new LicenseFileError('the licence payload is not base64 JSON');
  }
  if (typeof payload !== 'object' || payload === null)
    throw new LicenseFileError('the licence payload is not an object');
  const { key, macAddresses, fullName, company } = payload as Record<string, unknown>;
  if (typeof key !== 'string' || key.length === 0) throw new LicenseFileError('the licence file holds no key');
  if (!Array.isArray(macAddresses) || !macAddresses.every((mac) => typeof mac === 'string')) {
    throw new LicenseFileError('the licence file holds no MAC addresses');
  }
  const hostname = (payload as Record<string, unknown>).hostname;
  const companyName =
    typeof company === 'object' && company !== null && typeof (company as { name?: unknown }).name === 'string'
      ? (company as { name: string }).name
      : null;
  return {
    key,
    macAddresses: macAddresses as string[],
    fullName: typeof fullName === 'string' ? fullName : null,
    hostname: typeof hostname === 'string' ? hostname : null,
    company: companyName,
  };
}

export async function readLicenseFile(path: string): Promise<LicenseFileContents> {
  return parseLicenseFile(await readFile(path, 'utf8'));
}

/** A key as logs may show it: its last four characters only (a full key is a credential). */
export function maskKey(key: string): string {
  const compact = key.replace(/[^0-9A-Za-z]/g, '');
  return `…${compact.slice(-4).toUpperCase()}`;
}

/** A random, locally administered, unicast MAC address (02:…), for machines a generated key has not met. */
export function randomMac(random: () => number = Math.random): string {
  const bytes = Array.from({ length: 6 }, () => Math.floor(random() * 256));
  bytes[0] = (bytes[0]! & 0xfc) | 0x02;
  return bytes.map((byte) => byte.toString(16).toUpperCase().padStart(2, '0')).join(':');
}
