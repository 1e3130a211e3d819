// What the audit record adds to a write (issue 19): two apps built in this process on one
// database, one as an installation runs (`recordAudit` true: the route's one transaction ending
// with its audit_log insert, the row read before and after where the route names one) and one
// without (`recordAudit: false`, apps/server/src/app.ts: the handler alone, for measuring only),
// each listening on a port of its own. A company with its head (bench/seed-lib.ts), who signs in;
// then `--n` (default 1,000) of each of these, one request at a time, after `--warmup` (50) not
// measured, the two apps interleaved request by request (which goes first alternating), so that
// whatever else the machine does hits both alike:
//
// - POST /api/user/register: a new user each time, with a role of the company (argon2 hashes the
//   password: ~16 ms of the request on a quiet machine, the same with and without);
// - PUT /api/usergroup/{id}: a role of the company renamed back and forth (the audited route reads
//   the role before and after, and records the name's change).
//
// Latency from the request's start to the last byte of its answer, on the client; printed per
// scenario and backend: p50/p95/p99 with and without, their differences, and the median of the
// paired differences (each request with the record less its partner without). Then checks that the
// audited app recorded every request of it and the other none.
//
//   node --import tsx bench/audit-cost.ts                       (PostgreSQL, a database of its own)
//   node --import tsx bench/audit-cost.ts --backend pglite      (or --backend postgres,pglite)
//   node --import tsx bench/audit-cost.ts --n 2000 --server-url postgres://postgres@127.0.0.1:5432/test
//
// The PostgreSQL database (`opsdeck_bench_auditcost_<time>` on `--server-url`'s server) and the
// PGlite directory are made fresh and removed afterwards (lib.mjs onEachBackend).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CONSOLE_APP_KEY, HEADERS } from '@opsdeck/contract/http';
import { sql } from 'drizzle-orm';
import { buildApp } from '../apps/server/src/app';
import { prepareData } from '../apps/server/src/boot';
import { loadConfig } from '../apps/server/src/config';
import { openDatabase, selectRows } from '../apps/server/src/db/client';
import { loadAverage, onEachBackend, percentile } from './lib.mjs';
import { seedCompanyWithHead, seedOptions } from './seed-lib';

const options = seedOptions(
  { n: 1_000, warmup: 50, backend: 'postgres', serverUrl: 'postgres://postgres@127.0.0.1:5432/postgres' },
  process.argv.slice(2),
);
const PASSWORD = 'Bench-Password-2026!x';
const HEAD = { firstName: 'Cost', lastName: 'Head', email: 'head@auditcost.bench.test', password: PASSWORD };

type Sample = { with: number[]; without: number[] };
const ms = (value: number) => (value >= 100 ? value.toFixed(0) : value.toFixed(2));
const median = (values: number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );

/** One call, its status checked; answers its time in ms and its JSON. */
async function timed(base: string, method: string, urlPath: string, token: string, body: unknown) {
  const started = performance.now();
  const response = await fetch(`${base}${urlPath}`, {
    method,
    headers: { [HEADERS.appKey]: CONSOLE_APP_KEY, [HEADERS.authToken]: token, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  const took = performance.now() - started;
  if (!response.ok) throw new Error(`${method} ${urlPath}: ${response.status} ${text.slice(0, 300)}`);
  return { took, answer: JSON.parse(text) as { id: number } };
}

/** @returns the rows of the table printed at the end */
async function measure(label: string, env: Record<string, string>) {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'opsdeck-auditcost-'));
  const config = loadConfig({
    DATA_DIR: env.DATA_DIR ?? dataDir,
    DATABASE_URL: env.DATABASE_URL ?? '',
    DEMO: '0',
    ADMIN_PASSWORD: 'bench-admin-password',
    LOG_LEVEL: 'silent',
  });
  const database = await openDatabase(
    config.databaseUrl
      ? { kind: 'postgres', url: config.databaseUrl }
      : { kind: 'pglite', dataDir: path.join(config.dataDir, 'db') },
  );
  await prepareData(database, config);
  const { tenantId } = await seedCompanyWithHead(database.db, { name: 'Audit Cost Ltd', industry: 'logistics' }, HEAD);
  const apps = {
    with: await buildApp({ config, database, logger: false, recordAudit: true }),
    without: await buildApp({ config, database, logger: false, recordAudit: false }),
  };
  const bases: Record<keyof typeof apps, string> = { with: '', without: '' };
  for (const key of ['with', 'without'] as const) {
    await apps[key].listen({ port: 0, host: '127.0.0.1' });
    const address = apps[key].server.address();
    bases[key] = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  }
  try {
    const login = await fetch(`${bases.without}/api/login`, {
      method: 'POST',
      headers: { [HEADERS.appKey]: CONSOLE_APP_KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ username: HEAD.email, password: HEAD.password }),
    });
    if (!login.ok) throw new Error(`login: ${login.status} ${await login.text()}`);
    const { token } = (await login.json()) as { token: string };
    // The role new users get, and the role renamed back and forth (no authorities: the head may give it).
    const staff = (await timed(bases.without, 'POST', '/api/usergroup', token, { name: 'Bench staff' })).answer.id;
    const renamed = (await timed(bases.without, 'POST', '/api/usergroup', token, { name: 'Bench role A' })).answer.id;
    const [{ before } = { before: 0 }] = await selectRows<{ before: number }>(
      database.db,
      sql`select count(*)::int as before from audit_log`,
    );

    let users = 0;
    let renames = 0;
    const register = (key: keyof typeof apps) => {
      users += 1;
      return timed(bases[key], 'POST', '/api/user/register', token, {
        firstName: 'Bench',
        lastName: `User ${users}`,
        emailAddress: `user${users}-${key}@auditcost.bench.test`,
        credential: { newPassword: PASSWORD, confirmPassword: PASSWORD },
        groups: [staff],
      });
    };
    const update = (key: keyof typeof apps) => {
      renames += 1;
      return timed(bases[key], 'PUT', `/api/usergroup/${renamed}`, token, {
        name: renames % 2 ? 'Bench role B' : 'Bench role A',
        newAuthorityName: [],
      });
    };
    const scenarios = {
      'user creation (POST /api/user/register)': register,
      'role update (PUT /api/usergroup/{id})': update,
    };
    const samples: Record<string, Sample> = {};
    for (const name of Object.keys(scenarios)) samples[name] = { with: [], without: [] };
    const loadBefore = loadAverage();
    const started = performance.now();
    for (let i = 0; i < options.warmup + options.n; i += 1) {
      // Which app goes first alternates; so does which scenario.
      const order = i % 2 ? (['with', 'without'] as const) : (['without', 'with'] as const);
      const names = Object.keys(scenarios) as (keyof typeof scenarios)[];
      for (const name of i % 4 < 2 ? names : names.reverse()) {
        for (const key of order) {
          const { took } = await scenarios[name](key);
          if (i >= options.warmup) samples[name]![key].push(took);
        }
      }
    }
    const seconds = (performance.now() - started) / 1000;
    const [{ recorded } = { recorded: 0 }] = await selectRows<{ recorded: number }>(
      database.db,
      sql`select count(*)::int as recorded from audit_log where tenant_id = ${tenantId}::uuid
        and action in ('user.create', 'role.update')`,
    );
    const expected = 2 * (options.warmup + options.n);
    const [{ total } = { total: 0 }] = await selectRows<{ total: number }>(
      database.db,
      sql`select count(*)::int as total from audit_log`,
    );
    console.log(
      `\n${label}: ${options.n} of each (after ${options.warmup} not measured) with and without, interleaved, in ` +
        `${seconds.toFixed(0)} s; load average ${loadBefore} before, ${loadAverage()} after; ` +
        `records written by the run: ${total - before} (${recorded} user.create/role.update of the company; ` +
        `expected ${expected} from the audited app, none from the other)` +
        (recorded === expected ? '' : '  MISMATCH'),
    );
    if (recorded !== expected) process.exitCode = 1;
    const rows: string[][] = [
      [
        'scenario',
        'p50 without',
        'p50 with',
        'Δ p50',
        'p95 without',
        'p95 with',
        'Δ p95',
        'p99 without',
        'p99 with',
        'Δ p99',
        'paired Δ median',
      ],
    ];
    for (const [name, sample] of Object.entries(samples)) {
      const without = [...sample.without].sort((a, b) => a - b);
      const withRecord = [...sample.with].sort((a, b) => a - b);
      const paired = sample.with.map((value, i) => value - (sample.without[i] ?? 0));
      const at = (p: number) => [percentile(without, p), percentile(withRecord, p)] as const;
      const cells = [50, 95, 99].flatMap((p) => {
        const [a, b] = at(p);
        return [ms(a), ms(b), `${b - a >= 0 ? '+' : ''}${ms(b - a)}`];
      });
      rows.push([name, ...cells, `${median(paired) >= 0 ? '+' : ''}${ms(median(paired))}`]);
    }
    const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
    for (const row of rows) console.log(`  ${row.map((cell, column) => cell.padStart(widths[column]!)).join('  ')}`);
  } finally {
    await apps.with.close();
    await apps.without.close();
    await database.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

console.log(`audit cost: ${options.backend}, n ${options.n}; load average ${loadAverage()}`);
await onEachBackend('auditcost', measure, { backends: options.backend, serverUrl: options.serverUrl });
