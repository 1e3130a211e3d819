// @ts-check
import { spawn } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
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

/** @type {Set<import('node:child_process').ChildProcess>} */
const children = new Set();
/** Directories to remove if the benchmark exits before its own cleanup ran. */
const leftovers = new Set();
let exitHooked = false;

function hookExit() {
  if (exitHooked) return;
  exitHooked = true;
  process.once('exit', () => {
    for (const each of children) if (each.exitCode === null && each.signalCode === null) each.kill('SIGKILL');
    for (const dir of leftovers) rmSync(dir, { recursive: true, force: true });
  });
  for (const [signal, code] of /** @type {const} */ ([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ])) {
    process.once(signal, () => process.exit(code));
  }
}

/**
 * Removes `dir` when this process exits, if it is still there (a Ctrl-C skips `finally` blocks).
 * @param {string} dir
 */
export function removeOnExit(dir) {
  hookExit();
  leftovers.add(dir);
  return dir;
}

/**
 * Kills `child` (SIGKILL) if it is still running when this process exits, whatever ends it: a
 * thrown error, `process.exit`, Ctrl-C or a SIGTERM (both then exit with 130/143). Answers the child.
 * @template {import('node:child_process').ChildProcess} T
 * @param {T} child
 * @returns {T}
 */
export function killOnExit(child) {
  children.add(child);
  child.once('exit', () => children.delete(child));
  hookExit();
  return child;
}

/**
 * A process's resident memory (VmRSS, VmHWM; bytes) and CPU time (user + system; seconds).
 * @param {number} pid
 */
export function processState(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (/** @type {string} */ field) =>
    Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) * 1024;
  // /proc/<pid>/stat: utime and stime are fields 14 and 15, counted after the ")" closing the name;
  // Linux counts them in clock ticks of 10 ms.
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const cpu = (Number(fields[11]) + Number(fields[12])) / 100;
  return { rss: kb('VmRSS'), hwm: kb('VmHWM'), cpu };
}

/**
 * Runs the Opsdeck server on a port and a data directory of its own (removed when it stops, unless
 * the caller named one); output discarded, or appended to `logFile`. `nodeArgs` go before the
 * script (`--cpu-prof`, `--max-old-space-size=…`). The server is killed if the benchmark exits
 * without stopping it.
 * @param {{ port: number, dataDir?: string, env?: Record<string, string>, nodeArgs?: string[], logFile?: string }} options
 */
export function startServer({ port, dataDir, env = {}, nodeArgs = [], logFile }) {
  const ownDir = dataDir === undefined;
  const dir = dataDir ?? removeOnExit(mkdtempSync(path.join(tmpdir(), 'opsdeck-bench-')));
  const log = logFile ? openSync(logFile, 'a') : 'ignore';
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: root,
    stdio: ['ignore', log, log],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dir,
      PUBLIC_URL: `http://localhost:${port}`,
      ...env,
    },
  });
  killOnExit(child);
  return {
    child,
    dataDir: dir,
    /**
     * SIGTERM, then SIGKILL if it has not exited within 15 s; resolves once it has (at once if it had).
     * @returns {Promise<void>}
     */
    stop: () =>
      new Promise((resolve) => {
        const done = () => {
          clearTimeout(kill);
          if (ownDir) rmSync(dir, { recursive: true, force: true });
          resolve();
        };
        const kill = setTimeout(() => child.kill('SIGKILL'), 15_000);
        if (child.exitCode !== null || child.signalCode !== null) return done();
        child.once('exit', done);
        child.kill('SIGTERM');
      }),
  };
}

/**
 * Runs `measure(label, env)` on each database `BENCH_BACKENDS` names (default both): PostgreSQL
 * in a database of its own on `BENCH_DATABASE_URL`'s server (default the machine's), dropped
 * afterwards; PGlite in a fresh data directory, removed afterwards. `env` is the server's.
 * `choice` overrides the environment (a benchmark's own `--backends` and `--server-url`), and
 * `keep` leaves the database or directory behind, said on the console, to measure again.
 * @param {string} name a word for the database's and the directory's names
 * @param {(label: string, env: Record<string, string>) => Promise<void>} measure
 * @param {{ backends?: string, serverUrl?: string, keep?: boolean }} [choice]
 */
export async function onEachBackend(name, measure, choice = {}) {
  const serverUrl = choice.serverUrl ?? process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const backends = (choice.backends ?? process.env.BENCH_BACKENDS ?? 'postgres,pglite').split(',');
  const unknown = backends.filter((backend) => backend !== 'postgres' && backend !== 'pglite');
  if (unknown.length) throw new Error(`unknown backend ${unknown.join(', ')}`);
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
      if (choice.keep) console.log(`  kept ${databaseUrl}`);
      else await client.query(`drop database if exists ${database} with (force)`);
      await client.end();
    }
  }
  if (backends.includes('pglite')) {
    const made = mkdtempSync(path.join(tmpdir(), `opsdeck-bench-${name}-`));
    const dataDir = choice.keep ? made : removeOnExit(made);
    try {
      await measure('PGlite', { DATA_DIR: dataDir });
    } finally {
      if (choice.keep) console.log(`  kept ${dataDir}`);
      else rmSync(dataDir, { recursive: true, force: true });
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

/**
 * Signs in at the server on `port` and answers the headers of that user's calls.
 * @param {number} port
 * @param {{ email: string, password: string }} user
 */
export async function signedInHeaders(port, user) {
  const login = await fetch(`http://127.0.0.1:${port}/api/login`, {
    method: 'POST',
    headers: { 'x-app-key': 'opsdeck-console', 'content-type': 'application/json' },
    body: JSON.stringify({ username: user.email, password: user.password }),
  });
  if (!login.ok) throw new Error(`login: ${login.status} ${await login.text()}`);
  const { token } = await login.json();
  return { 'x-app-key': 'opsdeck-console', 'x-auth-token': token, 'content-type': 'application/json' };
}

/**
 * One scenario of a list benchmark: first probes one request at a time until the server has
 * drained what a previous scenario left (a probe no faster than the one before, at most 10:
 * on PGlite one query runs at a time), then sends `rate` requests a second for `duration` seconds
 * over `connections` connections (10 unless said; a rate of hundreds needs more) and prints the page's total, p50, p99 and the rate kept. A failure (an
 * answer other than 2xx, or what `check` says of the first page) goes to `failures`.
 * @param {{ label: string, name: string, url: string, method?: 'GET' | 'POST', body?: string,
 *   headers: Record<string, string>, rate: number, duration: number, connections?: number,
 *   failures: string[], check?: (page: any) => string | null }} scenario
 */
export async function paceScenario({
  label,
  name,
  url,
  method = 'GET',
  body,
  headers,
  rate,
  duration,
  connections = 10,
  failures,
  check,
}) {
  const title = name.padEnd(44);
  const send = () => fetch(url, { method, headers, body });
  let probe = await send();
  let text = await probe.text();
  for (let previous = Number.POSITIVE_INFINITY, tries = 0; probe.ok && tries < 10; tries += 1) {
    const sent = performance.now();
    probe = await send();
    text = await probe.text();
    const took = performance.now() - sent;
    if (took >= previous * 0.8) break;
    previous = took;
  }
  if (!probe.ok) {
    failures.push(`${label}, ${name}: ${probe.status} ${text.slice(0, 200)}`);
    console.log(`  ${title} FAILED: ${probe.status} ${text.slice(0, 200)}`);
    return;
  }
  const page = JSON.parse(text);
  const wrong = check?.(page);
  if (wrong) failures.push(`${label}, ${name}: ${wrong}`);
  const result = await autocannon({ url, method, body, connections, overallRate: rate, duration, headers });
  const bad = result.non2xx + result.errors + result.timeouts;
  if (bad > 0) {
    failures.push(
      `${label}, ${name}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} ` +
        `timeouts (status codes ${JSON.stringify(result.statusCodeStats)})`,
    );
  }
  console.log(
    `  ${title} total ${String(page.total).padStart(6)}   ` +
      `p50 ${String(result.latency.p50).padStart(4)} ms   p99 ${String(result.latency.p99).padStart(4)} ms   ` +
      `${result.requests.average.toFixed(1)} req/s${bad > 0 ? `   FAILED: ${bad} not 2xx` : ''}`,
  );
}

/**
 * Sends `rate` requests a second to `url` (GET, or POST of `body`) for `seconds`, each on its
 * schedule (open loop), at most `inFlight` unanswered (a request due while that many wait is
 * skipped and counted). Latency runs from the scheduled start to the last byte of the answer; the
 * server's CPU (of `pid`, /proc) per answered request.
 * @param {{ url: string, body?: string, headers: Record<string, string>, rate: number, seconds: number, inFlight: number, pid: number }} load
 */
export async function openLoop({ url, body, headers, rate, seconds, inFlight, pid }) {
  const request = body === undefined ? { headers } : { method: 'POST', headers, body };
  /** @type {number[]} */
  const latencies = [];
  /** @type {Record<string, number>} */
  const statuses = {};
  let errors = 0;
  let skipped = 0;
  let waiting = 0;
  const total = Math.round(rate * seconds);
  const cpuBefore = processState(pid).cpu;
  const started = performance.now();
  /** @type {Promise<void>[]} */
  const pending = [];
  for (let i = 0; i < total; i += 1) {
    const due = started + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    if (waiting >= inFlight) {
      skipped += 1;
      continue;
    }
    waiting += 1;
    pending.push(
      fetch(url, { ...request, signal: AbortSignal.timeout(60_000) })
        .then(async (response) => {
          await response.arrayBuffer();
          latencies.push(performance.now() - due);
          if (!response.ok) statuses[response.status] = (statuses[response.status] ?? 0) + 1;
        })
        .catch(() => {
          errors += 1;
        })
        .finally(() => {
          waiting -= 1;
        }),
    );
  }
  await Promise.all(pending);
  const elapsed = (performance.now() - started) / 1000;
  const cpu = processState(pid).cpu - cpuBefore;
  latencies.sort((a, b) => a - b);
  return {
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
    max: latencies.at(-1) ?? 0,
    answered: latencies.length,
    skipped,
    errors,
    /** Answers other than 2xx, and how many of each status. */
    notOk: Object.values(statuses).reduce((sum, n) => sum + n, 0),
    statuses,
    rate: latencies.length / elapsed,
    cpuMs: latencies.length ? (cpu * 1000) / latencies.length : 0,
  };
}

/** The wall clock of `timeZone` at `at`: year, month, day, hour, minute. */
export function wallOf(/** @type {number} */ at, /** @type {string} */ timeZone) {
  /** @type {Record<string, number>} */
  const wall = {};
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
  });
  for (const part of format.formatToParts(at)) wall[part.type] = Number(part.value);
  return {
    year: wall.year ?? 0,
    month: wall.month ?? 1,
    day: wall.day ?? 1,
    hour: wall.hour ?? 0,
    minute: wall.minute ?? 0,
  };
}

/** The first millisecond of the day (or month) holding `at` in `timeZone`. */
export function startOf(/** @type {'day' | 'month'} */ unit, /** @type {number} */ at, /** @type {string} */ timeZone) {
  const today = wallOf(at, timeZone);
  const midnight = Date.UTC(today.year, today.month - 1, unit === 'month' ? 1 : today.day);
  // The zone's offset at that midnight, from a first guess (the offset then may differ from now's).
  let guess = midnight;
  for (let i = 0; i < 2; i += 1) {
    const wall = wallOf(guess, timeZone);
    guess -= Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute) - midnight;
  }
  return guess;
}

/** Servers (by pid) that openLoopScenario has warmed up. */
const warmedUp = new Set();

/**
 * One scenario of a list benchmark by `openLoop`: a warm-up request, then `rate` requests a second
 * for `duration` seconds, at most `connections` waiting; prints p50, p99, the rate answered and the
 * server's CPU time per answer (of `pid`), which a machine shared with other work distorts far less
 * than latency. An answer other than 2xx, or an error, goes to `failures`.
 * `body`, when given, is POSTed (a list read by POST, as the workflows table's).
 * @param {{ label: string, name: string, url: string, body?: string, headers: Record<string, string>, rate: number,
 *   duration: number, connections: number, pid: number, failures: string[] }} scenario
 */
export async function openLoopScenario({
  label,
  name,
  url,
  body,
  headers,
  rate,
  duration,
  connections,
  pid,
  failures,
}) {
  // The first scenario on a server would otherwise measure its JIT compiling the request path and
  // the client opening its connections: two seconds at the rate first, not measured.
  if (!warmedUp.has(pid)) {
    warmedUp.add(pid);
    await openLoop({ url, body, headers, rate, seconds: 2, inFlight: connections, pid });
  }
  const warm = await fetch(url, body === undefined ? { headers } : { method: 'POST', headers, body });
  const page = await warm.json();
  const result = await openLoop({ url, body, headers, rate, seconds: duration, inFlight: connections, pid });
  const bad = result.notOk + result.errors;
  if (!warm.ok || bad > 0) failures.push(`${label}, ${name}: ${warm.status}, ${bad} not 2xx or failed`);
  console.log(
    `  ${name.padEnd(44)} total ${String(page.total).padStart(6)}   p50 ${result.p50.toFixed(0).padStart(4)} ms   ` +
      `p99 ${result.p99.toFixed(0).padStart(5)} ms   ${result.rate.toFixed(1)} req/s   ` +
      `server CPU ${result.cpuMs.toFixed(2)} ms/answer${result.skipped ? `   ${result.skipped} skipped` : ''}` +
      `${bad > 0 ? `   FAILED: ${bad}` : ''}`,
  );
}

/** The answer to one GET (its JSON, else its text) and how long it took, in ms. */
export async function once(/** @type {string} */ url, /** @type {Record<string, string>} */ headers) {
  const started = performance.now();
  const response = await fetch(url, { headers });
  const text = await response.text();
  const ms = performance.now() - started;
  /** @type {any} */
  let body = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: response.status, body, ms };
}

/** Milliseconds as a table shows them: whole from 100, else one decimal. */
export const ms = (/** @type {number} */ value) => (value >= 100 ? value.toFixed(0) : value.toFixed(1));

/** The middle value (the upper of the two middle ones for an even count). */
export const median = (/** @type {number[]} */ values) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
