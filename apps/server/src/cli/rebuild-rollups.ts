import path from 'node:path';
import { loadConfig } from '../config';
import { openDatabase } from '../db/client';
import { rebuildRollups } from '../modules/execution-logs/rollups';

/**
 * `npm run rebuild-rollups`: sums the report rollups again from the execution logs and queued runs
 * that remain (docs/reports.md). On PostgreSQL it may run beside the servers (new logs wait for it);
 * the embedded database belongs to one process, so stop the server first.
 */
const config = loadConfig();
const database = await openDatabase(
  config.databaseUrl
    ? { kind: 'postgres', url: config.databaseUrl }
    : { kind: 'pglite', dataDir: path.join(config.dataDir, 'db') },
);
try {
  const started = Date.now();
  const result = await rebuildRollups(database.db);
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  process.stdout.write(
    result.from === null
      ? 'No execution logs or queued runs: nothing to rebuild.\n'
      : `Rollups rebuilt from ${new Date(result.from).toISOString()} on: ${result.logs} logs, ${result.queuedRuns} queued runs, in ${seconds} s.\n`,
  );
} finally {
  await database.close();
}
