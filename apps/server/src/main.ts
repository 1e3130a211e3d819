import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEMO_AGENT_SECRET } from '@opsdeck/contract/live';
import { buildApp } from './app';
import { prepareData } from './boot';
import { loadConfig } from './config';
import { openDatabaseWhenReachable } from './db/client';
import { databaseFailureReason, isDatabaseUnavailable } from './platform/database-errors';

const config = loadConfig();
config.webDist ??= path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/dist');

const database = await openDatabaseWhenReachable(
  config.databaseUrl
    ? { kind: 'postgres', url: config.databaseUrl }
    : { kind: 'pglite', dataDir: path.join(config.dataDir, 'db') },
  (reason) => process.stderr.write(`database not reachable (${reason}); trying again in 2 s\n`),
);
const report = await prepareData(database, config);
const app = await buildApp({ config, database });

// The database going away must not end the server (issue 7): a driver's promise that nobody awaits
// is logged, not fatal; so is a connection error thrown outside any request. Any other uncaught
// exception leaves the process in an unknown state: log it and exit, as Node would.
process.on('unhandledRejection', (reason) => app.log.error({ err: reason }, 'unhandled promise rejection'));
process.on('uncaughtException', (error) => {
  if (isDatabaseUnavailable(error))
    return app.log.warn({ reason: databaseFailureReason(error) }, 'database connection lost');
  app.log.fatal({ err: error }, 'uncaught exception');
  process.exit(1);
});

const shutdown = async (signal: string) => {
  app.log.info({ signal }, 'shutting down');
  await app.close();
  await database.close();
  process.exit(0);
};
process.once('SIGINT', () => void shutdown('SIGINT'));
process.once('SIGTERM', () => void shutdown('SIGTERM'));

await app.listen({ port: config.port, host: config.host });
await app.services.auth.pruneExpiredSessions();

const lines = [
  '',
  `  Opsdeck is listening on port ${config.port}; the console's address is ${config.publicUrl} (PUBLIC_URL)`,
  `  database: ${database.kind === 'pglite' ? `embedded (PGlite) in ${path.join(config.dataDir, 'db')}` : 'PostgreSQL (DATABASE_URL)'}`,
  `  mail: ${app.services.mailer.describe()}`,
  `  live channel: ${config.publicUrl.replace(/^http/, 'ws')}/api/live; ${
    config.redisUrl
      ? `shared with other instances through Redis (prefix ${config.redisPrefix})`
      : 'this instance only (no REDIS_URL)'
  }`,
  config.agentSecret
    ? `  agents: accepted with their licence key and the agent secret${config.databaseUrl ? ' (AGENT_SECRET)' : ` (demo default ${config.agentSecret === DEMO_AGENT_SECRET ? DEMO_AGENT_SECRET : 'AGENT_SECRET'})`}`
    : '  agents: refused until AGENT_SECRET is set (DATABASE_URL has no default agent secret)',
];
// The password only when the server chose it: never an ADMIN_PASSWORD the operator set (docs/security.md).
if (report.admin.created) {
  const { admin } = report;
  lines.push(
    admin.source === 'given'
      ? `  provider admin: ${config.adminEmail} (password: ADMIN_PASSWORD)`
      : `  provider admin: ${config.adminEmail} / ${admin.password}${admin.source === 'generated' ? '  (generated: shown only this once)' : ''}`,
  );
} else if (config.demo && !config.adminPassword) {
  lines.push(`  provider admin: ${config.adminEmail} (demo password: opsdeck-demo unless changed)`);
}
if (report.seededDemo)
  lines.push('  demo data seeded: three companies; every demo account uses the password opsdeck-demo');
// The banner goes to stdout as plain text, apart from the JSON log lines.
process.stdout.write(`${lines.join('\n')}\n\n`);
