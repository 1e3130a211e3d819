import { CurrentUserProfile } from '@opsdeck/contract/auth';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { access, requireAuth } from '../../platform/access';
import type { UsersService } from './service';

const tags = ['users'];

export const userRoutes: FastifyPluginAsyncZod<{ users: UsersService }> = async (app, { users }) => {
  app.get(
    '/user/profile/current-user',
    {
      config: { access: access.session },
      schema: { tags, summary: 'The signed-in user, with their authorities', response: { 200: CurrentUserProfile } },
    },
    async (request) => users.currentUserProfile(requireAuth(request).userId),
  );
};
