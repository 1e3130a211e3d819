import type { AddLicense, InvalidateLicense, License, UpdateLicense } from '@opsdeck/contract/licenses';
import { LICENSE_LIMITS } from '@opsdeck/contract/licenses';
import type { Db } from '../../db/client';
import { type RequestAuth, requireProvider } from '../../platform/access';
import { badRequest, conflict, notFound } from '../../platform/errors';
import type { ChangeKind, EventBus } from '../../platform/events';
import type { WebhookOutbox } from '../webhooks/service';
import { companyInScope, companyLicense, licenceScope } from './access';
import * as q from './queries';

const DAY_MS = 24 * 60 * 60 * 1000;

export function toLicense(row: q.LicenseRow, now = Date.now()): License {
  return {
    id: row.id,
    company:
      row.companyId !== null && row.companyName !== null && row.companyTenantId !== null
        ? { id: row.companyId, name: row.companyName, tenantId: row.companyTenantId }
        : null,
    type: { key: row.typeKey as License['type']['key'], name: row.typeName },
    label: row.label,
    issueDate: row.issueDate,
    expirationDate: row.expirationDate,
    maxAccounts: row.maxAccounts,
    unusedAccounts: Math.max(0, row.maxAccounts - row.keysInUse),
    invalidated: row.invalidatedAt !== null,
    expired: row.expirationDate <= now,
  };
}

/** A new licence's expiration: the default validity from now (spec section 9). */
export const defaultExpiration = (now: number) => now + LICENSE_LIMITS.defaultValidityDays * DAY_MS;

export type LicensesService = ReturnType<typeof createLicensesService>;

/**
 * Licences (spec sections 3, 4, 7): a company reads its own; only the provider issues, renews,
 * invalidates and deletes them. Seats are counted under a row lock (docs/license-management.md).
 */
export function createLicensesService(deps: { db: Db; events: EventBus; outbox: WebhookOutbox }) {
  const { db, events, outbox } = deps;

  /** Said after the change committed (a renewal's or a solo archive's transaction included). */
  const published = (kind: ChangeKind, id: number, tenantId: string | null) =>
    events.publish({ resource: 'licenses', kind, ids: [id], tenantId });

  async function read(auth: RequestAuth, id: number): Promise<License> {
    const row = await q.findLicense(db, licenceScope(auth), id);
    if (!row) throw notFound('ERROR_LICENSE_NOT_EXIST');
    return toLicense(row);
  }

  return {
    /** GET /api/license/company?id= : newest issue first. */
    async ofCompany(auth: RequestAuth, companyId: number): Promise<License[]> {
      const company = await companyInScope(db, auth, companyId);
      const now = Date.now();
      return (await q.selectLicenses(db, licenceScope(auth), q.ofCompany(company.id))).map((row) =>
        toLicense(row, now),
      );
    },

    async get(auth: RequestAuth, companyId: number, licenseId: number): Promise<License> {
      return toLicense((await companyLicense(db, auth, companyId, licenseId)).license);
    },

    async add(auth: RequestAuth, body: AddLicense): Promise<License> {
      requireProvider(auth);
      const company = await companyInScope(db, auth, body.companyId);
      const now = Date.now();
      const id = await q.insertLicense(db, {
        companyId: company.id,
        tenantId: company.tenantId,
        typeKey: body.licenseType,
        label: body.label,
        issueDate: now,
        expirationDate: defaultExpiration(now),
        maxAccounts: LICENSE_LIMITS.defaultKeys,
      });
      published('created', id, company.tenantId);
      return read(auth, id);
    },

    /**
     * The renewal (spec section 4): a future expiration date, the allowed keys and the label. The
     * licence row is locked while its keys are counted, so no key is made in between that would
     * leave more keys than allowed.
     */
    async renew(auth: RequestAuth, body: UpdateLicense): Promise<License> {
      requireProvider(auth);
      const { license } = await companyLicense(db, auth, body.companyId, body.licenseId);
      if (body.expirationDate <= Date.now()) {
        throw badRequest('ERROR_LICENSE_EXPIRATION_DATE_INVALID', {
          expirationDate: 'ERROR_LICENSE_EXPIRATION_DATE_INVALID',
        });
      }
      const scope = licenceScope(auth);
      await db.transaction(async (tx) => {
        if (!(await q.lockLicense(tx, scope, license.id))) throw notFound('ERROR_LICENSE_NOT_EXIST');
        if (body.maxAccounts < (await q.countKeys(tx, scope, license.id))) {
          throw conflict('ERROR_COMPANY_MORE_LICENSES', { maxAccounts: 'ERROR_COMPANY_MORE_LICENSES' });
        }
        await q.renewLicense(tx, scope, license.id, {
          expirationDate: body.expirationDate,
          maxAccounts: body.maxAccounts,
          label: body.label,
        });
      });
      published('updated', license.id, license.tenantId);
      return read(auth, license.id);
    },

    async invalidate(auth: RequestAuth, body: InvalidateLicense): Promise<License> {
      requireProvider(auth);
      const { license } = await companyLicense(db, auth, body.companyId, body.licenseId);
      await q.invalidateLicense(db, licenceScope(auth), license.id, Date.now());
      published('updated', license.id, license.tenantId);
      const invalidated = await read(auth, license.id);
      await outbox.emit('license.invalidated', license.tenantId, {
        license: { id: invalidated.id, label: invalidated.label, expiresAt: invalidated.expirationDate },
      });
      return invalidated;
    },

    /** Hard delete (spec section 4): the licence and its keys, in one statement (the keys cascade). */
    async remove(auth: RequestAuth, companyId: number, licenseId: number): Promise<void> {
      requireProvider(auth);
      const { company, license } = await companyLicense(db, auth, companyId, licenseId);
      if (!(await q.deleteLicense(db, licenceScope(auth), company.id, license.id)))
        throw notFound('ERROR_LICENSE_NOT_EXIST');
      published('deleted', license.id, company.tenantId);
    },

    /**
     * Archives a solo account (spec section 8, "Solo account archive"): its licence is
     * invalidated, and the account leaves the account lists.
     */
    async invalidateSolo(auth: RequestAuth, licenseId: number): Promise<License> {
      requireProvider(auth);
      const scope = licenceScope(auth);
      const license = await q.findLicense(db, scope, licenseId);
      if (!license) throw notFound('ERROR_LICENSE_NOT_EXIST');
      if (license.companyId !== null) throw conflict('ERROR_LICENSE_NOT_SOLO');
      const keys = await db.transaction(async (tx) => {
        const now = Date.now();
        await q.invalidateLicense(tx, scope, license.id, now);
        return q.archiveKeysOf(tx, scope, license.id, now);
      });
      published('archived', license.id, license.tenantId);
      const archived = await read(auth, license.id);
      await outbox.emitAll([
        {
          type: 'license.invalidated',
          tenantId: license.tenantId,
          data: { license: { id: archived.id, label: archived.label, expiresAt: archived.expirationDate } },
        },
        ...keys.map((key) => ({
          type: 'account.invalidated' as const,
          tenantId: license.tenantId,
          data: { account: { id: key.id, partialKey: key.partialKey, licenseId: license.id } },
        })),
      ]);
      return archived;
    },
  };
}
