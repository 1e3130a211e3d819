import { AUDIT_PATHS, AuditQuery, AuditRecord, AuditRecordPage } from '@opsdeck/contract/audit';
import { idParams } from '@opsdeck/contract/fields';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { access, requireAuth } from '../../platform/access';
import { sendCsv } from '../../platform/csv';
import type { AuditService } from './service';

const tags = ['audit'];

export const auditRoutes: FastifyPluginAsyncZod<{ audit: AuditService }> = async (app, { audit }) => {
  app.get(
    AUDIT_PATHS.list,
    {
      config: { access: access.anyOf('VIEW_AUDIT_LOG') },
      schema: {
        tags,
        summary: 'The audit log: who changed what, when and from where, newest first',
        description:
          "A company's staff see their company's records; the provider every company's and its own, or one company's with " +
          'X-Tenant-Id. `search` looks in the actor, entity and company names and the action. The total counts at most ' +
          '10,000 matches, 1,000 with `search` (`totalCapped` past it). With `format=csv`: every matching record as an RFC 4180 `text/csv` ' +
          'attachment (times in ISO 8601 UTC, the changes as JSON, formula cells neutralised).',
        querystring: AuditQuery,
        response: { 200: AuditRecordPage },
      },
    },
    async (request, reply) => {
      const auth = requireAuth(request);
      if (request.query.format === 'csv') return sendCsv(reply, audit.csv(auth, request.query));
      return audit.page(auth, request.query);
    },
  );

  app.get(
    AUDIT_PATHS.one,
    {
      config: { access: access.anyOf('VIEW_AUDIT_LOG') },
      schema: {
        tags,
        summary: 'One audit record',
        params: idParams('ERROR_AUDIT_RECORD_NOT_EXIST'),
        response: { 200: AuditRecord },
      },
    },
    async (request) => audit.one(requireAuth(request), request.params.id),
  );
};
