/** The whole database schema, as Drizzle and drizzle-kit see it. */
export * from './schema/activities';
export * from './schema/activity';
export * from './schema/api-tokens';
export * from './schema/audit';
export * from './schema/companies';
export * from './schema/departments';
export * from './schema/execution-logs';
export * from './schema/license-types';
export * from './schema/licenses';
export * from './schema/roles';
export * from './schema/schedules';
export * from './schema/statuses';
export * from './schema/tasks';
export * from './schema/users';
export * from './schema/webhooks';
export * from './schema/widgets';
export * from './schema/workflows';
