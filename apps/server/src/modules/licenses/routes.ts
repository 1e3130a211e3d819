import { Ok } from '@opsdeck/contract/auth';
import {
  AddLicense,
  CompanyLicenseQuery,
  CompanyLicensesQuery,
  InvalidateLicense,
  InvalidateSoloLicense,
  License,
  LicensePathParams,
  UpdateLicense,
} from '@opsdeck/contract/licenses';
import type { SigningKey } from '@opsdeck/licensing/signing-key';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { access, requireAuth } from '../../platform/access';
import { audit } from '../../platform/audit';
import type { LicensesService } from './service';

const tags = ['licenses'];

/** The PEM (SPKI) document of the key that verifies licence files (docs/licensing.md). */
const PublicKeyPem = z.string().meta({ id: 'LicensePublicKey', description: 'A PEM (SPKI) Ed25519 public key' });

const LICENSE_READERS = ['VIEW_LICENSE', 'VIEW_COMPANY_LICENSE', 'ACCESS_COMPANY_LICENSE_PAGE'] as const;
const PROVIDER_ONLY = 'Provider administrators only: a company user gets 403 whatever authorities it holds.';

export const licenseRoutes: FastifyPluginAsyncZod<{ signing: SigningKey; licenses: LicensesService }> = async (
  app,
  { signing, licenses },
) => {
  app.get(
    '/license/public-key',
    {
      config: { access: access.public },
      schema: {
        tags,
        summary: 'The key that verifies licence files',
        description:
          'An Ed25519 public key as a PEM (SPKI) document, `application/x-pem-file`: a machine checks the signature of its licence file with it, with no network (docs/licensing.md). No sign-in; the app key as on every call.',
        response: { 200: PublicKeyPem },
      },
    },
    async (_request, reply) => reply.type('application/x-pem-file').send(signing.publicKeyPem),
  );

  app.get(
    '/license/company',
    {
      config: { access: access.anyOf(...LICENSE_READERS) },
      schema: {
        tags,
        summary: "A company's licences, newest issue first",
        description:
          'A company user reads only its own company; any other id answers 404 ERROR_COMPANY_NOT_EXIST. `unusedAccounts` counts every key not deleted, invalidated ones too.',
        querystring: CompanyLicensesQuery,
        response: { 200: License.array() },
      },
    },
    async (request) => licenses.ofCompany(requireAuth(request), request.query.id),
  );

  app.get(
    '/license/company/license',
    {
      config: { access: access.anyOf(...LICENSE_READERS) },
      schema: {
        tags,
        summary: 'One licence of a company',
        description:
          'A missing licence answers 404 ERROR_LICENSE_NOT_EXIST; one of another company 404 to a company user and 409 ERROR_LICENSE_OTHER_COMPANY to the provider.',
        querystring: CompanyLicenseQuery,
        response: { 200: License },
      },
    },
    async (request) => licenses.get(requireAuth(request), request.query.company, request.query.license),
  );

  app.post(
    '/license/company/add',
    {
      config: { access: access.anyOf('CREATE_LICENSE'), audit: audit.action('license.create') },
      schema: {
        tags,
        summary: 'Issue a licence to a company',
        description: `Issued now, valid for a year, with 10 allowed keys (spec section 9); renew it to change either. ${PROVIDER_ONLY}`,
        body: AddLicense,
        response: { 201: License },
      },
    },
    async (request, reply) => {
      reply.status(201);
      return licenses.add(requireAuth(request), request.body);
    },
  );

  app.post(
    '/license/company/update',
    {
      config: { access: access.anyOf('EDIT_LICENSE'), audit: audit.action('license.update') },
      schema: {
        tags,
        summary: 'Renew a licence: its expiration date, allowed keys and label',
        description: `The date must be in the future (400 ERROR_LICENSE_EXPIRATION_DATE_INVALID); fewer allowed keys than the keys made answers 409 ERROR_COMPANY_MORE_LICENSES. A renewed licence is valid again (its invalidation is cleared). ${PROVIDER_ONLY}`,
        body: UpdateLicense,
        response: { 200: License },
      },
    },
    async (request) => licenses.renew(requireAuth(request), request.body),
  );

  app.post(
    '/license/company/invalidate',
    {
      config: { access: access.anyOf('EDIT_LICENSE'), audit: audit.action('license.invalidate') },
      schema: {
        tags,
        summary: 'Invalidate a licence: no new key can be made on it',
        description: `Its keys stay, and still count against its seats, until deleted. A renewal makes it valid again. ${PROVIDER_ONLY}`,
        body: InvalidateLicense,
        response: { 200: License },
      },
    },
    async (request) => licenses.invalidate(requireAuth(request), request.body),
  );

  app.delete(
    '/license/company/:companyId/license/:licenseId',
    {
      config: { access: access.anyOf('DELETE_LICENSE'), audit: audit.action('license.delete') },
      schema: {
        tags,
        summary: 'Delete a licence and all its keys',
        description: `A hard delete (spec section 4): the licence and every key made on it go, in one transaction. Licence files already exported stay valid offline until they expire. ${PROVIDER_ONLY}`,
        params: LicensePathParams,
        response: { 200: Ok },
      },
    },
    async (request) => {
      await licenses.remove(requireAuth(request), request.params.companyId, request.params.licenseId);
      return { ok: true as const };
    },
  );

  app.post(
    '/license/solo/invalidate',
    {
      config: { access: access.anyOf('DELETE_ACCOUNT', 'EDIT_LICENSE'), audit: audit.action('license.invalidate') },
      schema: {
        tags,
        summary: 'Archive a solo account: invalidate its solo licence',
        description: `The account then leaves the account lists. A missing licence answers 404 ERROR_LICENSE_NOT_EXIST, a company's licence 409 ERROR_LICENSE_NOT_SOLO. ${PROVIDER_ONLY}`,
        body: InvalidateSoloLicense,
        response: { 200: License },
      },
    },
    async (request) => licenses.invalidateSolo(requireAuth(request), request.body.licenseId),
  );
};
