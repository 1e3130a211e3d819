// @ts-check
// Zip downloads of a directory (GET /api/directory/download?name=&parent=) and the server's
// memory while it streams them. bench/seed-workflow-files.ts fills 'Workflows/Zip' with
// BENCH_FILES (1,000) workflows, each its own distinct `.rax` of BENCH_MIN_KB–BENCH_MAX_KB KiB
// (100–500, incompressible: about 294 MiB in all), the first BENCH_PART_FILES (100) in the folder
// 'Workflows/Zip/Part'. Signed in as the company's head, it downloads Part once to warm up, then,
// one at a time: Part (100 files), the whole directory Zip (1,000 files, Part included), and Zip
// again with a slow reader that stops reading after BENCH_PAUSE_AFTER_MB (8) MiB for
// BENCH_PAUSE_SECONDS (15), then reads BENCH_SLOW_SECONDS (10) at BENCH_SLOW_MB_S (2) MiB/s, then
// the rest at full speed. For each: the time to the first byte and to the last, the bytes and the
// entries the zip's central directory lists (checked against the files and folders), the server's
// CPU time, and the server process's resident memory (/proc/<pid>/status VmRSS sampled every
// 50 ms; VmHWM, reset through /proc/<pid>/clear_refs before the download) before the download and
// at its peak, and the peak in each tenth of the zip (by bytes read), which would climb if the
// server kept what it had sent; for the slow reader also the peak and the server's CPU time
// during the pause (and in its second half: a server that has stopped writing spends none). Fails
// (exit code 1) if a zip is not whole. On PostgreSQL (a fresh database of the machine's server)
// and on PGlite (a fresh data directory). MiB = 2^20 bytes.
// `node bench/workflow-download.mjs` (or `npm run workflow-download -w bench`); BENCH_FILES,
// BENCH_PART_FILES, BENCH_MIN_KB, BENCH_MAX_KB, BENCH_PAUSE_AFTER_MB, BENCH_PAUSE_SECONDS,
// BENCH_SLOW_SECONDS, BENCH_SLOW_MB_S, BENCH_DATABASE_URL change the defaults, and
// BENCH_BACKENDS=postgres or =pglite runs one of the two.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { loadAverage, onEachBackend, root, startServer, waitFor } from './lib.mjs';

const filesCount = Number(process.env.BENCH_FILES ?? 1_000);
const partCount = Math.min(filesCount, Number(process.env.BENCH_PART_FILES ?? 100));
const minKb = Number(process.env.BENCH_MIN_KB ?? 100);
const maxKb = Number(process.env.BENCH_MAX_KB ?? 500);
const pauseAfter = Number(process.env.BENCH_PAUSE_AFTER_MB ?? 8) * 1024 * 1024;
const pauseSeconds = Number(process.env.BENCH_PAUSE_SECONDS ?? 15);
const slowSeconds = Number(process.env.BENCH_SLOW_SECONDS ?? 10);
const slowRate = Number(process.env.BENCH_SLOW_MB_S ?? 2) * 1024 * 1024;
const port = 8298;
const head = { email: 'head@bench.test', password: 'bench-password' };
const MiB = 1024 * 1024;
const CLOCK_TICKS = 100;

/** @type {string[]} */
const failures = [];

/** @param {number} bytes */
const mib = (bytes) => (bytes / MiB).toFixed(1);

const sleep = (/** @type {number} */ ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A process's memory (VmRSS, VmHWM; bytes) and CPU time (user + system; seconds).
 * @param {number} pid
 */
function processState(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (/** @type {string} */ field) =>
    Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) * 1024;
  // /proc/<pid>/stat: utime and stime are fields 14 and 15, counted after the ")" closing the name.
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const cpu = (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  return { rss: kb('VmRSS'), hwm: kb('VmHWM'), cpu };
}

/**
 * Samples VmRSS every 50 ms; `peak()` is the highest since `mark()` (or the start), `tenth()` the
 * highest since the previous `tenth()` (then starts again), `stop()` the highest of all.
 * @param {number} pid
 */
function rssSampler(pid) {
  let peak = processState(pid).rss;
  let overall = peak;
  let sinceTenth = peak;
  const timer = setInterval(() => {
    const { rss } = processState(pid);
    peak = Math.max(peak, rss);
    overall = Math.max(overall, rss);
    sinceTenth = Math.max(sinceTenth, rss);
  }, 50);
  return {
    tenth: () => {
      const { rss } = processState(pid);
      const highest = Math.max(sinceTenth, rss);
      sinceTenth = rss;
      return highest;
    },
    mark: () => {
      peak = processState(pid).rss;
    },
    peak: () => Math.max(peak, processState(pid).rss),
    stop: () => {
      clearInterval(timer);
      return Math.max(overall, processState(pid).rss);
    },
  };
}

/**
 * The number of entries the zip's end-of-central-directory record lists (no comment, no zip64).
 * @param {Buffer} tail the zip's last bytes
 */
function zipEntries(tail) {
  const at = tail.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  return at < 0 ? -1 : tail.readUInt16LE(at + 10);
}

/**
 * Downloads a directory as a zip and discards it; `slow` pauses and throttles the reading.
 * @param {string} token
 * @param {{ name: string, parent: string }} directory
 * @param {number} expected about how many bytes the zip holds
 * @param {() => void} onTenth called as each tenth of `expected` has been read
 * @param {(event: 'paused' | 'mid' | 'slow' | 'fast') => void} [phase] told when the reading changes pace, and halfway
 *   through the pause (slow reader only)
 */
function download(token, directory, expected, onTenth, phase) {
  const query = new URLSearchParams(directory).toString();
  return new Promise((resolve, reject) => {
    const sent = performance.now();
    const request = http.get(
      {
        host: '127.0.0.1',
        port,
        path: `/api/directory/download?${query}`,
        headers: { 'x-app-key': 'opsdeck-console', 'x-auth-token': token },
      },
      (response) => {
        let firstByte = 0;
        let bytes = 0;
        /** @type {Buffer} */
        let tail = Buffer.alloc(0);
        let stage = phase ? 'before-pause' : 'fast';
        let slowStarted = 0;
        let tenths = 0;
        response.on('data', (/** @type {Buffer} */ chunk) => {
          if (firstByte === 0) firstByte = performance.now() - sent;
          bytes += chunk.length;
          while (tenths < 10 && bytes >= ((tenths + 1) / 10) * expected) {
            tenths += 1;
            onTenth();
          }
          tail = Buffer.concat([tail, chunk]).subarray(-65_536);
          if (stage === 'before-pause' && bytes >= pauseAfter) {
            stage = 'paused';
            response.pause();
            phase?.('paused');
            setTimeout(() => phase?.('mid'), (pauseSeconds * 1000) / 2);
            setTimeout(() => {
              stage = 'slow';
              slowStarted = performance.now();
              phase?.('slow');
              response.resume();
            }, pauseSeconds * 1000);
          } else if (stage === 'slow') {
            const elapsed = (performance.now() - slowStarted) / 1000;
            if (elapsed >= slowSeconds) {
              stage = 'fast';
              phase?.('fast');
              return;
            }
            // Reading at `slowRate`: wait until the bytes read since the slow phase began are due.
            const due = (bytes - pauseAfter) / slowRate;
            if (due > elapsed) {
              response.pause();
              setTimeout(() => response.resume(), (due - elapsed) * 1000);
            }
          }
        });
        response.on('end', () =>
          resolve({
            status: response.statusCode,
            firstByte,
            seconds: (performance.now() - sent) / 1000,
            bytes,
            entries: zipEntries(tail),
          }),
        );
        response.on('error', reject);
      },
    );
    request.on('error', reject);
  });
}

/**
 * @param {Record<string, string>} env
 * @returns {{ totalBytes: number, partBytes: number }}
 */
function seed(env) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'bench/seed-workflow-files.ts'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
    encoding: 'utf8',
    env: {
      ...process.env,
      BENCH_FILES: String(filesCount),
      BENCH_PART_FILES: String(partCount),
      BENCH_MIN_KB: String(minKb),
      BENCH_MAX_KB: String(maxKb),
      BENCH_HEAD_EMAIL: head.email,
      BENCH_HEAD_PASSWORD: head.password,
      ...env,
    },
  });
  if (result.status !== 0) throw new Error('seeding failed');
  const lines = result.stdout.trim().split('\n');
  console.log(lines.slice(0, -1).join('\n'));
  return JSON.parse(lines.at(-1) ?? '{}');
}

/**
 * @param {string} label
 * @param {Record<string, string>} env
 */
async function measureBackend(label, env) {
  const sizes = seed(env);
  const server = startServer({ port, env: { ...env, DEMO: '0', LOG_LEVEL: 'warn', ADMIN_PASSWORD: 'bench-admin' } });
  const pid = server.child.pid;
  if (pid === undefined) throw new Error('the server did not start');
  try {
    await waitFor(`http://127.0.0.1:${port}/api/health`);
    const login = await fetch(`http://127.0.0.1:${port}/api/login`, {
      method: 'POST',
      headers: { 'x-app-key': 'opsdeck-console', 'content-type': 'application/json' },
      body: JSON.stringify({ username: head.email, password: head.password }),
    });
    if (!login.ok) throw new Error(`login: ${login.status} ${await login.text()}`);
    const { token } = await login.json();
    console.log(
      `\n${label}: ${filesCount} files of ${minKb}–${maxKb} KiB (${mib(sizes.totalBytes)} MiB), ${partCount} of them ` +
        `(${mib(sizes.partBytes)} MiB) in Zip/Part; load average ${loadAverage()}; server RSS at rest ` +
        `${mib(processState(pid).rss)} MiB`,
    );

    const cases = [
      {
        name: `Part (${partCount} files), reading at full speed`,
        directory: { name: 'Part', parent: 'Workflows/Zip' },
      },
      { name: `Zip (${filesCount} files), reading at full speed`, directory: { name: 'Zip', parent: 'Workflows' } },
      {
        name: `Zip (${filesCount} files), slow reader`,
        directory: { name: 'Zip', parent: 'Workflows' },
        slow: true,
      },
    ];
    // Warm-up, not measured: the first zip of a process grows its heap and buffers (30–40 MiB).
    const warmUp = { name: 'Part', parent: 'Workflows/Zip' };
    const warm = /** @type {any} */ (await download(token, warmUp, sizes.partBytes, () => {}));
    if (warm.status !== 200) throw new Error(`warm-up download: ${warm.status}`);
    for (const entry of cases) {
      await sleep(2000);
      // VmHWM counts from here (writing 5 to clear_refs resets it; needs the process's owner).
      let hwmReset = true;
      try {
        writeFileSync(`/proc/${pid}/clear_refs`, '5');
      } catch {
        hwmReset = false;
      }
      const before = processState(pid);
      const sampler = rssSampler(pid);
      /** @type {{ rss: number, cpu: number } | undefined} */
      let pauseStart;
      let pausePeak = 0;
      let pauseCpu = 0;
      let pauseMidCpu = 0;
      let lateCpu = 0;
      let slowPeak = 0;
      /** @type {number[]} */
      const tenths = [];
      const expectedMin = entry.directory.name === 'Part' ? sizes.partBytes : sizes.totalBytes;
      const result = /** @type {any} */ (
        await download(
          token,
          entry.directory,
          expectedMin,
          () => tenths.push(sampler.tenth()),
          entry.slow
            ? (event) => {
                if (event === 'paused') {
                  pauseStart = processState(pid);
                  sampler.mark();
                } else if (event === 'mid') {
                  pauseMidCpu = processState(pid).cpu;
                } else if (event === 'slow') {
                  pausePeak = sampler.peak();
                  pauseCpu = processState(pid).cpu - (pauseStart?.cpu ?? 0);
                  lateCpu = processState(pid).cpu - pauseMidCpu;
                  sampler.mark();
                } else {
                  slowPeak = sampler.peak();
                }
              }
            : undefined,
        )
      );
      const peak = sampler.stop();
      const after = processState(pid);
      const expectedEntries = entry.directory.name === 'Part' ? partCount + 1 : filesCount + 2;
      const whole = result.status === 200 && result.entries === expectedEntries && result.bytes > expectedMin;
      if (!whole) {
        failures.push(
          `${label}, ${entry.name}: status ${result.status}, ${result.entries} entries (expected ${expectedEntries}), ` +
            `${result.bytes} bytes`,
        );
      }
      console.log(
        `  ${entry.name}: ${result.status}, ${mib(result.bytes)} MiB, ${result.entries} entries, first byte ` +
          `${result.firstByte.toFixed(0)} ms, whole in ${result.seconds.toFixed(1)} s ` +
          `(${(result.bytes / MiB / result.seconds).toFixed(1)} MiB/s); server CPU ${(after.cpu - before.cpu).toFixed(1)} s; ` +
          `RSS before ${mib(before.rss)} MiB, peak ${mib(peak)} MiB (+${mib(peak - before.rss)}), after ${mib(after.rss)} MiB` +
          `${hwmReset ? `; VmHWM ${mib(after.hwm)} MiB` : ''}${whole ? '' : '   FAILED'}`,
      );
      console.log(
        `    peak RSS in each tenth of the zip (MiB): ${tenths.map((rss) => (rss / MiB).toFixed(0)).join(' ')}`,
      );
      if (entry.slow) {
        console.log(
          `    paused ${pauseSeconds} s after ${mib(pauseAfter)} MiB: RSS at the pause ${mib(pauseStart?.rss ?? 0)} MiB, ` +
            `peak during it ${mib(pausePeak)} MiB, server CPU during it ${pauseCpu.toFixed(2)} s (its second half ${lateCpu.toFixed(2)} s); then ` +
            `${slowSeconds} s at ${mib(slowRate)} MiB/s: peak ${mib(slowPeak)} MiB`,
        );
      }
    }
    console.log(`  load average at the end: ${loadAverage()}`);
  } finally {
    await server.stop();
  }
}

await onEachBackend('download', measureBackend);

if (failures.length > 0) {
  console.error(`\n${failures.length} download(s) went wrong:\n  ${failures.join('\n  ')}`);
  process.exit(1);
}
