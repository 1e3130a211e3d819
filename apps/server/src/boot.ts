import { loadSigningKey } from '@opsdeck/licensing/signing-key';
import type { Config } from './config';
import type { Database } from './db/client';
import { ensureReferenceData } from './db/reference-data';
import { seedDemo } from './seed/demo';
import { countUsers, ensureProviderAdmin } from './seed/provider-admin';

export type BootReport = {
  admin: Awaited<ReturnType<typeof ensureProviderAdmin>>;
  seededDemo: boolean;
};

/** Reference data, the provider admin and, on a fresh embedded database, the demo. */
export async function prepareData(database: Database, config: Config): Promise<BootReport> {
  return database.db.transaction(async (tx) => {
    const fresh = (await countUsers(tx)) === 0;
    const { providerRoleId } = await ensureReferenceData(tx);
    const admin = await ensureProviderAdmin(tx, {
      email: config.adminEmail,
      password: config.adminPassword,
      demo: config.demo,
      providerRoleId,
    });
    const seededDemo = fresh && config.demo;
    // The demo's keys from registration files are sealed with the licence signing key.
    if (seededDemo)
      await seedDemo(tx, loadSigningKey({ pem: config.licenseSigningKey, dataDir: config.dataDir }).privateKey);
    return { admin, seededDemo };
  });
}
