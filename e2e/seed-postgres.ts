// `node --import tsx e2e/seed-postgres.ts`, with DATABASE_URL and DATA_DIR: migrates DATABASE_URL's
// database and seeds it with the demo, as the server seeds its embedded database at its first start
// (on PostgreSQL the server itself never seeds the demo: apps/server/src/config.ts). The licence
// signing key the demo's sealed keys need is kept in DATA_DIR, as the server keeps it.
// Run by global-setup.ts for the browser tests on PostgreSQL (tests/postgres.ts).
import { prepareData } from '../apps/server/src/boot';
import { loadConfig } from '../apps/server/src/config';
import { openDatabase } from '../apps/server/src/db/client';

const config = { ...loadConfig(), demo: true };
if (!config.databaseUrl) throw new Error('seed-postgres.ts needs DATABASE_URL');
const database = await openDatabase({ kind: 'postgres', url: config.databaseUrl, poolSize: 2 });
try {
  const report = await prepareData(database, config);
  if (!report.seededDemo) throw new Error(`${config.databaseUrl} was not empty: the demo was not seeded`);
} finally {
  await database.close();
}
