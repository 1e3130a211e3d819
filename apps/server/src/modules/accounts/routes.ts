import {
  Account,
  AccountIdParams,
  AccountListQuery,
  AccountPage,
  AccountPathParams,
  AccountRefForm,
  CreateSoloAccount,
  GenerateAccount,
  GenerateAccountFromFile,
  GeneratedAccount,
  LicenseAccountsQuery,
  LicenseFileRef,
} from '@opsdeck/contract/accounts';
import { Ok } from '@opsdeck/contract/auth';
import { REGISTRATION_MAX_BYTES } from '@opsdeck/licensing/registration';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { access, requireAuth } from '../../platform/access';
import { audit, currentAudit } from '../../platform/audit';
import { attachment } from '../../platform/content-disposition';
import { type CsvTable, csvAnswer, csvDescription, isoTime, pagedRows, sendTableCsv } from '../../platform/csv-export';
import { registerFormData } from '../../platform/form-data';
import type { AccountsService } from './service';

const tags = ['accounts'];
const ACCOUNT_READERS = ['VIEW_ACCOUNT', 'ACCESS_ACCOUNT_TAB'] as const;

/**
 * The accounts page as a file (docs/csv-export.md): the partial key the page shows, never a key
 * or a registration file; the owner as the company, the licence and the department.
 */
const ACCOUNTS_CSV: CsvTable<Account> = {
  table: 'accounts',
  columns: {
    type: (row) => row.type.key,
    invalidated: (row) => row.invalidated,
    fullName: (row) => row.fullName,
    email: (row) => row.emailAddress,
    macAddresses: (row) => row.macAddresses.join('; '),
    expiration: (row) => isoTime(row.license.expirationDate),
    partialKey: (row) => row.partialKey,
    company: (row) => row.license.company?.name,
    license: (row) => row.license.label || row.license.type.name,
    department: (row) => row.departmentName,
  },
};
const KEY_READERS = ['VIEW_LICENSE_KEY', 'ACCESS_COMPANY_LICENSE_KEY_PAGE'] as const;
/** Form-data calls take multipart/form-data (the console) or JSON; a file comes only as multipart. */
const FORM = ['multipart/form-data', 'application/json', 'application/x-www-form-urlencoded'];
const COMPANY_WALL =
  'A company user acts on its own company only (404 ERROR_COMPANY_NOT_EXIST); a licence of another company answers 404 ERROR_LICENSE_NOT_EXIST (409 ERROR_LICENSE_OTHER_COMPANY to the provider).';

/** The licence file as exported: a six-line text document (docs/licensing.md). */
const LicenseFileText = z.string().meta({ id: 'LicenseFile', description: 'An Opsdeck licence file (.lic)' });

export const accountRoutes: FastifyPluginAsyncZod<{ accounts: AccountsService }> = async (app, { accounts }) => {
  // Registration files are at most 64 KiB: a larger one is refused as invalid, and nothing is stored.
  await registerFormData(app, {
    files: ['regFile'],
    maxFileBytes: REGISTRATION_MAX_BYTES,
    fileTooLarge: 'ERROR_ACCOUNT_REGFILE_INVALID',
  });

  app.get(
    '/account',
    {
      config: { access: access.anyOf(...ACCOUNT_READERS) },
      schema: {
        tags,
        summary: 'The accounts page: one page of every account the caller may see',
        description:
          "A company user sees its company's accounts; the provider every account (or one company's with X-Tenant-Id), solo ones included, except archived solo accounts. `search` matches full name, e-mail, a MAC address, company name or partial key (case-insensitive substring); `sort` is type, fullName, email or expiration, with `,asc` or `,desc`, ties by id. " +
          csvDescription(),
        querystring: AccountListQuery,
        response: { 200: csvAnswer(AccountPage) },
      },
    },
    async (request, reply) => {
      const auth = requireAuth(request);
      if (request.query.format !== 'csv') return accounts.page(auth, request.query);
      const rows = pagedRows((page, size) => accounts.page(auth, { ...request.query, page, size }), {
        log: request.log,
      });
      return sendTableCsv(reply, ACCOUNTS_CSV, rows);
    },
  );

  app.get(
    '/account/solo',
    {
      config: { access: access.anyOf(...ACCOUNT_READERS) },
      schema: {
        tags,
        summary: 'Solo accounts (an individual licence each), newest first',
        description: 'The provider only: a company user gets an empty list. Archived solo accounts are left out.',
        response: { 200: Account.array() },
      },
    },
    async (request) => accounts.solo(requireAuth(request)),
  );

  app.post(
    '/account/solo',
    {
      config: { access: access.anyOf('CREATE_LICENSE'), audit: audit.action('account.create') },
      schema: {
        tags,
        summary: 'Make a solo account from a registration file',
        description:
          'Form data `licenseType` (default pro) and `regFile` (.dat, multipart). In one transaction: a solo licence (no company, one seat, valid a year) and its account. The full key is in this answer only. Provider administrators only.',
        consumes: FORM,
        body: CreateSoloAccount,
        response: { 201: GeneratedAccount },
      },
    },
    async (request, reply) => {
      reply.status(201);
      return accounts.createSolo(requireAuth(request), request.body);
    },
  );

  app.get(
    '/account/list',
    {
      config: { access: access.anyOf(...KEY_READERS) },
      schema: {
        tags,
        summary: 'The keys of one licence, oldest first',
        description: COMPANY_WALL,
        querystring: LicenseAccountsQuery,
        response: { 200: Account.array() },
      },
    },
    async (request) => accounts.ofLicense(requireAuth(request), request.query),
  );

  app.post(
    '/account/generate',
    {
      config: { access: access.anyOf('GENERATE_LICENSE_KEY'), audit: audit.action('account.generate') },
      schema: {
        tags,
        summary: 'Generate a key on a licence, for a department',
        description: `Form data company, license, department (a live department of the company, else 404 ERROR_DEPARTMENT_NOT_EXIST). An invalidated or expired licence answers 409 ERROR_LICENSE_EXPIRED_KEY, a full one 409 ERROR_COMPANY_FULL_LICENSES; the seat is taken under a lock on the licence. The full key is in this answer only. ${COMPANY_WALL}`,
        consumes: FORM,
        body: GenerateAccount,
        response: { 201: GeneratedAccount },
      },
    },
    async (request, reply) => {
      reply.status(201);
      return accounts.generate(requireAuth(request), request.body);
    },
  );

  app.post(
    '/account/from-file',
    {
      config: { access: access.anyOf('GENERATE_LICENSE_KEY'), audit: audit.action('account.import') },
      schema: {
        tags,
        summary: "Generate a key from a machine's registration file",
        description: `As /account/generate, plus \`regFile\` (multipart; a .dat registration file of at most 64 KiB, docs/licensing.md): the file the agent's installer writes on the machine to license, UTF-8 JSON \`{ "format": "opsdeck-registration", "version": 1, "fullName", "emailAddress", "macAddresses": [1 to 16 "AA:BB:CC:DD:EE:FF"], "hostname"?, "createdAt"? }\`. Missing ERROR_ACCOUNT_REGFILE_REQUIRED, another extension _UNSUPPORTED, anything else wrong _INVALID. The key can then be exported as a licence file. ${COMPANY_WALL}`,
        consumes: FORM,
        body: GenerateAccountFromFile,
        response: { 201: GeneratedAccount },
      },
    },
    async (request, reply) => {
      reply.status(201);
      return accounts.fromFile(requireAuth(request), request.body);
    },
  );

  app.post(
    '/account/invalidate',
    {
      config: {
        access: access.anyOf('DELETE_LICENSE_KEY', 'GENERATE_LICENSE_KEY'),
        audit: audit.action('account.invalidate'),
      },
      schema: {
        tags,
        summary: 'Invalidate a key',
        description: `Form data company, license, account. The key keeps its seat until it is deleted, and gets no new licence file. ${COMPANY_WALL}`,
        consumes: FORM,
        body: AccountRefForm,
        response: { 200: Account },
      },
    },
    async (request) => accounts.invalidate(requireAuth(request), request.body),
  );

  app.post(
    '/account/list-license-file',
    {
      config: {
        access: access.anyOf('EXPORT_LICENSE_FILE'),
        audit: audit.none('a read: which keys have a licence file'),
      },
      schema: {
        tags,
        summary: "A key's licence file, if it has one",
        description: `Form data company, license, account. One entry for a key made from a registration file, none otherwise. ${COMPANY_WALL}`,
        consumes: FORM,
        body: AccountRefForm,
        response: { 200: LicenseFileRef.array() },
      },
    },
    async (request) => accounts.licenseFiles(requireAuth(request), request.body),
  );

  app.get(
    '/account/export-license-file/:id',
    {
      config: { access: access.anyOf('EXPORT_LICENSE_FILE'), audit: audit.action('account.export') },
      schema: {
        tags,
        summary: "Download a key's licence file (.lic), signed now",
        description:
          "An attachment named `opsdeck-license-<id>.lic`, `text/plain`, carrying the licence's current expiration. A key outside the caller's company answers 404 ERROR_ACCOUNT_NOT_EXIST; one with no registration file 409 ERROR_ACCOUNT_NO_LICENSE_FILE; an invalidated key, or one of an invalidated licence, 409 ERROR_LICENSE_EXPIRED_KEY.",
        params: AccountIdParams,
        response: { 200: LicenseFileText },
      },
    },
    async (request, reply) => {
      const file = await accounts.exportFile(requireAuth(request), request.params.id);
      currentAudit()?.describe({ entityName: file.fileName });
      return reply
        .type('text/plain; charset=utf-8')
        .header('content-disposition', attachment(file.fileName))
        .send(file.text);
    },
  );

  app.delete(
    '/license/company/:companyId/license/:licenseId/account/:accountId',
    {
      config: { access: access.anyOf('DELETE_LICENSE_KEY', 'DELETE_ACCOUNT'), audit: audit.action('account.delete') },
      schema: {
        tags,
        summary: 'Delete a key (and its account)',
        description: `A hard delete (spec section 4): its seat is free again. A licence file already exported stays valid offline until it expires. ${COMPANY_WALL}`,
        params: AccountPathParams,
        response: { 200: Ok },
      },
    },
    async (request) => {
      const { companyId, licenseId, accountId } = request.params;
      await accounts.remove(requireAuth(request), { company: companyId, license: licenseId, account: accountId });
      return { ok: true as const };
    },
  );
};
