/** The whole database schema, as Drizzle and drizzle-kit see it. */
export * from './schema/companies';
export * from './schema/departments';
export * from './schema/roles';
export * from './schema/users';
