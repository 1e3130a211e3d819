import type { Account, GeneratedAccount } from '@opsdeck/contract/accounts';
import type { Company } from '@opsdeck/contract/companies';
import type { License } from '@opsdeck/contract/licenses';

/** Factories with overrides for the accounts area's tests (test/builders.ts style). */
export const NORTHWIND = { id: 5, name: 'Northwind Traders', tenantId: 'tenant-northwind' };

export function buildCompany(overrides: Partial<Company> = {}): Company {
  return {
    ...NORTHWIND,
    emailAddress: 'head@northwind.test',
    industryType: { key: 'logistics', name: 'Logistics' },
    head: null,
    license: null,
    ...overrides,
  };
}

export function buildLicense(overrides: Partial<License> = {}): License {
  return {
    id: 9,
    company: NORTHWIND,
    type: { key: 'pro', name: 'Professional' },
    label: 'Dispatch floor',
    issueDate: new Date(2026, 0, 5, 9, 0).getTime(),
    expirationDate: new Date(2027, 0, 5, 15, 0).getTime(),
    maxAccounts: 10,
    unusedAccounts: 8,
    invalidated: false,
    expired: false,
    ...overrides,
  };
}

export function buildAccount(overrides: Partial<Account> = {}): Account {
  const id = overrides.id ?? 1;
  return {
    id,
    type: { key: 'company', name: 'Company' },
    partialKey: `ODK-7F3${id}-…-XW2D`,
    departmentName: 'Dispatch',
    fullName: `Person ${id}`,
    emailAddress: `person${id}@northwind.test`,
    macAddress: 'AA:BB:CC:DD:EE:01',
    macAddresses: ['AA:BB:CC:DD:EE:01'],
    hostname: null,
    hasFile: true,
    invalidated: false,
    createDate: 0,
    license: {
      id: 9,
      type: { key: 'pro', name: 'Professional' },
      label: 'Dispatch robots',
      expirationDate: new Date(2027, 0, 5, 15, 0).getTime(),
      company: NORTHWIND,
    },
    ...overrides,
  };
}

export const FULL_KEY = 'ODK-7F3Q-K2M9-X4TB-1QZ8-RWCE-9HJN-VD2K-XW2D';

export function buildGenerated(overrides: Partial<Account> = {}): GeneratedAccount {
  return { ...buildAccount({ id: 40, partialKey: 'ODK-7F3Q-…-XW2D', ...overrides }), key: FULL_KEY };
}
