// SIGKILL during uploads (issue 18; docs/performance.md, "Faults (issue 18)"): the server, a child
// process as `npm start` runs it, killed BENCH_KILLS times (50) in the middle of `.rax` uploads,
// new versions and zip downloads, each kill followed by a restart on the same data; then the
// invariants read straight from the database (apps/server/test/sigkill-uploads.ts says which).
// Prints each round, the restart times (median, worst) and every invariant; exits 1 when one is
// broken. BENCH_BACKENDS=pglite (the default), postgres (a fresh database on BENCH_DATABASE_URL's
// server, default the machine's, dropped afterwards) or both; BENCH_SEED replays a run;
// BENCH_RESOURCE_MB the incompressible part of each file (2).
// `node --import tsx bench/fault-sigkill-uploads.ts`
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import pg from 'pg';
import { type Backend, runSigkillFaults, violations } from '../apps/server/test/sigkill-uploads';

const kills = Number(process.env.BENCH_KILLS ?? 50);
const backends = (process.env.BENCH_BACKENDS ?? 'pglite').split(',');
const serverUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const resourceBytes = Math.round(Number(process.env.BENCH_RESOURCE_MB ?? 2) * 1024 * 1024);

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};

/** A fresh database on the PostgreSQL server, and how to drop it. */
async function freshDatabase() {
  const name = `opsdeck_faults_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const dropper = new pg.Client({ connectionString: serverUrl });
      await dropper.connect();
      await dropper.query(`drop database if exists ${name} with (force)`);
      await dropper.end();
    },
  };
}

let failed = false;
console.log(
  `${new Date().toISOString()}; load average ${loadavg()
    .map((n) => n.toFixed(2))
    .join(' ')}`,
);
for (const kind of backends) {
  if (kind !== 'pglite' && kind !== 'postgres') throw new Error(`unknown backend ${kind}`);
  const database = kind === 'postgres' ? await freshDatabase() : undefined;
  const backend: Backend = database ? { kind: 'postgres', url: database.url } : { kind: 'pglite' };
  const started = Date.now();
  try {
    const result = await runSigkillFaults({
      kills,
      resourceBytes,
      ...(process.env.BENCH_SEED ? { seed: Number(process.env.BENCH_SEED) } : {}),
      backend,
      log: (line) => console.log(`  ${kind}: ${line}`),
    });
    const restarts = result.kills.map((kill) => kill.restartMs);
    const byMode = (mode: string) => result.kills.filter((kill) => kill.mode === mode);
    const uploads = result.kills.filter((kill) => kill.mode !== 'download');
    console.log(
      `\n${kind}: ${result.kills.length} kills in ${((Date.now() - started) / 1000).toFixed(0)} s (seed ${result.seed})`,
    );
    console.log(
      `  kills: ${byMode('create').length} during uploads, ${byMode('version').length} during new versions, ${byMode('download').length} during zip downloads;` +
        ` ${uploads.filter((kill) => kill.at.startsWith('body')).length} while the body crossed, ${uploads.filter((kill) => kill.at.startsWith('after')).length} after it` +
        ` (${uploads.filter((kill) => kill.answered).length} answered before the kill); ${uploads.filter((kill) => kill.stored).length} uploads stored whole, the others not at all`,
    );
    console.log(
      `  restarts: ${restarts.length}, every one answered /api/health; median ${(median(restarts) / 1000).toFixed(1)} s, worst ${(Math.max(...restarts) / 1000).toFixed(1)} s (first start ${(result.firstStartMs / 1000).toFixed(1)} s)`,
    );
    console.log(
      `  at the end: ${result.counts.workflows} workflows, ${result.counts.versions} versions, ${result.counts.blobs} blobs`,
    );
    console.log(
      `  invariants: ${Object.entries(result.invariants)
        .map(([name, value]) => `${name} ${value}`)
        .join(', ')}`,
    );
    const broken = violations(result);
    if (broken.length > 0) {
      failed = true;
      console.log(`  BROKEN: ${broken.join('; ')}`);
    } else console.log('  lost: nothing');
  } finally {
    await database?.drop();
  }
}
console.log(
  `load average ${loadavg()
    .map((n) => n.toFixed(2))
    .join(' ')}`,
);
process.exit(failed ? 1 : 0);
