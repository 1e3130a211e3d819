import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../db/client';
import { users } from '../db/schema';
import { setPassword } from '../modules/auth/queries';
import { assignRole } from '../modules/roles/queries';
import { hashPassword } from '../platform/passwords';

export const DEMO_ADMIN_PASSWORD = 'opsdeck-demo';

export async function countUsers(db: Executor) {
  const [row] = await db.select({ count: sql<number>`count(*)::int` }).from(users);
  return row?.count ?? 0;
}

/**
 * How the provider admin's password was chosen at its creation. `password` is there only when the
 * server chose it (the demo's documented one, or a random one, printed once): an ADMIN_PASSWORD
 * the operator set is theirs already, and is never handed on to be printed or logged.
 */
export type ProviderAdminCreated =
  | { created: false }
  | { created: true; source: 'given'; password?: undefined }
  | { created: true; source: 'demo' | 'generated'; password: string };

/**
 * The provider administrator (docs/architecture.md, "The fixed interface"): ADMIN_EMAIL /
 * ADMIN_PASSWORD. Created once; an existing account is left as it is, so a changed password
 * survives restarts. Without a given password, the demo uses the documented one and a real database
 * gets a random one, printed once.
 */
export async function ensureProviderAdmin(
  db: Executor,
  options: { email: string; password: string | undefined; demo: boolean; providerRoleId: number },
): Promise<ProviderAdminCreated> {
  const [existing] = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(sql`lower(${users.emailAddress})`, options.email.toLowerCase()));
  if (existing) return { created: false };

  const source = options.password ? 'given' : options.demo ? 'demo' : 'generated';
  const password =
    options.password ?? (source === 'demo' ? DEMO_ADMIN_PASSWORD : randomBytes(12).toString('base64url'));
  const [admin] = await db
    .insert(users)
    .values({
      tenantId: null,
      companyId: null,
      firstName: 'Provider',
      lastName: 'Administrator',
      emailAddress: options.email,
    })
    .returning({ id: users.id });
  await setPassword(db, admin!.id, await hashPassword(password), Date.now());
  await assignRole(db, admin!.id, options.providerRoleId);
  return source === 'given' ? { created: true, source } : { created: true, source, password };
}
