import type {
  Account,
  AccountListQuery,
  AccountRefForm,
  AccountSortField,
  CreateSoloAccount,
  GenerateAccount,
  GenerateAccountFromFile,
  GeneratedAccount,
  LicenseAccountsQuery,
  LicenseFileRef,
  UploadedFile,
} from '@opsdeck/contract/accounts';
import type { License } from '@opsdeck/contract/licenses';
import { type Page, parseSort } from '@opsdeck/contract/paging';
import { SEATS_NEARLY_FULL_PERCENT } from '@opsdeck/contract/webhooks';
import { newLicenseKey } from '@opsdeck/licensing/keys';
import { LICENSE_FORMAT, type LicensePayload, writeLicenseFile } from '@opsdeck/licensing/license-file';
import { parseRegistrationFile, type Registration, RegistrationFileError } from '@opsdeck/licensing/registration';
import { sealKey, unsealKey } from '@opsdeck/licensing/sealing';
import type { SigningKey } from '@opsdeck/licensing/signing-key';
import type { Db, Executor } from '../../db/client';
import { type RequestAuth, requireProvider } from '../../platform/access';
import { AppError, badRequest, conflict, notFound } from '../../platform/errors';
import type { ChangeKind, EventBus, Resource } from '../../platform/events';
import { ANCHOR_SPACING, type Anchor, seekFrom } from '../../platform/list-anchors';
import { createListCounts, createListPages, ListCache } from '../../platform/list-counts';
import { inIdOrder } from '../../platform/search';
import { oneTenant, scopeOf, type TenantScope } from '../../platform/tenancy';
import { listWithLicenseType } from '../activities/queries';
import { findDepartment } from '../departments/queries';
import { companyLicense, licenceScope } from '../licenses/access';
import * as licenseQueries from '../licenses/queries';
import { defaultExpiration } from '../licenses/service';
import type { WebhookOutbox } from '../webhooks/service';
import * as q from './queries';

/** The name a key's licence file is saved under (Content-Disposition). */
export const licenseFileName = (accountId: number) => `opsdeck-license-${accountId}.lic`;

/** What a solo licence file names as its company: solo licences have none (docs/license-management.md). */
export const SOLO_COMPANY = { id: 0, name: 'Solo' } as const;

function toAccount(row: q.AccountRow): Account {
  return {
    id: row.id,
    type: row.solo ? { key: 'solo', name: 'Solo' } : { key: 'company', name: 'Company' },
    partialKey: row.partialKey,
    departmentName: row.departmentName,
    fullName: row.fullName,
    emailAddress: row.emailAddress,
    macAddress: row.macAddresses[0] ?? null,
    macAddresses: row.macAddresses,
    hostname: row.hostname,
    hasFile: row.hasFile,
    invalidated: row.invalidatedAt !== null,
    createDate: row.createdAt,
    license: {
      id: row.licenseId,
      type: { key: row.licenseTypeKey as License['type']['key'], name: row.licenseTypeName },
      label: row.licenseLabel,
      expirationDate: row.expirationDate,
      company:
        row.companyId !== null && row.companyName !== null && row.companyTenantId !== null
          ? { id: row.companyId, name: row.companyName, tenantId: row.companyTenantId }
          : null,
    },
  };
}

/** A registration file read, or the 400 its error key names (on the regFile field). */
function readRegistrationFile(file: UploadedFile | undefined): Registration {
  try {
    return parseRegistrationFile(file ? { name: file.filename, bytes: file.bytes } : null);
  } catch (error) {
    if (error instanceof RegistrationFileError) throw badRequest(error.key, { regFile: error.key });
    throw error;
  }
}

type KeyValues = Omit<Parameters<typeof q.insertKey>[1], 'licenseId' | 'keyDigest' | 'partialKey' | 'sealedKey'>;

/** The person and machines a registration file names, as a key stores them. */
const personOf = (registration: Registration) => ({
  fullName: registration.fullName,
  emailAddress: registration.emailAddress,
  macAddresses: registration.macAddresses,
  hostname: registration.hostname,
});

/**
 * What the accounts page's count, anchors and pages depend on: the keys (made, invalidated, deleted) and
 * their licences (a licence deleted takes its keys unannounced; a solo one archived hides its key).
 * Companies the search matches by name are part of the key instead (filterKey).
 */
const LIST_DEPENDS_ON: readonly Resource[] = ['accounts', 'licenses'];

export type AccountsService = ReturnType<typeof createAccountsService>;

/**
 * Licence keys and the accounts they make (spec sections 3, 7): a company manages the keys of its
 * own licences; the provider sees every account and makes solo ones. A key is stored as its digest
 * and partial form; one made from a registration file also keeps the full key sealed, for its
 * licence file (docs/licensing.md, Keys at rest).
 */
export function createAccountsService(deps: { db: Db; signing: SigningKey; events: EventBus; outbox: WebhookOutbox }) {
  const { db, signing, events, outbox } = deps;
  /** The page's exact totals and deep pages' anchors (docs/performance.md, "Lists at 500 requests a second"). */
  const counts = createListCounts(events, LIST_DEPENDS_ON);
  const anchors = new ListCache<Anchor[]>(events, { dependsOn: LIST_DEPENDS_ON });
  const pages = createListPages(events, LIST_DEPENDS_ON);

  /** Said after the change committed. */
  const published = (kind: ChangeKind, id: number, tenantId: string | null) =>
    events.publish({ resource: 'accounts', kind, ids: [id], tenantId });

  /**
   * Tells the webhooks of a new key (docs/webhooks.md), and of the licence's seats when this key is
   * the one that brings its keys to SEATS_NEARLY_FULL_PERCENT of them. A solo key (no company, the
   * provider's endpoints hear it) is its licence's one seat: there is no "nearly" full.
   */
  async function told(account: GeneratedAccount, tenantId: string | null): Promise<GeneratedAccount> {
    const licenseId = account.license.id;
    await outbox.emit('account.generated', tenantId, {
      account: { id: account.id, partialKey: account.partialKey, licenseId },
    });
    if (tenantId === null) return account;
    const license = await licenseQueries.findLicense(db, oneTenant(tenantId), licenseId);
    if (!license) return account;
    const threshold = (license.maxAccounts * SEATS_NEARLY_FULL_PERCENT) / 100;
    if (license.keysInUse >= threshold && license.keysInUse - 1 < threshold) {
      await outbox.emit('seats.nearly_full', tenantId, {
        license: { id: license.id, label: license.label },
        used: license.keysInUse,
        seats: license.maxAccounts,
        percent: Math.round((license.keysInUse / license.maxAccounts) * 1000) / 10,
      });
    }
    return account;
  }

  async function read(scope: TenantScope, id: number, key: string): Promise<GeneratedAccount> {
    const [row] = await q.selectAccounts(db, scope, q.byIds([id]));
    return { ...toAccount(row!), key };
  }

  /**
   * Makes a key on a licence, in one transaction: the licence row is locked (FOR UPDATE) while its
   * keys are counted, so two generations for the last free seat cannot both succeed.
   */
  async function makeKey(tx: Executor, scope: TenantScope, licenseId: number, values: KeyValues, sealed: boolean) {
    const license = await licenseQueries.lockLicense(tx, scope, licenseId);
    if (!license) throw notFound('ERROR_LICENSE_NOT_EXIST');
    if (license.invalidatedAt !== null || license.expirationDate <= Date.now()) {
      throw conflict('ERROR_LICENSE_EXPIRED_KEY');
    }
    if ((await licenseQueries.countKeys(tx, scope, licenseId)) >= license.maxAccounts) {
      throw conflict('ERROR_COMPANY_FULL_LICENSES');
    }
    const { key, digest, partial } = newLicenseKey();
    const id = await q.insertKey(tx, {
      ...values,
      licenseId,
      keyDigest: digest,
      partialKey: partial,
      sealedKey: sealed ? sealKey(key, signing.privateKey) : null,
    });
    return { id, key };
  }

  /** The company, licence and live department of a generation, or the 404 that names what is missing. */
  async function generationTarget(auth: RequestAuth, body: GenerateAccount) {
    const { company, license } = await companyLicense(db, auth, body.company, body.license);
    const department = await findDepartment(db, oneTenant(company.tenantId), body.department);
    if (!department) {
      throw new AppError(404, 'ERROR_DEPARTMENT_NOT_EXIST', { department: 'ERROR_DEPARTMENT_NOT_EXIST' });
    }
    return { company, license, department };
  }

  /** A key of a company's licence, addressed by the company, licence and account ids. */
  async function keyOf(auth: RequestAuth, form: AccountRefForm) {
    const { license } = await companyLicense(db, auth, form.company, form.license);
    const row = await q.findKey(db, licenceScope(auth), q.keyOfLicense(license.id, form.account));
    if (!row) throw notFound('ERROR_ACCOUNT_NOT_EXIST');
    return row;
  }

  /** Keys of the activities the premium list holds: both 'pro' and 'enterprise' unlock it. */
  async function premiumActivities(): Promise<string[]> {
    return (await listWithLicenseType(db, 'pro')).filter((row) => row.unlocked).map((row) => row.activity.key);
  }

  return {
    /** GET /api/account/list: the keys of one licence, oldest first. */
    async ofLicense(auth: RequestAuth, query: LicenseAccountsQuery): Promise<Account[]> {
      const { license } = await companyLicense(db, auth, query.company, query.license);
      return (await q.selectAccounts(db, licenceScope(auth), q.ofLicense(license.id))).map(toAccount);
    },

    /** POST /api/account/generate: a key with no person or machine yet. */
    async generate(auth: RequestAuth, body: GenerateAccount): Promise<GeneratedAccount> {
      const { company, license, department } = await generationTarget(auth, body);
      const made = await db.transaction((tx) =>
        makeKey(
          tx,
          licenceScope(auth),
          license.id,
          {
            tenantId: company.tenantId,
            solo: false,
            departmentId: department.id,
            departmentName: department.name,
            fullName: null,
            emailAddress: null,
            macAddresses: [],
            hostname: null,
            createdBy: auth.userId,
          },
          false,
        ),
      );
      published('created', made.id, company.tenantId);
      return told(await read(licenceScope(auth), made.id, made.key), company.tenantId);
    },

    /** POST /api/account/from-file: a key bound to the person and machines of a registration file. */
    async fromFile(auth: RequestAuth, body: GenerateAccountFromFile): Promise<GeneratedAccount> {
      const { company, license, department } = await generationTarget(auth, body);
      const registration = readRegistrationFile(body.regFile);
      const made = await db.transaction((tx) =>
        makeKey(
          tx,
          licenceScope(auth),
          license.id,
          {
            tenantId: company.tenantId,
            solo: false,
            departmentId: department.id,
            departmentName: department.name,
            ...personOf(registration),
            createdBy: auth.userId,
          },
          true,
        ),
      );
      published('created', made.id, company.tenantId);
      return told(await read(licenceScope(auth), made.id, made.key), company.tenantId);
    },

    /** POST /api/account/invalidate: the key stops working, and still holds its seat until deleted. */
    async invalidate(auth: RequestAuth, form: AccountRefForm): Promise<Account> {
      const row = await keyOf(auth, form);
      const scope = licenceScope(auth);
      await q.invalidateKey(db, scope, row.licenseId, row.id, Date.now());
      published('updated', row.id, row.tenantId);
      const [updated] = await q.selectAccounts(db, scope, q.byIds([row.id]));
      const account = toAccount(updated!);
      await outbox.emit('account.invalidated', row.tenantId, {
        account: { id: account.id, partialKey: account.partialKey, licenseId: account.license.id },
      });
      return account;
    },

    /** POST /api/account/list-license-file: the key's licence file, if it has one. */
    async licenseFiles(auth: RequestAuth, form: AccountRefForm): Promise<LicenseFileRef[]> {
      const row = await keyOf(auth, form);
      return row.sealedKey ? [{ accountId: row.id, fileName: licenseFileName(row.id) }] : [];
    },

    /**
     * GET /api/account/export-license-file/{id}: the key's licence file, signed now, with the
     * licence's current expiration (a renewal shows in a file exported after it). A key of the
     * caller's scope only; a key with no registration file has none (409), and an invalidated key,
     * or one of an invalidated licence, gets no new file (409 ERROR_LICENSE_EXPIRED_KEY).
     */
    async exportFile(auth: RequestAuth, accountId: number): Promise<{ fileName: string; text: string }> {
      const row = await q.findKey(db, scopeOf(auth), q.byIds([accountId]));
      if (!row) throw notFound('ERROR_ACCOUNT_NOT_EXIST');
      if (!row.sealedKey) throw conflict('ERROR_ACCOUNT_NO_LICENSE_FILE');
      if (row.invalidatedAt !== null || row.licenseInvalidatedAt !== null) throw conflict('ERROR_LICENSE_EXPIRED_KEY');
      const payload: LicensePayload = {
        format: LICENSE_FORMAT,
        version: 1,
        key: unsealKey(row.sealedKey, signing.privateKey),
        keyId: row.id,
        tenantId: row.companyTenantId ?? '',
        company:
          row.companyId !== null && row.companyName !== null
            ? { id: row.companyId, name: row.companyName }
            : { ...SOLO_COMPANY },
        license: { id: row.licenseId, type: row.licenseTypeKey, expirationDate: row.expirationDate },
        department: row.departmentId !== null ? { id: row.departmentId, name: row.departmentName ?? '' } : null,
        fullName: row.fullName ?? '',
        emailAddress: row.emailAddress ?? '',
        macAddresses: row.macAddresses,
        premiumActivities: await premiumActivities(),
        issuedAt: Date.now(),
      };
      return { fileName: licenseFileName(row.id), text: writeLicenseFile(payload, signing.privateKey) };
    },

    /** Hard delete (spec section 4): the seat is free again. */
    async remove(auth: RequestAuth, form: AccountRefForm): Promise<void> {
      const row = await keyOf(auth, form);
      if (!(await q.deleteKey(db, licenceScope(auth), row.licenseId, row.id)))
        throw notFound('ERROR_ACCOUNT_NOT_EXIST');
      published('deleted', row.id, row.tenantId);
    },

    /** GET /api/account: one page of the accounts the caller may see. */
    async page(auth: RequestAuth, query: AccountListQuery): Promise<Page<Account>> {
      const scope = await q.resolveAccountSearch(db, scopeOf(auth), query.search || undefined);
      const parsed = parseSort(query.sort);
      const sort = { field: (parsed?.field ?? 'fullName') as AccountSortField, direction: parsed?.direction ?? 'asc' };
      const offset = (query.page - 1) * query.size;
      const filter = q.filterKey(scope);
      // Kept, a MAC-shaped search too: an agent's first connection, giving a generated key its
      // MAC address, publishes the change as any edit does (events/agent-keys.ts).
      const total = await counts.get(scope.scope, filter, () => q.countAccounts(db, scope));
      // A deep page of an anchored order seeks past the nearest anchor instead of skipping rows.
      const seek =
        offset >= ANCHOR_SPACING && offset < total && q.ANCHORED_SORTS.has(sort.field)
          ? seekFrom(await anchors.get(scope.scope, { filter, sort }, () => q.accountAnchors(db, scope, sort)), offset)
          : { after: undefined, skip: offset };
      const ids =
        offset < total
          ? await pages.get(scope.scope, { filter, sort, offset, size: query.size }, () =>
              q.pageAccountIds(db, scope, sort, query.size, seek.skip, seek.after),
            )
          : [];
      const rows = ids.length ? await q.selectAccounts(db, scope.scope, q.byIds(ids)) : [];
      return { items: inIdOrder(ids, rows).map(toAccount), total, page: query.page, size: query.size };
    },

    /** GET /api/account/solo: the provider's solo accounts, newest first; archived ones are left out. */
    async solo(auth: RequestAuth): Promise<Account[]> {
      if (!auth.isAdmin) return [];
      return (await q.selectAccounts(db, licenceScope(auth), q.soloAccounts, true)).map(toAccount);
    },

    /** POST /api/account/solo: a solo licence (one seat, no company) and its account, in one transaction. */
    async createSolo(auth: RequestAuth, body: CreateSoloAccount): Promise<GeneratedAccount> {
      requireProvider(auth);
      const registration = readRegistrationFile(body.regFile);
      const made = await db.transaction(async (tx) => {
        const now = Date.now();
        const licenseId = await licenseQueries.insertLicense(tx, {
          companyId: null,
          tenantId: null,
          typeKey: body.licenseType,
          label: '',
          issueDate: now,
          expirationDate: defaultExpiration(now),
          maxAccounts: 1,
        });
        const key = await makeKey(
          tx,
          licenceScope(auth),
          licenseId,
          {
            tenantId: null,
            solo: true,
            departmentId: null,
            departmentName: null,
            ...personOf(registration),
            createdBy: auth.userId,
          },
          true,
        );
        return { ...key, licenseId };
      });
      events.publish({ resource: 'licenses', kind: 'created', ids: [made.licenseId], tenantId: null });
      published('created', made.id, null);
      return told(await read(licenceScope(auth), made.id, made.key), null);
    },
  };
}
