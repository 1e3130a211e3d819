import { AUTHORITIES } from '@opsdeck/contract/authorities';
import { ensureBuiltInRole, upsertAuthorities } from '../modules/roles/queries';
import type { Executor } from './client';
import { industryTypes } from './schema';

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

/**
 * Rows every installation has, whatever its data: the authorities of the contract, the industry
 * types and the provider's own built-in role. Idempotent; runs at every start.
 */
export async function ensureReferenceData(db: Executor) {
  await upsertAuthorities(
    db,
    Object.entries(AUTHORITIES).map(([key, title]) => ({ key, title })),
  );
  for (const type of INDUSTRY_TYPES) {
    await db
      .insert(industryTypes)
      .values(type)
      .onConflictDoUpdate({ target: industryTypes.key, set: { name: type.name } });
  }
  return { providerRoleId: await ensureBuiltInRole(db, null, 'PROVIDER_ADMINISTRATOR') };
}
