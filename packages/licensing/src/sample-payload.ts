import type { LicensePayload } from './license-file';

/** A licence payload for tests and examples: one person, one machine, valid for a day. */
export function samplePayload(overrides: Partial<LicensePayload> = {}): LicensePayload {
  return {
    format: 'opsdeck-license',
    version: 1,
    key: 'ODK-7F3Q-K2M9-0000-1111-ABCD-EFGH-JKMN-PQRS',
    keyId: 7,
    tenantId: '0b5f7c1e-1111-4c2b-9a40-2d1c0e5f9a01',
    company: { id: 2, name: 'Northwind Logistics' },
    license: { id: 3, type: 'pro', expirationDate: Date.now() + 86_400_000 },
    department: { id: 4, name: 'Dispatch' },
    fullName: 'Amara Okoye',
    emailAddress: 'amara.okoye@northwind.test',
    macAddresses: ['AA:BB:CC:DD:EE:FF'],
    premiumActivities: ['sap-logon', 'ocr-document'],
    issuedAt: Date.now(),
    ...overrides,
  };
}
