import { AgentConnection } from '@opsdeck/contract/live';
import { WorkflowIdParams } from '@opsdeck/contract/workflows';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { access, header, requireAuth } from '../../platform/access';
import { sendFile } from '../../platform/content-disposition';
import { forbidden } from '../../platform/errors';
import { FileBody } from '../workflows/routes';
import type { WorkflowsService } from '../workflows/service';
import type { EventsService } from './service';

const tags = ['live channel'];

export const eventsRoutes: FastifyPluginAsyncZod<{ live: EventsService; workflows: WorkflowsService }> = async (
  app,
  { live, workflows },
) => {
  app.get(
    '/active-agents',
    {
      config: { access: access.anyOf('VIEW_WORKFLOW_EVENTS') },
      schema: {
        tags,
        summary: 'The connected agents',
        description:
          "The same list as the live channel's `/request/active-agents` (docs/live-channel.md): the agents of the caller's company, or of every company for an administrator with no X-Tenant-Id, over every server instance.",
        response: { 200: z.array(AgentConnection) },
      },
    },
    async (request) => live.activeAgents(requireAuth(request)),
  );

  app.get(
    '/agent/workflow/:id/file',
    {
      // Not a user's call: the agent's licence key, secret and MAC address (its CONNECT headers) are checked below.
      config: { access: access.public },
      schema: {
        tags,
        summary: "An agent downloads a workflow's file",
        description:
          "With the headers of its CONNECT (X-App-Key, X-App-Secret, license-key, mac-address): the current file of a live workflow of the key's company. A key, licence or machine that may not connect is refused with the same error key.",
        params: WorkflowIdParams,
        response: { 200: FileBody },
      },
    },
    async (request, reply) => {
      const agent = await live.identifyAgent((name) => header(request, name.toLowerCase()), request.ip);
      if (!agent.key.tenantId) throw forbidden('ERROR_TENANT_FORBIDDEN');
      return sendFile(reply, await workflows.currentFile(agent.key.tenantId, request.params.id));
    },
  );
};
