// @ts-check
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * @param {string} url
 * @param {number} [timeoutMs]
 */
export async function waitFor(url, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

/**
 * Runs the Opsdeck server on a port and a data directory of its own (removed when it stops, unless
 * the caller named one); output discarded.
 * @param {{ port: number, dataDir?: string, env?: Record<string, string> }} options
 */
export function startServer({ port, dataDir, env = {} }) {
  const ownDir = dataDir === undefined;
  const dir = dataDir ?? mkdtempSync(path.join(tmpdir(), 'opsdeck-bench-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: root,
    stdio: 'ignore',
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dir,
      PUBLIC_URL: `http://localhost:${port}`,
      ...env,
    },
  });
  return {
    child,
    dataDir: dir,
    /** @returns {Promise<void>} */
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => {
          if (ownDir) rmSync(dir, { recursive: true, force: true });
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}

/**
 * Runs `measure(label, env)` on each database `BENCH_BACKENDS` names (default both): PostgreSQL
 * in a database of its own on `BENCH_DATABASE_URL`'s server (default the machine's), dropped
 * afterwards; PGlite in a fresh data directory, removed afterwards. `env` is the server's.
 * @param {string} name a word for the database's and the directory's names
 * @param {(label: string, env: Record<string, string>) => Promise<void>} measure
 */
export async function onEachBackend(name, measure) {
  const serverUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const backends = (process.env.BENCH_BACKENDS ?? 'postgres,pglite').split(',');
  if (backends.includes('postgres')) {
    const database = `opsdeck_bench_${name}_${Date.now()}`;
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    await client.query(`create database ${database}`);
    const databaseUrl = new URL(serverUrl);
    databaseUrl.pathname = `/${database}`;
    try {
      await measure('PostgreSQL', { DATABASE_URL: databaseUrl.toString() });
    } finally {
      await client.query(`drop database if exists ${database} with (force)`);
      await client.end();
    }
  }
  if (backends.includes('pglite')) {
    const dataDir = mkdtempSync(path.join(tmpdir(), `opsdeck-bench-${name}-`));
    try {
      await measure('PGlite', { DATA_DIR: dataDir });
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
}

/**
 * The API as the benchmarks call it, at `base` (`http://127.0.0.1:<port>`): `call` answers the
 * status and the JSON body (or the text); `expect` a call that must answer `status`, anything
 * else ending the run.
 * @param {string} base
 */
export function apiClient(base) {
  /**
   * @param {string} method
   * @param {string} path
   * @param {{ token?: string, tenantId?: string, body?: unknown, form?: FormData }} [options]
   * @returns {Promise<{ status: number, body: any }>}
   */
  async function call(method, path, { token, tenantId, body, form } = {}) {
    /** @type {Record<string, string>} */
    const headers = { 'x-app-key': 'opsdeck-console' };
    if (token) headers['x-auth-token'] = token;
    if (tenantId) headers['x-tenant-id'] = tenantId;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${base}${path}`, {
      method,
      headers,
      body: form ?? (body === undefined ? undefined : JSON.stringify(body)),
    });
    const text = await response.text();
    let parsed = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON (the console's HTML for an unknown route): keep the text
    }
    return { status: response.status, body: parsed };
  }

  /**
   * @param {number} status
   * @param {string} method
   * @param {string} path
   * @param {{ token?: string, tenantId?: string, body?: unknown, form?: FormData }} [options]
   */
  async function expect(status, method, path, options) {
    const answer = await call(method, path, options);
    if (answer.status !== status) {
      throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`);
    }
    return answer.body;
  }

  return { call, expect };
}

/** @param {number[]} sorted @param {number} p */
export const percentile = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;

/** The machine's load averages, as the figures record them. */
export const loadAverage = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
