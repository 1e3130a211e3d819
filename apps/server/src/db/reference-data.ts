import { AUTHORITIES } from '@opsdeck/contract/authorities';
import { ensureBuiltInRole, upsertAuthorities } from '../modules/roles/queries';
import type { Executor } from './client';
import { industryTypes, licenseTypes } from './schema';

export const INDUSTRY_TYPES = [
  { key: 'banking', name: 'Banking and Financial Services' },
  { key: 'insurance', name: 'Insurance' },
  { key: 'healthcare', name: 'Healthcare' },
  { key: 'logistics', name: 'Logistics and Transportation' },
  { key: 'manufacturing', name: 'Manufacturing' },
  { key: 'retail', name: 'Retail and E-commerce' },
  { key: 'telecommunications', name: 'Telecommunications' },
  { key: 'bpo', name: 'Business Process Outsourcing' },
  { key: 'public-sector', name: 'Public Sector' },
  { key: 'energy', name: 'Energy and Utilities' },
] as const;

/** Spec section 3: the licence types' keys and names. */
export const LICENSE_TYPES = [
  { key: 'pro', name: 'Pro' },
  { key: 'enterprise', name: 'Enterprise' },
] as const;

/**
 * Rows every installation has, whatever its data: the authorities of the contract, the industry
 * and licence types, and the provider's own built-in role. Idempotent; runs at every start.
 */
export async function ensureReferenceData(db: Executor) {
  await upsertAuthorities(
    db,
    Object.entries(AUTHORITIES).map(([key, title]) => ({ key, title })),
  );
  await upsertNamed(db, industryTypes, INDUSTRY_TYPES);
  await upsertNamed(db, licenseTypes, LICENSE_TYPES);
  return { providerRoleId: await ensureBuiltInRole(db, null, 'PROVIDER_ADMINISTRATOR') };
}

/** Keyed names (industry and licence types): added when missing, renamed when changed. */
async function upsertNamed(
  db: Executor,
  table: typeof industryTypes | typeof licenseTypes,
  rows: readonly { key: string; name: string }[],
) {
  for (const row of rows) {
    await db
      .insert(table)
      .values(row)
      .onConflictDoUpdate({ target: table.key, set: { name: row.name } });
  }
}
