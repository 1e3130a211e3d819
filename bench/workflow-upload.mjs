// @ts-check
// Workflow uploads (POST /api/workflow/create, multipart): (a) MB/s of a `.rax` just under the
// upload limit (MAX_UPLOAD_MB, 20: a manifest plus one incompressible resource), uploaded
// BENCH_LARGE_UPLOADS times (5) one after another, each a distinct file; the median, best and
// worst. (b) Files per second of BENCH_SMALL_UPLOADS (200) distinct 1 MB `.rax` files,
// BENCH_CONCURRENCY (4) at a time, with the p50/p99 latency of an upload. Every file is made with
// `writeRax` before the clock starts, and is a new blob (no two files share their bytes). The
// provider administrator makes a company whose head (a Company Administrator, holding
// CREATE_WORKFLOW) uploads into 'Workflows/Large' and 'Workflows/Small'. Also reports the server
// process's resident memory (VmRSS, sampled every 50 ms) before and at its peak in each part.
// Checks that every upload answered 201 and that each directory lists them all; fails (exit
// code 1) otherwise. On PostgreSQL (a fresh database of the machine's server) and on PGlite (a
// fresh data directory). MB here is MiB (2^20 bytes), as MAX_UPLOAD_MB counts it.
// `node bench/workflow-upload.mjs` (or `npm run workflow-upload -w bench`); BENCH_LARGE_UPLOADS,
// BENCH_SMALL_UPLOADS, BENCH_CONCURRENCY, BENCH_MAX_UPLOAD_MB, BENCH_DATABASE_URL change the
// defaults, and BENCH_BACKENDS=postgres or =pglite runs one of the two.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { register } from 'tsx/esm/api';
import { apiClient, loadAverage, onEachBackend, percentile, startServer, waitFor } from './lib.mjs';

// `@opsdeck/rax` is TypeScript: tsx loads it, as it loads the server.
register();
const { writeRax } = await import('@opsdeck/rax/write');

const largeCount = Number(process.env.BENCH_LARGE_UPLOADS ?? 5);
const smallCount = Number(process.env.BENCH_SMALL_UPLOADS ?? 200);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 4);
const maxUploadMb = Number(process.env.BENCH_MAX_UPLOAD_MB ?? 20);
const port = 8296;
const base = `http://127.0.0.1:${port}/api`;
const { call, expect } = apiClient(base);
const admin = { email: 'admin@bench.test', password: 'bench-admin-password' };
const head = { email: 'grace.mensah@upload-bench.example', password: 'bench-head-password' };
const MB = 1024 * 1024;
const limitBytes = Math.floor(maxUploadMb * MB);

/** @type {string[]} */
const failures = [];

/** @param {number} bytes */
const mb = (bytes) => (bytes / MB).toFixed(1);

/**
 * Samples a process's VmRSS every 50 ms until stopped; `stop()` answers the first and highest
 * sample in bytes.
 * @param {number} pid
 */
function sampleRss(pid) {
  const read = () => {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return Number(match?.[1] ?? 0) * 1024;
  };
  const first = read();
  let peak = first;
  const timer = setInterval(() => {
    peak = Math.max(peak, read());
  }, 50);
  return {
    stop: () => {
      clearInterval(timer);
      return { before: first, peak: Math.max(peak, read()) };
    },
  };
}

/**
 * A distinct `.rax` of about `bytes` bytes: the manifest and one incompressible resource.
 * @param {string} name
 * @param {number} resourceBytes
 */
const makeRax = (name, resourceBytes) =>
  writeRax(
    {
      name,
      description: `${name}: the upload benchmark's file`,
      steps: [
        { activity: 'open-browser', name: 'Open the portal', expectedSeconds: 10 },
        { activity: 'read-excel-range', name: 'Read the sheet', expectedSeconds: 30 },
      ],
    },
    { 'data/payload.bin': randomBytes(resourceBytes) },
  );

/**
 * @param {string} token
 * @param {string} directory
 * @param {string} fileName
 * @param {Uint8Array} bytes
 */
function upload(token, directory, fileName, bytes) {
  const form = new FormData();
  form.set('name', fileName.replace(/\.rax$/, ''));
  form.set('description', 'Uploaded by bench/workflow-upload.mjs');
  form.set('directory', directory);
  // writeRax's bytes sit on a plain ArrayBuffer (Buffer.concat), never a shared one.
  form.set('file', new Blob([/** @type {Uint8Array<ArrayBuffer>} */ (bytes)]), fileName);
  return call('POST', '/workflow/create', { token, form });
}

// The files, made once for both backends. The large one: the resource is the limit less 64 KiB,
// and the whole file must stay within the limit (random bytes do not deflate, and the zip adds
// its headers).
const madeAt = performance.now();
/** @type {Uint8Array[]} */
const largeFiles = [];
for (let i = 1; i <= largeCount; i += 1) {
  const bytes = await makeRax(`Large ${i}`, limitBytes - 64 * 1024);
  if (bytes.byteLength > limitBytes) throw new Error(`the large file is ${bytes.byteLength} bytes, over the limit`);
  largeFiles.push(bytes);
}
/** @type {Uint8Array[]} */
const smallFiles = [];
for (let i = 1; i <= smallCount; i += 1) smallFiles.push(await makeRax(`Small ${i}`, MB - 1024));
console.log(
  `made ${largeCount} files of ${largeFiles[0]?.byteLength ?? 0} bytes (${mb(largeFiles[0]?.byteLength ?? 0)} MB; ` +
    `limit ${limitBytes}) and ${smallCount} of ${smallFiles[0]?.byteLength ?? 0} bytes in ` +
    `${((performance.now() - madeAt) / 1000).toFixed(1)} s`,
);

/**
 * @param {string} label
 * @param {Record<string, string>} env
 */
async function measureBackend(label, env) {
  const server = startServer({
    port,
    env: {
      ...env,
      DEMO: '0',
      LOG_LEVEL: 'warn',
      ADMIN_EMAIL: admin.email,
      ADMIN_PASSWORD: admin.password,
      MAX_UPLOAD_MB: String(maxUploadMb),
    },
  });
  const pid = server.child.pid;
  if (pid === undefined) throw new Error('the server did not start');
  try {
    await waitFor(`${base}/health`);
    const { token: adminToken } = await expect(200, 'POST', '/login', {
      body: { username: admin.email, password: admin.password },
    });
    await expect(201, 'POST', '/company', {
      token: adminToken,
      body: {
        name: 'Upload Bench Logistics',
        industryType: 'logistics',
        head: {
          firstName: 'Grace',
          lastName: 'Mensah',
          emailAddress: head.email,
          credential: { newPassword: head.password, confirmPassword: head.password },
        },
      },
    });
    const { token } = await expect(200, 'POST', '/login', { body: { username: head.email, password: head.password } });
    for (const name of ['Large', 'Small', 'Warm-up']) {
      await expect(201, 'POST', '/directory/create', { token, body: { name, parent: 'Workflows' } });
    }
    // Warm-up: the upload path compiled, the connections open.
    for (let i = 0; i < 3; i += 1) {
      const answer = await upload(token, 'Workflows/Warm-up', `Warm-up ${i}.rax`, await makeRax(`Warm-up ${i}`, MB));
      if (answer.status !== 201) throw new Error(`warm-up upload: ${answer.status} ${JSON.stringify(answer.body)}`);
    }

    console.log(`\n${label}: load average ${loadAverage()}`);

    // (a) One large file at a time.
    /** @type {number[]} */
    const rates = [];
    let rss = sampleRss(pid);
    for (const [index, bytes] of largeFiles.entries()) {
      const sent = performance.now();
      const answer = await upload(token, 'Workflows/Large', `Large ${index + 1}.rax`, bytes);
      const seconds = (performance.now() - sent) / 1000;
      if (answer.status !== 201) {
        failures.push(`${label}, large upload ${index + 1}: ${answer.status} ${JSON.stringify(answer.body)}`);
        continue;
      }
      rates.push(bytes.byteLength / MB / seconds);
      console.log(`  large ${index + 1}: ${mb(bytes.byteLength)} MB in ${seconds.toFixed(2)} s`);
    }
    let memory = rss.stop();
    const sortedRates = [...rates].sort((a, b) => a - b);
    const largeListed = await expect(200, 'POST', '/directory/view', {
      token,
      body: { parent: 'Workflows/Large', page: 1, size: 10 },
    });
    if (largeListed.total !== largeCount) failures.push(`${label}: ${largeListed.total} large files listed`);
    console.log(
      `  (a) ${rates.length} × ${mb(largeFiles[0]?.byteLength ?? 0)} MB, one at a time: median ` +
        `${percentile(sortedRates, 50).toFixed(1)} MB/s (${sortedRates[0]?.toFixed(1)}–` +
        `${sortedRates.at(-1)?.toFixed(1)}); ${largeListed.total} listed; server RSS ${mb(memory.before)} MB before, ` +
        `peak ${mb(memory.peak)} MB`,
    );

    // (b) Many 1 MB files, `concurrency` at a time.
    /** @type {number[]} */
    const latencies = [];
    let next = 0;
    rss = sampleRss(pid);
    const started = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        for (let index = next++; index < smallFiles.length; index = next++) {
          const bytes = /** @type {Uint8Array} */ (smallFiles[index]);
          const sent = performance.now();
          const answer = await upload(token, 'Workflows/Small', `Small ${index + 1}.rax`, bytes);
          if (answer.status === 201) latencies.push(performance.now() - sent);
          else failures.push(`${label}, small upload ${index + 1}: ${answer.status} ${JSON.stringify(answer.body)}`);
        }
      }),
    );
    const elapsed = (performance.now() - started) / 1000;
    memory = rss.stop();
    const sorted = [...latencies].sort((a, b) => a - b);
    const smallListed = await expect(200, 'POST', '/directory/view', {
      token,
      body: { parent: 'Workflows/Small', page: 1, size: 10 },
    });
    if (smallListed.total !== smallCount) failures.push(`${label}: ${smallListed.total} small files listed`);
    console.log(
      `  (b) ${latencies.length} × ${mb(smallFiles[0]?.byteLength ?? 0)} MB, ${concurrency} at a time: ` +
        `${(latencies.length / elapsed).toFixed(1)} files/s (${((latencies.length * (smallFiles[0]?.byteLength ?? 0)) / MB / elapsed).toFixed(1)} MB/s) ` +
        `in ${elapsed.toFixed(1)} s, p50 ${percentile(sorted, 50).toFixed(0)} ms, p99 ${percentile(sorted, 99).toFixed(0)} ms; ` +
        `${smallListed.total} listed; server RSS ${mb(memory.before)} MB before, peak ${mb(memory.peak)} MB`,
    );
    console.log(`  load average at the end: ${loadAverage()}`);
  } finally {
    await server.stop();
  }
}

await onEachBackend('upload', measureBackend);

if (failures.length > 0) {
  console.error(`\n${failures.length} upload(s) went wrong:\n  ${failures.join('\n  ')}`);
  process.exit(1);
}
