import { randomUUID } from 'node:crypto';
import path from 'node:path';
import formBody from '@fastify/formbody';
import { LIVE_PATH } from '@opsdeck/contract/live';
import { loadSigningKey } from '@opsdeck/licensing/signing-key';
import Fastify, { type FastifyServerOptions } from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config';
import type { Database } from './db/client';
import { accountRoutes } from './modules/accounts/routes';
import { createAccountsService } from './modules/accounts/service';
import { activityRoutes } from './modules/activities/routes';
import { createActivitiesService } from './modules/activities/service';
import { createActivityService } from './modules/activity/service';
import { alertRoutes } from './modules/alerts/routes';
import { createAlertsService, startAlertChecks } from './modules/alerts/service';
import { insertAuditEntries } from './modules/audit/queries';
import { auditRoutes } from './modules/audit/routes';
import { createAuditService } from './modules/audit/service';
import { authRoutes } from './modules/auth/routes';
import { createAuthService } from './modules/auth/service';
import { companyRoutes } from './modules/companies/routes';
import { createCompaniesService } from './modules/companies/service';
import { departmentRoutes } from './modules/departments/routes';
import { createDepartmentsService } from './modules/departments/service';
import { createLocalBackplane } from './modules/events/backplane';
import { createRedisBackplane } from './modules/events/redis-backplane';
import { eventsRoutes } from './modules/events/routes';
import { createEventsService, type LiveContext } from './modules/events/service';
import { startLogMaintenance } from './modules/execution-logs/maintenance';
import { createExecutionLogsService } from './modules/execution-logs/service';
import { startLicenseExpiryWatch } from './modules/licenses/expiry';
import { licenseRoutes } from './modules/licenses/routes';
import { createLicensesService } from './modules/licenses/service';
import { monitorRoutes } from './modules/monitor/routes';
import { reportRoutes } from './modules/reports/routes';
import { createReportsService } from './modules/reports/service';
import { roleRoutes } from './modules/roles/routes';
import { createRolesService } from './modules/roles/service';
import { scheduleRoutes } from './modules/schedules/routes';
import { createSchedulesService } from './modules/schedules/service';
import { statusRoutes } from './modules/statuses/routes';
import { createStatusesService } from './modules/statuses/service';
import { taskRoutes } from './modules/tasks/routes';
import { createTasksService } from './modules/tasks/service';
import { tokenRoutes } from './modules/tokens/routes';
import { createTokensService } from './modules/tokens/service';
import { userRoutes } from './modules/users/routes';
import { createUsersService } from './modules/users/service';
import { webhookRoutes } from './modules/webhooks/routes';
import { createWebhookSender } from './modules/webhooks/sender';
import { createWebhooksService } from './modules/webhooks/service';
import { widgetRoutes } from './modules/widgets/routes';
import { createWidgetsService } from './modules/widgets/service';
import { workflowRoutes } from './modules/workflows/routes';
import { createWorkflowsService } from './modules/workflows/service';
import { registerAccessControl } from './platform/access';
import { registerAudit } from './platform/audit';
import { registerHealth } from './platform/database-health';
import { registerErrorHandling } from './platform/errors';
import { createLocalEventBus } from './platform/events';
import { createLogDestination, loggerSerializers, RequestLog, requestLogger } from './platform/logging';
import { createMailer } from './platform/mail';
import { registerOnRequest } from './platform/on-request';
import { registerOpenApi } from './platform/openapi';
import { openRedis } from './platform/redis';
import { createRedisEventBus, type RedisEventBus } from './platform/redis-event-bus';
import { setSecurityHeaders } from './platform/security-headers';
import { serializerCompiler } from './platform/serializers';
import { registerConsole } from './platform/static';
import { attachUpgradeHandler, createStompServer } from './platform/stomp/server';
import { continueInDatabaseScope, databaseScopeOf } from './platform/tenancy';
import { createUnitOfWork, deferUntilCommit } from './platform/unit-of-work';

export const VERSION = '0.1.0';

export type AppOptions = {
  config: Config;
  database: Database;
  logger?: FastifyServerOptions['logger'];
  /**
   * False only to measure what the audit log costs (bench/audit-cost.ts): routes run without their
   * transaction and record. Never from configuration: an installation always records.
   */
  recordAudit?: boolean;
};

export async function buildApp({ config, database, logger, recordAudit = true }: AppOptions) {
  const app = Fastify({
    logger: logger ?? { level: config.logLevel, serializers: loggerSerializers, stream: createLogDestination() },
    logController: new RequestLog(),
    childLoggerFactory: requestLogger,
    // Only a proxy the operator names may set the client address: sign-in throttling counts it.
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  let servesConsole = false;
  registerErrorHandling(app, { servesConsole: () => servesConsole });

  await app.register(formBody, { bodyLimit: 64 * 1024 });

  // The services' database: inside an audited route, that route's one transaction (docs/audit.md).
  const unit = createUnitOfWork(database.db);
  const { db } = unit;
  const mailer = createMailer({
    smtpUrl: config.smtpUrl,
    from: config.mailFrom,
    outboxDir: path.join(config.dataDir, 'mail'),
    log: app.log,
  });
  // One id per process: a restarted instance must never look like the one that died.
  const instanceId = randomUUID();
  const redis = config.redisUrl
    ? openRedis({ url: config.redisUrl, name: `opsdeck-${instanceId.slice(0, 8)}`, log: app.log })
    : undefined;
  // Bounded: the first presence snapshot should find Redis up, but start-up never waits on it.
  if (redis) await redis.whenReady(3_000);
  const redisOptions = redis && { redis, prefix: config.redisPrefix, instanceId, log: app.log };
  const bus = redisOptions ? createRedisEventBus(redisOptions) : createLocalEventBus(app.log);
  // What a service publishes inside a route's transaction goes out when it commits.
  const events = deferUntilCommit(bus, unit);
  const backplane = redisOptions
    ? createRedisBackplane({
        ...redisOptions,
        instanceTtlMs: config.liveInstanceTtlMs,
        sweepEveryMs: Math.max(100, Math.round(config.liveInstanceTtlMs / 3)),
      })
    : createLocalBackplane(instanceId);
  const auth = createAuthService({ db, config, mailer, log: app.log, events });
  const tokens = createTokensService({ db, events, log: app.log });
  // Webhooks (docs/webhooks.md): the areas write events to the outbox in their change's transaction;
  // the sender delivers them.
  const outbound = { allowLoopback: config.webhookAllowLoopback };
  const webhookSender = createWebhookSender({ db: database.db, events, log: app.log, outbound, mailer });
  const webhooks = createWebhooksService({
    db,
    events,
    outbound,
    afterCommit: unit.afterCommit,
    kick: webhookSender.kick,
  });
  const { outbox } = webhooks;
  const users = createUsersService({ db, events, outbox });
  const companies = createCompaniesService({ db, events });
  const departments = createDepartmentsService({ db, events });
  const roles = createRolesService({ db, events });
  const statuses = createStatusesService({ db });
  const tasks = createTasksService({ db });
  const schedules = createSchedulesService({ db });
  const activities = createActivitiesService({ db });
  const widgets = createWidgetsService({ db });
  // Licence files are signed with it (docs/licensing.md); made in DATA_DIR on first start.
  const signing = loadSigningKey({ pem: config.licenseSigningKey, dataDir: config.dataDir });
  const licenses = createLicensesService({ db, events, outbox });
  const accounts = createAccountsService({ db, signing, events, outbox });
  // license.expiring and license.expired, told to webhooks (docs/webhooks.md).
  const licenseExpiry = startLicenseExpiryWatch({ db: database.db, outbox, log: app.log });
  const workflows = createWorkflowsService({ db, events, outbox });
  const executionLogs = createExecutionLogsService({
    db,
    events,
    retentionDays: config.executionLogRetentionDays,
    outbox,
  });
  const reports = createReportsService({
    db,
    events,
    retentionDays: config.executionLogRetentionDays,
    log: app.log,
  });
  const activity = createActivityService({ db, log: app.log });
  // The keys connected on any instance, once the live channel is up (docs/monitor.md).
  let connectedAccounts = (): number[] => [];
  // Alert rules, their alerts and each person's notifications (docs/alerts.md).
  const alerts = createAlertsService({
    db,
    outbox,
    events,
    mailer,
    log: app.log,
    connectedAccounts: () => connectedAccounts(),
    unit,
  });
  const logMaintenance = startLogMaintenance({
    db,
    retentionDays: config.executionLogRetentionDays,
    log: app.log,
    activity: {
      retentionDays: config.activityRetentionDays,
      closeOrphans: (now) => activity.closeOrphans(connectedAccounts(), now),
    },
    audit: { retentionDays: config.auditRetentionDays },
  });

  const checkAccess = registerAccessControl(app, {
    appKeys: config.appKeys,
    resolveCaller: auth.resolveCaller,
    resolveBearer: tokens.resolveBearer,
    resolveTenant: auth.resolveTenant,
    openPrefixes: ['/api/docs', '/api/openapi.json', '/api/health'],
  });
  registerOnRequest(app, [setSecurityHeaders, checkAccess]);
  // The database's own wall (docs/tenancy.md): a company user's handler, and everything it starts,
  // sees that tenant's rows only. Set last before the handler, after the body is read (a stream's
  // callbacks would not carry it), so the handler's whole async chain inherits it.
  app.addHook('preHandler', (request, _reply, done) => {
    if (request.auth) continueInDatabaseScope(databaseScopeOf(request.auth), done);
    else done();
  });
  registerAudit(app, { unit, write: insertAuditEntries, record: recordAudit });
  const audit = createAuditService({ db });

  // The live channel (docs/live-channel.md): STOMP over the API's port, the rules in modules/events.
  const live = createEventsService({
    db,
    events,
    backplane,
    executions: executionLogs,
    activity,
    access: { appKeys: config.appKeys, resolveCaller: auth.resolveCaller, resolveTenant: auth.resolveTenant },
    agentSecret: config.agentSecret,
    audit: insertAuditEntries,
    outbox,
    sawAgent: alerts.sawAgent,
    notificationsByIds: alerts.notificationsByIds,
    log: app.log,
  });
  await live.start();
  connectedAccounts = live.connectedAccounts;
  activity.noteHeartBeats(live.localAgentsHeard);
  activity.keepTaskDays();
  const stomp = createStompServer<LiveContext>({ path: LIVE_PATH, handlers: live.handlers, log: app.log });
  attachUpgradeHandler(app.server, [stomp], app.log);
  // Sockets first, before the HTTP server closes (open WebSockets would keep it from closing): their
  // agents leave the presence. Then what carries the presence, Redis last.
  app.addHook('preClose', async () => {
    await stomp.close();
  });
  let stopAlertChecks = () => {};
  app.addHook('onReady', async () => {
    webhookSender.start();
    stopAlertChecks = startAlertChecks(alerts, app.log, config.alertCheckMs);
  });
  app.addHook('onClose', async () => {
    stopAlertChecks();
    licenseExpiry.stop();
    await webhookSender.stop();
    // The spans of the agents the closing sockets took away are closed before the database goes.
    await activity.stop();
    await logMaintenance.stop();
    live.stop();
    await backplane.close();
    await (bus as Partial<RedisEventBus>).close?.();
    await redis?.close();
  });
  await registerOpenApi(app, VERSION);

  registerHealth(app, database, VERSION, redis);

  await app.register(
    async (api) => {
      await api.register(authRoutes, { auth });
      await api.register(auditRoutes, { audit });
      await api.register(tokenRoutes, { tokens });
      await api.register(webhookRoutes, { webhooks });
      await api.register(alertRoutes, { alerts });
      await api.register(userRoutes, { users });
      await api.register(companyRoutes, { companies });
      await api.register(departmentRoutes, { departments });
      await api.register(roleRoutes, { roles });
      await api.register(statusRoutes, { statuses });
      await api.register(taskRoutes, { tasks });
      await api.register(scheduleRoutes, { schedules });
      await api.register(licenseRoutes, { signing, licenses });
      await api.register(accountRoutes, { accounts });
      await api.register(activityRoutes, { activities });
      await api.register(workflowRoutes, { workflows, maxUploadBytes: config.maxUploadBytes });
      await api.register(eventsRoutes, { live, workflows });
      await api.register(reportRoutes, { reports });
      await api.register(widgetRoutes, { widgets });
      await api.register(monitorRoutes, { db, connectedAccounts: () => connectedAccounts() });
    },
    { prefix: '/api' },
  );

  if (config.webDist) servesConsole = await registerConsole(app, config.webDist);

  return Object.assign(app, {
    services: {
      auth,
      users,
      companies,
      departments,
      roles,
      statuses,
      tasks,
      schedules,
      activities,
      mailer,
      events,
      live,
      backplane,
      executionLogs,
      activity,
      reports,
      logMaintenance,
      webhooks,
      webhookSender,
      licenseExpiry,
      alerts,
      /** The unit of work the services' database handle follows (tests that drive a service themselves). */
      unit,
    },
  });
}

export type App = Awaited<ReturnType<typeof buildApp>>;
