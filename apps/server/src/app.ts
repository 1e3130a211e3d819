import path from 'node:path';
import formBody from '@fastify/formbody';
import { Health } from '@opsdeck/contract/health';
import Fastify, { type FastifyServerOptions } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config';
import type { Database } from './db/client';
import { authRoutes } from './modules/auth/routes';
import { createAuthService } from './modules/auth/service';
import { companyRoutes } from './modules/companies/routes';
import { createCompaniesService } from './modules/companies/service';
import { departmentRoutes } from './modules/departments/routes';
import { createDepartmentsService } from './modules/departments/service';
import { roleRoutes } from './modules/roles/routes';
import { createRolesService } from './modules/roles/service';
import { scheduleRoutes } from './modules/schedules/routes';
import { createSchedulesService } from './modules/schedules/service';
import { statusRoutes } from './modules/statuses/routes';
import { createStatusesService } from './modules/statuses/service';
import { taskRoutes } from './modules/tasks/routes';
import { createTasksService } from './modules/tasks/service';
import { userRoutes } from './modules/users/routes';
import { createUsersService } from './modules/users/service';
import { registerAccessControl } from './platform/access';
import { registerErrorHandling } from './platform/errors';
import { createLogDestination, loggerSerializers, RequestLog } from './platform/logging';
import { createMailer } from './platform/mail';
import { registerOpenApi } from './platform/openapi';
import { registerSecurityHeaders } from './platform/security-headers';
import { registerConsole } from './platform/static';

export const VERSION = '0.1.0';

export type AppOptions = {
  config: Config;
  database: Database;
  logger?: FastifyServerOptions['logger'];
};

export async function buildApp({ config, database, logger }: AppOptions) {
  const app = Fastify({
    logger: logger ?? { level: config.logLevel, serializers: loggerSerializers, stream: createLogDestination() },
    logController: new RequestLog(),
    // Only a proxy the operator names may set the client address: sign-in throttling counts it.
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  let servesConsole = false;
  registerErrorHandling(app, { servesConsole: () => servesConsole });

  registerSecurityHeaders(app);
  await app.register(formBody, { bodyLimit: 64 * 1024 });

  const { db } = database;
  const mailer = createMailer({
    smtpUrl: config.smtpUrl,
    from: config.mailFrom,
    outboxDir: path.join(config.dataDir, 'mail'),
    log: app.log,
  });
  const auth = createAuthService({ db, config, mailer, log: app.log });
  const users = createUsersService({ db, auth });
  const companies = createCompaniesService({ db });
  const departments = createDepartmentsService({ db, auth });
  const roles = createRolesService({ db, auth });
  const statuses = createStatusesService({ db, auth });
  const tasks = createTasksService({ db, auth });
  const schedules = createSchedulesService({ db, auth });

  registerAccessControl(app, {
    appKeys: config.appKeys,
    resolveCaller: auth.resolveCaller,
    resolveTenant: auth.resolveTenant,
    openPrefixes: ['/api/docs', '/api/openapi.json', '/api/health'],
  });
  await registerOpenApi(app, VERSION);

  app.get(
    '/api/health',
    {
      schema: {
        tags: ['health'],
        summary: 'Readiness: answers 200 once the database is open',
        response: { 200: Health },
      },
    },
    async () => ({ status: 'ok' as const, database: database.kind, version: VERSION }),
  );

  await app.register(
    async (api) => {
      await api.register(authRoutes, { auth });
      await api.register(userRoutes, { users });
      await api.register(companyRoutes, { companies });
      await api.register(departmentRoutes, { departments });
      await api.register(roleRoutes, { roles });
      await api.register(statusRoutes, { statuses });
      await api.register(taskRoutes, { tasks });
      await api.register(scheduleRoutes, { schedules });
    },
    { prefix: '/api' },
  );

  if (config.webDist) servesConsole = await registerConsole(app, config.webDist);

  return Object.assign(app, {
    services: { auth, users, companies, departments, roles, statuses, tasks, schedules, mailer },
  });
}

export type App = Awaited<ReturnType<typeof buildApp>>;
