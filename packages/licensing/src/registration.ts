import { EMAIL_PATTERN, LIMITS } from '@opsdeck/contract/limits';

/**
 * A registration file (`.dat`, docs/licensing.md): what a machine sends to be licensed. UTF-8
 * JSON of at most 64 KiB; members other than these are ignored.
 */
export interface Registration {
  format: typeof REGISTRATION_FORMAT;
  version: 1;
  fullName: string;
  emailAddress: string;
  /** Upper case, colon separated, without duplicates: 1 to 16. */
  macAddresses: string[];
  hostname: string | null;
  /** ISO 8601, as the machine wrote it; null when it gave none. */
  createdAt: string | null;
}

export const REGISTRATION_FORMAT = 'opsdeck-registration';
export const REGISTRATION_MAX_BYTES = 64 * 1024;
export const MAC_ADDRESSES_MAX = 16;

export type RegistrationErrorKey =
  | 'ERROR_ACCOUNT_REGFILE_REQUIRED'
  | 'ERROR_ACCOUNT_REGFILE_UNSUPPORTED'
  | 'ERROR_ACCOUNT_REGFILE_INVALID';

/** Why a registration file was refused: the error key, and for people and logs the reason. */
export class RegistrationFileError extends Error {
  constructor(
    readonly key: RegistrationErrorKey,
    reason: string,
  ) {
    super(reason);
    this.name = 'RegistrationFileError';
  }
}

const MAC = /^[0-9A-F]{2}([:-])[0-9A-F]{2}(\1[0-9A-F]{2}){4}$/i;

/** `aa-bb-cc-dd-ee-ff` → `AA:BB:CC:DD:EE:FF`; null for anything else. */
export function normalizeMac(text: string): string | null {
  const trimmed = text.trim();
  return MAC.test(trimmed) ? trimmed.toUpperCase().replace(/-/g, ':') : null;
}

const invalid = (reason: string) => new RegistrationFileError('ERROR_ACCOUNT_REGFILE_INVALID', reason);

/**
 * Reads an uploaded registration file. A missing file answers ERROR_ACCOUNT_REGFILE_REQUIRED, a
 * name not ending in `.dat` ERROR_ACCOUNT_REGFILE_UNSUPPORTED, and anything else that is not of the
 * shape ERROR_ACCOUNT_REGFILE_INVALID.
 */
export function parseRegistrationFile(file: { name: string; bytes: Uint8Array } | null | undefined): Registration {
  if (!file || file.bytes.length === 0) {
    throw new RegistrationFileError('ERROR_ACCOUNT_REGFILE_REQUIRED', 'no file, or an empty one');
  }
  if (!file.name.toLowerCase().endsWith('.dat')) {
    throw new RegistrationFileError('ERROR_ACCOUNT_REGFILE_UNSUPPORTED', 'the file name does not end in .dat');
  }
  if (file.bytes.length > REGISTRATION_MAX_BYTES) throw invalid(`larger than ${REGISTRATION_MAX_BYTES} bytes`);
  let data: unknown;
  try {
    data = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(file.bytes));
  } catch {
    throw invalid('not UTF-8 JSON');
  }
  return readRegistration(data);
}

/** Checks a registration already parsed from JSON (the same rules as a file). */
export function readRegistration(data: unknown): Registration {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) throw invalid('not a JSON object');
  const value = data as Record<string, unknown>;
  if (value.format !== REGISTRATION_FORMAT) throw invalid(`format is not "${REGISTRATION_FORMAT}"`);
  if (value.version !== 1) throw invalid('version is not 1');

  const fullName = typeof value.fullName === 'string' ? value.fullName.trim() : '';
  if (fullName.length < 1 || fullName.length > LIMITS.nameMax) throw invalid('fullName is not 1 to 255 characters');

  const emailAddress = typeof value.emailAddress === 'string' ? value.emailAddress.trim() : '';
  if (!EMAIL_PATTERN.test(emailAddress) || emailAddress.length > LIMITS.nameMax) {
    throw invalid('emailAddress is not an e-mail address');
  }

  if (!Array.isArray(value.macAddresses)) throw invalid('macAddresses is not a list');
  const macs = value.macAddresses.map((mac) => (typeof mac === 'string' ? normalizeMac(mac) : null));
  if (macs.some((mac) => mac === null)) throw invalid('a MAC address is not six hexadecimal pairs');
  const macAddresses = [...new Set(macs as string[])];
  if (macAddresses.length < 1 || macAddresses.length > MAC_ADDRESSES_MAX) {
    throw invalid(`not 1 to ${MAC_ADDRESSES_MAX} MAC addresses`);
  }

  if (value.hostname !== undefined && value.hostname !== null && typeof value.hostname !== 'string') {
    throw invalid('hostname is not text');
  }
  const hostname = typeof value.hostname === 'string' ? value.hostname.trim() : '';
  if (hostname.length > LIMITS.nameMax) throw invalid('hostname is longer than 255 characters');

  if (value.createdAt !== undefined && value.createdAt !== null) {
    if (typeof value.createdAt !== 'string' || Number.isNaN(Date.parse(value.createdAt))) {
      throw invalid('createdAt is not an ISO 8601 time');
    }
  }
  return {
    format: REGISTRATION_FORMAT,
    version: 1,
    fullName,
    emailAddress,
    macAddresses,
    hostname: hostname || null,
    createdAt: typeof value.createdAt === 'string' ? value.createdAt : null,
  };
}

/** The text of a registration file, as `npm run registration-file` and the agent write it. */
export function registrationFileText(input: {
  fullName: string;
  emailAddress: string;
  macAddresses: string[];
  hostname?: string;
  createdAt?: Date;
}): string {
  const registration = readRegistration({
    format: REGISTRATION_FORMAT,
    version: 1,
    fullName: input.fullName,
    emailAddress: input.emailAddress,
    macAddresses: input.macAddresses,
    hostname: input.hostname ?? null,
    createdAt: (input.createdAt ?? new Date()).toISOString(),
  });
  return `${JSON.stringify(registration, null, 2)}\n`;
}
