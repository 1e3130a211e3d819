import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { reconnectDelay } from './backoff';
import { LicenseFileError, maskKey, parseLicenseFile, randomMac, readLicenseFile } from './license-file';

const KEY = 'ODK-7F3Q-K2M9-X4TB-1QZ8-RWCE-9HJN-VD2K-XW2D';

function licenseText(payload: unknown, lineEnd = '\n') {
  return [
    '-----BEGIN OPSDECK LICENSE-----',
    Buffer.from(JSON.stringify(payload)).toString('base64'),
    '-----END OPSDECK LICENSE-----',
    '-----BEGIN OPSDECK SIGNATURE-----',
    Buffer.alloc(64, 1).toString('base64'),
    '-----END OPSDECK SIGNATURE-----',
    '',
  ].join(lineEnd);
}

const payload = {
  format: 'opsdeck-license',
  version: 1,
  key: KEY,
  keyId: 12,
  tenantId: 't-1',
  company: { id: 1, name: 'Northwind Logistics' },
  fullName: 'Amara Okoye',
  macAddresses: ['3C:52:82:01:02:03', '3C:52:82:01:02:04'],
  issuedAt: 1,
};

describe('licence files', () => {
  it('give their key, machines, person and company', async () => {
    expect(parseLicenseFile(licenseText(payload))).toEqual({
      key: KEY,
      macAddresses: ['3C:52:82:01:02:03', '3C:52:82:01:02:04'],
      fullName: 'Amara Okoye',
      hostname: null,
      company: 'Northwind Logistics',
    });
    const dir = await mkdtemp(path.join(tmpdir(), 'agent-lic-'));
    const file = path.join(dir, 'amara.lic');
    await writeFile(file, licenseText(payload, '\r\n'));
    expect((await readLicenseFile(file)).macAddresses[0]).toBe('3C:52:82:01:02:03');
  });

  it.each([
    ['not a licence', /six lines/],
    [licenseText({ ...payload, key: undefined }), /no key/],
    [licenseText({ ...payload, macAddresses: 'AA' }), /no MAC/],
    [licenseText(payload).replace(/^(.*\n)(.*)\n/, '$1%%%not base64 json\n'), /base64 JSON/],
  ])('refuses what is not one (%#)', (text, message) => {
    expect(() => parseLicenseFile(text)).toThrow(LicenseFileError);
    expect(() => parseLicenseFile(text)).toThrow(message);
  });
});

describe('helpers', () => {
  it('show only the last four characters of a key', () => {
    expect(maskKey(KEY)).toBe('…XW2D');
    expect(maskKey(KEY)).not.toContain('7F3Q');
  });

  it('make locally administered unicast MAC addresses', () => {
    const mac = randomMac(() => 0.999);
    expect(mac).toBe('FE:FF:FF:FF:FF:FF');
    expect(randomMac(() => 0)).toBe('02:00:00:00:00:00');
    expect(randomMac()).toMatch(/^[0-9A-F]{2}(:[0-9A-F]{2}){5}$/);
  });

  it('back off exponentially from 1 s to 30 s with jitter, and 5 minutes after a refusal that cannot heal', () => {
    const low = () => 0;
    const high = () => 0.999_999;
    expect(reconnectDelay(0, null, high)).toBe(1_000);
    expect(reconnectDelay(0, null, low)).toBe(500);
    expect(reconnectDelay(3, null, high)).toBe(8_000);
    expect(reconnectDelay(10, null, high)).toBe(30_000);
    expect(reconnectDelay(10, 'ERROR_SERVICE_UNAVAILABLE', high)).toBe(30_000);
    expect(reconnectDelay(0, 'ERROR_LICENSE_KEY_INVALIDATED', low)).toBe(150_000);
    expect(reconnectDelay(0, 'ERROR_AGENT_MAC_ADDRESS_INVALID', high)).toBe(300_000);
  });
});
