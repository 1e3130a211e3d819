// @ts-check
// What the live-channel benchmarks (live-sessions, live-latency, live-fanout, report-ingest,
// activity-ingest) share: the seed, the server with its agent secret, the client processes
// (live-worker.mjs and the ingest workers) and their messages, and an ingest round measured.
import { fork, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { killOnExit, loadAverage, percentile, processState, root } from './lib.mjs';
import { connectStomp } from './live-stomp.mjs';

/** The server's agent secret, set explicitly (the embedded demo's default would do too). */
export const AGENT_SECRET = 'opsdeck-bench-agent-secret';
export const HEAD_PASSWORD = 'bench-password';

/** The server's environment for a live benchmark: no demo agents, a quiet log, our agent secret. */
export const serverEnv = (/** @type {Record<string, string>} */ env) => ({
  ...env,
  DEMO: '0',
  LOG_LEVEL: 'warn',
  ADMIN_PASSWORD: 'bench-admin',
  AGENT_SECRET,
});

/**
 * The server's node options: BENCH_CPU_PROF=<directory> writes a CPU profile of the whole run
 * there (`node --cpu-prof`), to open in Chrome's DevTools or read with a script.
 */
export const serverNodeArgs = () =>
  process.env.BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_CPU_PROF] : [];

/**
 * `--name value` options of the command line, with defaults (numbers stay numbers, a list of
 * numbers `1000,10000` becomes an array).
 * @template {Record<string, number | number[] | string>} T
 * @param {T} defaults
 * @returns {T}
 */
export function options(defaults) {
  /** @type {Record<string, number | number[] | string>} */
  const result = { ...defaults };
  const args = process.argv.slice(2);
  for (let i = 0; i < args.length; i += 1) {
    const match = /^--([a-z-]+)(?:=(.*))?$/.exec(args[i] ?? '');
    if (!match) throw new Error(`unknown argument ${args[i]}`);
    const name = (match[1] ?? '').replace(/-([a-z])/g, (_, c) => c.toUpperCase());
    if (!(name in defaults)) throw new Error(`unknown option --${match[1]} (${Object.keys(defaults).join(', ')})`);
    const value = match[2] ?? args[++i] ?? '';
    const fallback = defaults[name];
    result[name] = Array.isArray(fallback)
      ? value.split(',').map(Number)
      : typeof fallback === 'number'
        ? Number(value)
        : value;
  }
  return /** @type {T} */ (result);
}

/**
 * Seeds the database of `env` (bench/seed-live.ts) and answers what the agents and consoles need:
 * the companies (tenant id, head's e-mail and password) and the full keys with their MAC address.
 * @param {Record<string, string>} env
 * @param {{ companies: number, keys: number, workflows?: number }} counts
 * @returns {{ companies: { tenantId: string, name: string, email: string, password: string }[],
 *   agents: { key: string, mac: string, company: number, index: number }[] }}
 */
export function seedLive(env, counts) {
  const dir = mkdtempSync(path.join(tmpdir(), 'opsdeck-live-keys-'));
  const keysFile = path.join(dir, 'keys.json');
  try {
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'bench/seed-live.ts'], {
      cwd: root,
      stdio: 'inherit',
      env: {
        ...process.env,
        ...env,
        BENCH_COMPANIES: String(counts.companies),
        BENCH_KEYS: String(counts.keys),
        BENCH_WORKFLOWS_PER_COMPANY: String(counts.workflows ?? 10),
        BENCH_HEAD_PASSWORD: HEAD_PASSWORD,
        BENCH_KEYS_FILE: keysFile,
      },
    });
    if (result.status !== 0) throw new Error('seeding failed');
    const seeded = JSON.parse(readFileSync(keysFile, 'utf8'));
    seeded.agents = seeded.agents.map((/** @type {any} */ agent, /** @type {number} */ index) => ({ ...agent, index }));
    return seeded;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export const liveUrl = (/** @type {number} */ port) => `ws://127.0.0.1:${port}/api/live`;

/** A console's CONNECT headers (docs/live-channel.md, "Consoles"). */
export const consoleHeaders = (/** @type {string} */ token) => ({
  'X-App-Key': 'opsdeck-console',
  'X-Auth-Token': token,
  platform: 'console',
});

/**
 * A client process (`file`, by default bench/live-worker.mjs; the ingest benchmarks' workers
 * speak the same messages), killed if the benchmark exits first. `next(type)` resolves with its
 * next message of that type (a `failed` message rejects); `on(type, handler)` sees every one.
 */
export function startWorker(file = 'bench/live-worker.mjs') {
  const child = killOnExit(fork(path.join(root, file), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }));
  /** @type {Map<string, ((message: any) => void)[]>} */
  const waiting = new Map();
  /** @type {Map<string, (message: any) => void>} */
  const handlers = new Map();
  /** @type {((error: Error) => void)[]} */
  const failing = [];
  child.on('message', (/** @type {any} */ message) => {
    if (message.type === 'failed') {
      for (const reject of failing.splice(0)) reject(new Error(`worker: ${message.message}`));
      return;
    }
    handlers.get(message.type)?.(message);
    const queue = waiting.get(message.type);
    const resolve = queue?.shift();
    resolve?.(message);
  });
  child.on('exit', (code) => {
    for (const reject of failing.splice(0)) reject(new Error(`worker exited (${code})`));
  });
  return {
    child,
    /** @param {any} task */
    tell: (task) => child.send(task),
    /** @param {string} type @returns {Promise<any>} */
    next: (type) =>
      new Promise((resolve, reject) => {
        if (!waiting.has(type)) waiting.set(type, []);
        waiting.get(type)?.push(resolve);
        failing.push(reject);
      }),
    /** @param {string} type @param {(message: any) => void} handler */
    on: (type, handler) => handlers.set(type, handler),
    /** Closes its connections and waits for it to exit. */
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null || !child.connected) {
          child.kill('SIGKILL');
          return resolve(undefined);
        }
        const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
        child.once('exit', () => {
          clearTimeout(kill);
          resolve(undefined);
        });
        child.send({ type: 'stop' });
      }),
  };
}

/** @typedef {ReturnType<typeof startWorker>} Worker */

/** Busy and total jiffies of the whole machine (/proc/stat's first line). */
export function machineCpu() {
  const fields = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '').trim().split(/\s+/).slice(1).map(Number);
  const idle = (fields[3] ?? 0) + (fields[4] ?? 0);
  const total = fields.reduce((sum, value) => sum + value, 0);
  return { busy: total - idle, total };
}

/**
 * CPU seconds of the PostgreSQL backends serving `database` (their command line names it), by pid:
 * where the database's share of the machine goes.
 * @param {string} database
 */
export function backendsCpu(database) {
  /** @type {Map<number, number>} */
  const cpu = new Map();
  if (!database) return cpu;
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    try {
      const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (command.startsWith('postgres:') && command.includes(` ${database} `)) cpu.set(pid, processState(pid).cpu);
    } catch {
      // gone meanwhile
    }
  }
  return cpu;
}

/**
 * Splits `items` into `parts` nearly equal slices, in order.
 * @template T
 * @param {T[]} items
 * @param {number} parts
 * @returns {T[][]}
 */
export function split(items, parts) {
  const size = Math.ceil(items.length / parts);
  return Array.from({ length: parts }, (_, i) => items.slice(i * size, (i + 1) * size)).filter((part) => part.length);
}

/** The server's resident memory in MiB. */
export const rssMiB = (/** @type {number} */ pid) => processState(pid).rss / 1024 / 1024;

/**
 * Waits until the live channel at `url` takes a CONNECT (any answer, even a refusal, means the
 * STOMP server is there); throws if it does not within `timeoutMs`.
 * @param {string} url
 */
export async function waitForLive(url, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const connection = await connectStomp(url, { 'X-App-Key': 'opsdeck-console', platform: 'console' });
      connection.close();
      return;
    } catch (error) {
      const key = /** @type {{ key?: string }} */ (error).key;
      if (key?.startsWith('ERROR_')) return;
      if (Date.now() > deadline)
        throw new Error(`${url} did not answer STOMP: ${/** @type {Error} */ (error).message}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}

/** A table of rows of cells, the first row its header, columns padded (numbers right-aligned). */
export function table(/** @type {(string | number)[][]} */ rows) {
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => String(row[column] ?? '').length))) ?? [];
  return rows
    .map((row) =>
      row
        .map((cell, column) =>
          typeof cell === 'number'
            ? String(cell).padStart(widths[column] ?? 0)
            : String(cell).padEnd(widths[column] ?? 0),
        )
        .join('  '),
    )
    .join('\n');
}

/**
 * Runs a command of a bench/*-sql.ts script (`node --import tsx <script> <command>`) on the
 * database of `env` (on PGlite, with no server holding the directory) and answers the JSON of its
 * last line of output.
 * @param {string} script
 * @param {string} command
 * @param {Record<string, string>} env
 */
export function benchSql(script, command, env) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', script, command], {
    cwd: root,
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`${script} ${command} failed:\n${result.stderr}`);
  return JSON.parse(result.stdout.trim().split('\n').at(-1) ?? '{}');
}

/**
 * One measured round of an ingest benchmark (report-ingest, activity-ingest) against a server that
 * is up: `workers` client processes (`script`, speaking live-worker.mjs's messages) connect the
 * `agents` between them, then each runs `run` (its `run` message) until it reports `done`. While
 * they run, what they have had receipted (their `progress` messages' `counted` field) is read each
 * second. The workers are stopped before this returns, so their agents have left (and the server
 * has seen them go) when the caller stops the server. `env` is the server's (its DATABASE_URL names
 * the database whose backends' CPU is counted).
 * @param {{ script: string, counted: string, port: number, workers: number, agents: any[], run: Record<string, unknown>, pid: number, env: Record<string, string> }} round
 */
export async function ingestRound({ script, counted, port, workers: count, agents, run, pid, env }) {
  const database = env.DATABASE_URL ? new URL(env.DATABASE_URL).pathname.slice(1) : '';
  /** @type {(Worker & { receipts: () => number })[]} */
  const workers = [];
  try {
    for (let i = 0; i < count; i += 1) {
      const worker = startWorker(script);
      let receipts = 0;
      worker.on('progress', (/** @type {any} */ message) => {
        receipts = message[counted];
      });
      workers.push({ ...worker, receipts: () => receipts });
    }
    const slices = split(agents, workers.length);
    const connections = await Promise.all(
      workers.map((worker, i) => {
        const done = worker.next('connected');
        worker.tell({
          type: 'agents',
          url: liveUrl(port),
          secret: AGENT_SECRET,
          agents: slices[i] ?? [],
          concurrency: 50,
        });
        return done;
      }),
    );
    const connected = connections.reduce((sum, each) => sum + each.connected, 0);
    const failedConnects = connections.reduce((sum, each) => sum + each.failed, 0);
    console.log(`  ${connected} agents connected${failedConnects ? `, ${failedConnects} failed` : ''}`);
    const snapshot = () => ({
      server: processState(pid),
      machine: machineCpu(),
      load: loadAverage(),
      backends: backendsCpu(database),
      clients: workers.reduce((sum, worker) => sum + processState(/** @type {number} */ (worker.child.pid)).cpu, 0),
    });
    const before = snapshot();
    /** @type {number[]} */
    const perSecond = [];
    let last = 0;
    const ticker = setInterval(() => {
      const now = workers.reduce((sum, worker) => sum + worker.receipts(), 0);
      perSecond.push(now - last);
      last = now;
    }, 1000);
    const results = await Promise.all(
      workers.map((worker) => {
        const done = worker.next('done');
        worker.tell({ type: 'run', ...run });
        return done;
      }),
    );
    clearInterval(ticker);
    const after = snapshot();
    /** @type {Record<string, number>} */
    const refused = {};
    for (const each of results)
      for (const [key, n] of Object.entries(each.refused)) refused[key] = (refused[key] ?? 0) + n;
    return {
      connected,
      failedConnects,
      results,
      before,
      after,
      database,
      refused,
      seconds: Math.max(...results.map((each) => each.seconds)),
      /** The sum of a field of every worker's result. */
      sum: (/** @type {string} */ field) => results.reduce((total, each) => total + each[field], 0),
      /** Receipts per second, without the first two seconds and the last (the ramp and the tail), sorted. */
      steady: perSecond.slice(2, -1).sort((a, b) => a - b),
    };
  } finally {
    for (const worker of workers) await worker.stop();
  }
}

/**
 * What a round cost, in one line: the receipts' latency, the server's CPU per `unit`, the
 * PostgreSQL backends', the client processes', the machine's and its load.
 * @param {Awaited<ReturnType<typeof ingestRound>>} round
 * @param {number} count what the server took in (spans, reports)
 * @param {string} unit one of them, for "µs a …"
 */
export function costLine(round, count, unit) {
  const { before, after, seconds } = round;
  const latencies = round.results.flatMap((each) => each.latencies).sort((a, b) => a - b);
  let backendSeconds = 0;
  for (const [backend, cpu] of after.backends) backendSeconds += cpu - (before.backends.get(backend) ?? 0);
  const serverCpu = after.server.cpu - before.server.cpu;
  const machineBusy = (after.machine.busy - before.machine.busy) / (after.machine.total - before.machine.total);
  return (
    `  receipt latency (a frame) p50 ${percentile(latencies, 50).toFixed(1)} / p95 ${percentile(latencies, 95).toFixed(1)} / ` +
    `p99 ${percentile(latencies, 99).toFixed(1)} / max ${(latencies.at(-1) ?? 0).toFixed(0)} ms; ` +
    `server CPU ${((serverCpu / seconds) * 100).toFixed(0)} % of a core (${((serverCpu * 1e6) / Math.max(1, count)).toFixed(0)} µs a ${unit}), ` +
    (round.database ? `PostgreSQL backends ${((backendSeconds / seconds) * 100).toFixed(0)} %, ` : '') +
    `client processes ${(((after.clients - before.clients) / seconds) * 100).toFixed(0)} %; ` +
    `machine ${(machineBusy * 100).toFixed(0)} % busy; load ${before.load} → ${after.load}`
  );
}
