// @ts-check
// The users list with 100,000 users in one company: a page of 10, sorted and searched, at a
// fixed request rate (autocannon's overallRate), on PostgreSQL and on the embedded PGlite.
// Reports p50/p99 latency. `node bench/users-list.mjs` (BENCH_USERS, BENCH_RATE, BENCH_SECONDS,
// BENCH_DATABASE_URL to change the defaults).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { root, startServer, waitFor } from './lib.mjs';

const usersCount = Number(process.env.BENCH_USERS ?? 100_000);
const rate = Number(process.env.BENCH_RATE ?? 20);
const duration = Number(process.env.BENCH_SECONDS ?? 20);
const serverUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const port = 8293;
const head = { email: 'head@bench.test', password: 'bench-password' };

const SCENARIOS = [
  { name: 'page 1, sorted by name', query: 'page=1&size=10&sort=fullName,asc' },
  { name: 'page 500, sorted by e-mail desc', query: 'page=500&size=10&sort=email,desc' },
  { name: 'searched "ander", sorted by name', query: 'page=1&size=10&sort=fullName,asc&search=ander' },
  { name: 'searched "ander", page 50, by department', query: 'page=50&size=10&sort=department,asc&search=ander' },
  { name: 'searched, no match', query: 'page=1&size=10&sort=fullName,asc&search=zzzz' },
  { name: 'searched "an" (most users), by name', query: 'page=1&size=10&sort=fullName,asc&search=an' },
  { name: 'page 500, sorted by role', query: 'page=500&size=10&sort=role,asc' },
];

/** @param {Record<string, string>} env */
function seed(env) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'bench/seed-users.ts'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, BENCH_USERS: String(usersCount), ...env },
  });
  if (result.status !== 0) throw new Error('seeding failed');
}

/**
 * @param {string} label
 * @param {Record<string, string>} env
 */
async function measureBackend(label, env) {
  seed(env);
  const server = startServer({ port, env: { ...env, DEMO: '0', LOG_LEVEL: 'warn', ADMIN_PASSWORD: 'bench-admin' } });
  try {
    await waitFor(`http://127.0.0.1:${port}/api/health`);
    const headers = { 'x-app-key': 'opsdeck-console', 'content-type': 'application/json' };
    const login = await fetch(`http://127.0.0.1:${port}/api/login`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ username: head.email, password: head.password }),
    });
    const { token } = await login.json();
    const auth = { 'x-app-key': 'opsdeck-console', 'x-auth-token': token };
    console.log(`\n${label}: ${usersCount} users, ${rate} req/s for ${duration} s, 10 connections`);
    for (const scenario of SCENARIOS) {
      const url = `http://127.0.0.1:${port}/api/user/get-user-list?${scenario.query}`;
      const probe = await fetch(url, { headers: auth });
      const body = await probe.json();
      if (!probe.ok) throw new Error(`${url}: ${probe.status} ${JSON.stringify(body)}`);
      const result = await autocannon({ url, connections: 10, overallRate: rate, duration, headers: auth });
      if (result.non2xx > 0) throw new Error(`${scenario.name}: ${result.non2xx} non-2xx answers`);
      console.log(
        `  ${scenario.name.padEnd(42)} total ${String(body.total).padStart(6)}   ` +
          `p50 ${String(result.latency.p50).padStart(4)} ms   p99 ${String(result.latency.p99).padStart(4)} ms   ` +
          `${result.requests.average.toFixed(1)} req/s`,
      );
    }
  } finally {
    await server.stop();
  }
}

// PostgreSQL: a database of its own on the machine's server, dropped afterwards.
const name = `opsdeck_bench_${Date.now()}`;
const admin = new pg.Client({ connectionString: serverUrl });
await admin.connect();
await admin.query(`create database ${name}`);
const databaseUrl = new URL(serverUrl);
databaseUrl.pathname = `/${name}`;
try {
  await measureBackend('PostgreSQL', { DATABASE_URL: databaseUrl.toString() });
} finally {
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.end();
}

// PGlite: a fresh data directory, seeded before the server opens it (one process at a time).
const pgliteDir = mkdtempSync(path.join(tmpdir(), 'opsdeck-bench-users-'));
try {
  await measureBackend('PGlite', { DATA_DIR: pgliteDir });
} finally {
  rmSync(pgliteDir, { recursive: true, force: true });
}
