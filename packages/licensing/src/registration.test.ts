import { describe, expect, it } from 'vitest';
import { parseRegistrationFile, RegistrationFileError, registrationFileText } from './registration';

const encoder = new TextEncoder();
const good = {
  format: 'opsdeck-registration',
  version: 1,
  fullName: ' Amara Okoye ',
  emailAddress: 'amara.okoye@northwind.test',
  macAddresses: ['aa-bb-cc-dd-ee-ff', 'AA:BB:CC:DD:EE:FF', '00:1a:2b:3c:4d:5e'],
  hostname: 'NW-DISPATCH-07',
  createdAt: '2026-11-20T09:15:00Z',
  extra: 'ignored',
};
const file = (data: unknown, name = 'machine.dat') => ({
  name,
  bytes: encoder.encode(typeof data === 'string' ? data : JSON.stringify(data)),
});
const keyOf = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return error instanceof RegistrationFileError ? error.key : String(error);
  }
  return 'accepted';
};

describe('registration files', () => {
  it('reads the shape: names trimmed, MAC addresses upper case with colons and once each', () => {
    expect(parseRegistrationFile(file(good))).toEqual({
      format: 'opsdeck-registration',
      version: 1,
      fullName: 'Amara Okoye',
      emailAddress: 'amara.okoye@northwind.test',
      macAddresses: ['AA:BB:CC:DD:EE:FF', '00:1A:2B:3C:4D:5E'],
      hostname: 'NW-DISPATCH-07',
      createdAt: '2026-11-20T09:15:00Z',
    });
  });

  it('refuses a missing or empty file, a name not ending in .dat, and anything not of the shape', () => {
    expect(keyOf(() => parseRegistrationFile(null))).toBe('ERROR_ACCOUNT_REGFILE_REQUIRED');
    expect(keyOf(() => parseRegistrationFile(file('')))).toBe('ERROR_ACCOUNT_REGFILE_REQUIRED');
    expect(keyOf(() => parseRegistrationFile(file(good, 'machine.json')))).toBe('ERROR_ACCOUNT_REGFILE_UNSUPPORTED');
    expect(keyOf(() => parseRegistrationFile(file(good, 'MACHINE.DAT')))).toBe('accepted');
    const invalid = [
      file('x'.repeat(64 * 1024 + 1)),
      file({ ...good, padding: 'x'.repeat(64 * 1024) }),
      file('not json'),
      { name: 'machine.dat', bytes: new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]) },
      file([good]),
      file({ ...good, format: 'other' }),
      file({ ...good, version: 2 }),
      file({ ...good, fullName: '  ' }),
      file({ ...good, fullName: 'x'.repeat(256) }),
      file({ ...good, emailAddress: 'not-an-email' }),
      file({ ...good, macAddresses: [] }),
      file({ ...good, macAddresses: 'AA:BB:CC:DD:EE:FF' }),
      file({ ...good, macAddresses: ['AA:BB:CC:DD:EE'] }),
      file({ ...good, macAddresses: ['AA:BB-CC:DD:EE:FF'] }),
      file({ ...good, macAddresses: ['GG:BB:CC:DD:EE:FF'] }),
      file({
        ...good,
        macAddresses: Array.from({ length: 17 }, (_, i) => `00:00:00:00:00:${String(i).padStart(2, '0')}`),
      }),
      file({ ...good, hostname: 'x'.repeat(256) }),
      file({ ...good, createdAt: 'yesterday' }),
    ];
    for (const bad of invalid) expect(keyOf(() => parseRegistrationFile(bad))).toBe('ERROR_ACCOUNT_REGFILE_INVALID');
  });

  it('writes files that read back', () => {
    const text = registrationFileText({
      fullName: 'Mateo Rossi',
      emailAddress: 'mateo.rossi@northwind.test',
      macAddresses: ['0a:0b:0c:0d:0e:0f'],
      hostname: 'nw-07',
      createdAt: new Date('2026-11-23T10:00:00Z'),
    });
    expect(parseRegistrationFile(file(text))).toMatchObject({
      macAddresses: ['0A:0B:0C:0D:0E:0F'],
      createdAt: '2026-11-23T10:00:00.000Z',
    });
  });
});
