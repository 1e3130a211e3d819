import { type ChildProcess, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { seededRandom } from '@opsdeck/agent/random';
import { CONSOLE_APP_KEY, HEADERS } from '@opsdeck/contract/http';
import { writeRax } from '@opsdeck/rax/write';
import { sql } from 'drizzle-orm';
import { openDatabase, selectRows } from '../src/db/client';
import { databaseBlobStore } from '../src/modules/workflows/blob-store';
import { freePort } from './postgres-cluster';

/**
 * A fault a real installation meets (issue 18; docs/workflows.md, "Storage"): the server killed
 * (SIGKILL, no shutdown of any kind) in the middle of `.rax` uploads, new versions and zip
 * downloads, then started again on the same data, `kills` times. What it checks:
 *
 * - the server starts again each time and answers;
 * - an upload answered 201 before the kill is there after it, whole; one cut off is there whole
 *   or not at all (its bytes' SHA-256 is the uploaded file's);
 * - at the end, straight in the database: no version without its blob, no blob without a version
 *   (before the sweep, and the sweep finds nothing), every blob's bytes hash to its name, every
 *   workflow has versions numbered 1..n and shows its newest one.
 *
 * The server is a child process (`apps/server/src/main.ts`, as `npm start` runs it) on a data
 * directory of its own: its PGlite, or a PostgreSQL database the caller made. Shared by
 * `modules/workflows/sigkill.test.ts` (a few kills) and `bench/fault-sigkill-uploads.ts` (50).
 */

export type Backend = { kind: 'pglite' } | { kind: 'postgres'; url: string };

export type SigkillOptions = {
  kills: number;
  /** Where kills fall and what each round does; printed, so that a failure can be replayed. */
  seed?: number;
  backend?: Backend;
  /** The incompressible resource in each uploaded file (default 2 MiB): an upload worth cutting. */
  resourceBytes?: number;
  log?: (line: string) => void;
  /** How long a start may take before the run fails (default 5 minutes: a loaded machine is slow). */
  startTimeoutMs?: number;
};

export type KillMode = 'create' | 'version' | 'download';
const MODES: readonly KillMode[] = ['create', 'version', 'download'];
export type Kill = {
  mode: KillMode;
  /** Where the kill fell: 'body 37%' (of the request sent), 'after body +120 ms', 'response 41%'. */
  at: string;
  /** The server answered (201/200) before it was killed. */
  answered: boolean;
  /** After the restart: the upload is there (whole) — or, for a download, nothing changed. */
  stored: boolean;
  /** How long the restart took until /api/health answered. */
  restartMs: number;
};

export type Invariants = {
  versionsWithoutBlob: number;
  blobsWithoutVersion: number;
  sweptBlobs: number;
  corruptBlobs: number;
  versionsNotTheirBlobSize: number;
  workflowsWithoutVersion: number;
  workflowsNotAtNewestVersion: number;
  versionNumberGaps: number;
  /** Uploads answered 201 that were not there after the restart, or not whole. */
  lostAnswered: number;
  /** Uploads found after a restart whose bytes were not the file sent. */
  notWhole: number;
};

export type SigkillResult = {
  seed: number;
  kills: Kill[];
  firstStartMs: number;
  invariants: Invariants;
  counts: { workflows: number; versions: number; blobs: number };
};

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
/** The provider admin of the servers these tests start. */
export const FAULTS_ADMIN = { email: 'admin@faults.test', password: 'faults-admin-password' };
const ADMIN = FAULTS_ADMIN;
const HEAD = { email: 'head@faults.example', password: 'faults-head-password' };
const DIRECTORY = 'Workflows/Faults';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** The server as `npm start` runs it, on `dataDir` (and PostgreSQL when the backend says so), with `env` besides. */
export class ServerProcess {
  private child: ChildProcess | undefined;
  base = '';
  /** Everything the server printed, stdout and stderr as they came, over all its starts. */
  output = '';

  constructor(
    private readonly dataDir: string,
    private readonly backend: Backend,
    private readonly startTimeoutMs: number,
    private readonly env: Record<string, string> = {},
  ) {}

  /** Starts it and resolves once /api/health answers 200; answers how long that took. */
  async start(): Promise<number> {
    const port = await freePort();
    this.base = `http://127.0.0.1:${port}`;
    const started = Date.now();
    const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        PORT: String(port),
        HOST: '127.0.0.1',
        PUBLIC_URL: this.base,
        DATA_DIR: this.dataDir,
        DEMO: '0',
        LOG_LEVEL: 'warn',
        ADMIN_EMAIL: ADMIN.email,
        ADMIN_PASSWORD: ADMIN.password,
        ...(this.backend.kind === 'postgres' ? { DATABASE_URL: this.backend.url } : {}),
        ...this.env,
      },
    });
    this.child = child;
    let stderr = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      this.output += chunk.toString();
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      this.output += chunk.toString();
      stderr = (stderr + chunk.toString()).slice(-4_000);
    });
    const exited = new Promise<never>((_, reject) =>
      child.once('exit', (code, signal) =>
        reject(new Error(`the server exited while starting (${code ?? signal}):\n${stderr}`)),
      ),
    );
    exited.catch(() => {});
    const deadline = started + this.startTimeoutMs;
    while (Date.now() < deadline) {
      const healthy = await Promise.race([
        fetch(`${this.base}/api/health`).then(
          (response) => response.ok,
          () => false,
        ),
        exited,
      ]);
      if (healthy) return Date.now() - started;
      await Promise.race([new Promise((resolve) => setTimeout(resolve, 50)), exited]);
    }
    child.kill('SIGKILL');
    throw new Error(`the server did not answer /api/health within ${this.startTimeoutMs} ms:\n${stderr}`);
  }

  /**
   * SIGTERM (the server's own shutdown), and resolves once the process is gone and its output read
   * to the end; SIGKILL if it takes longer than `timeoutMs`.
   */
  async stop(timeoutMs = 30_000) {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const gone = new Promise((resolve) => child.once('close', resolve));
    child.kill('SIGTERM');
    const cut = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    await gone;
    clearTimeout(cut);
  }

  /** SIGKILL, and resolves once the process is gone (its files closed by the kernel, not by it). */
  async kill() {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const gone = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await gone;
  }
}

/** A JSON call of the API. */
async function call<T>(base: string, method: string, urlPath: string, body?: unknown, token?: string) {
  const response = await fetch(`${base}/api${urlPath}`, {
    method,
    headers: {
      [HEADERS.appKey]: CONSOLE_APP_KEY,
      ...(token ? { [HEADERS.authToken]: token } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${urlPath}: ${response.status} ${text}`);
  return JSON.parse(text) as T;
}

/** A file's bytes as the API gives them (the current version), or undefined when there is none of that name. */
async function currentFile(base: string, token: string, fileName: string) {
  const page = await call<{ items: { id: number; fileName: string }[] }>(
    base,
    'POST',
    '/workflow/view',
    { parent: DIRECTORY, page: 1, size: 100, sort: 'name,asc' },
    token,
  );
  const item = page.items.find((row) => row.fileName === fileName);
  if (!item) return undefined;
  const response = await fetch(`${base}/api/workflow/download/${item.id}`, {
    headers: { [HEADERS.appKey]: CONSOLE_APP_KEY, [HEADERS.authToken]: token },
  });
  if (!response.ok) throw new Error(`download of ${fileName}: ${response.status} ${await response.text()}`);
  return { id: item.id, bytes: new Uint8Array(await response.arrayBuffer()) };
}

/** A multipart/form-data body as a browser sends it: fields, then the file. */
function multipart(fields: Record<string, string>, file: { name: string; bytes: Uint8Array }) {
  const boundary = `----opsdeck-faults-${randomBytes(8).toString('hex')}`;
  const head = Object.entries(fields)
    .map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
    .join('');
  const fileHead = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  const body = Buffer.concat([
    Buffer.from(head + fileHead),
    Buffer.from(file.bytes),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

type Cut = { kind: 'body'; fraction: number } | { kind: 'after'; delayMs: number };

/**
 * Sends an upload and kills the server at `cut`: once that share of the body has gone out, or
 * that long after all of it did (whether or not the answer came first). Answers whether it was
 * answered with `expected` before the kill.
 */
async function uploadAndKill(
  server: ServerProcess,
  options: { method: string; urlPath: string; token: string; body: Buffer; contentType: string; cut: Cut },
): Promise<{ answered: boolean }> {
  const { body, cut } = options;
  let answered = false;
  const url = new URL(`${server.base}/api${options.urlPath}`);
  const req = request(url, {
    method: options.method,
    headers: {
      [HEADERS.appKey]: CONSOLE_APP_KEY,
      [HEADERS.authToken]: options.token,
      'content-type': options.contentType,
      'content-length': String(body.byteLength),
    },
  });
  const answer = new Promise<void>((resolve) => {
    req.on('response', (response) => {
      response.resume();
      response.on('end', () => {
        answered = response.statusCode === 200 || response.statusCode === 201;
        resolve();
      });
      response.on('error', () => resolve());
    });
    req.on('error', () => resolve());
  });
  const write = (chunk: Buffer) =>
    new Promise<void>((resolve) => {
      if (req.write(chunk)) resolve();
      else req.once('drain', resolve);
    });
  const CHUNK = 64 * 1024;
  const stopAt = cut.kind === 'body' ? Math.floor(body.byteLength * cut.fraction) : body.byteLength;
  for (let offset = 0; offset < stopAt; offset += CHUNK) {
    await write(body.subarray(offset, Math.min(stopAt, offset + CHUNK)));
  }
  if (cut.kind === 'body') {
    await server.kill();
    req.destroy();
    await answer;
    return { answered };
  }
  req.end();
  await Promise.race([answer, new Promise((resolve) => setTimeout(resolve, cut.delayMs))]);
  await server.kill();
  req.destroy();
  await answer;
  return { answered };
}

/** Downloads the directory as a zip and kills the server once `killAtBytes` of it have arrived (or at its end). */
async function downloadAndKill(server: ServerProcess, token: string, killAtBytes: number) {
  const url = `${server.base}/api/directory/download?name=Faults&parent=Workflows`;
  const controller = new AbortController();
  let received = 0;
  try {
    const response = await fetch(url, {
      headers: { [HEADERS.appKey]: CONSOLE_APP_KEY, [HEADERS.authToken]: token },
      signal: controller.signal,
    });
    if (!response.ok || !response.body) throw new Error(`zip download: ${response.status}`);
    for await (const chunk of response.body) {
      received += (chunk as Uint8Array).byteLength;
      if (received >= killAtBytes) break;
    }
  } catch {
    // cut off by the kill
  }
  await server.kill();
  controller.abort();
  return received;
}

/** The invariants, read straight from the database, then the sweep of blobs no version holds. */
async function checkDatabase(dataDir: string, backend: Backend) {
  const database = await openDatabase(
    backend.kind === 'postgres'
      ? { kind: 'postgres', url: backend.url, poolSize: 1 }
      : { kind: 'pglite', dataDir: path.join(dataDir, 'db') },
  );
  try {
    const { db } = database;
    const count = async (query: ReturnType<typeof sql>) =>
      Number((await selectRows<{ n: number }>(db, query))[0]?.n ?? 0);
    const invariants = {
      versionsWithoutBlob: await count(
        sql`select count(*)::int as n from workflow_versions v where not exists (select 1 from blobs b where b.sha256 = v.sha256)`,
      ),
      blobsWithoutVersion: await count(
        sql`select count(*)::int as n from blobs b where not exists (select 1 from workflow_versions v where v.sha256 = b.sha256)`,
      ),
      corruptBlobs: await count(
        sql`select count(*)::int as n from blobs where encode(sha256(content), 'hex') <> sha256 or length(content) <> size`,
      ),
      versionsNotTheirBlobSize: await count(
        sql`select count(*)::int as n from workflow_versions v join blobs b on b.sha256 = v.sha256 where b.size <> v.size`,
      ),
      workflowsWithoutVersion: await count(
        sql`select count(*)::int as n from workflows w where not exists (select 1 from workflow_versions v where v.workflow_id = w.id)`,
      ),
      workflowsNotAtNewestVersion: await count(sql`
        select count(*)::int as n from workflows w
        join lateral (select * from workflow_versions v where v.workflow_id = w.id order by number desc limit 1) newest on true
        where newest.file_name <> w.file_name or newest.size <> w.size or newest.activity_keys <> w.activity_keys`),
      versionNumberGaps: await count(sql`
        select count(*)::int as n from (
          select workflow_id from workflow_versions group by workflow_id
          having max(number) <> count(*) or min(number) <> 1
        ) gaps`),
    };
    const sweptBlobs = await databaseBlobStore.sweep(db);
    const counts = {
      workflows: await count(sql`select count(*)::int as n from workflows`),
      versions: await count(sql`select count(*)::int as n from workflow_versions`),
      blobs: await count(sql`select count(*)::int as n from blobs`),
    };
    return { invariants: { ...invariants, sweptBlobs }, counts };
  } finally {
    await database.close();
  }
}

/** Runs the rounds: each an upload, a new version or a zip download, cut by a SIGKILL, then a restart. */
export async function runSigkillFaults(options: SigkillOptions): Promise<SigkillResult> {
  const seed = options.seed ?? Math.floor(Math.random() * 2 ** 31);
  const random = seededRandom(seed);
  const log = options.log ?? (() => {});
  const backend = options.backend ?? { kind: 'pglite' };
  const resourceBytes = options.resourceBytes ?? 2 * 1024 * 1024;
  const dataDir = await mkdtemp(path.join(tmpdir(), 'opsdeck-sigkill-'));
  const server = new ServerProcess(dataDir, backend, options.startTimeoutMs ?? 300_000);
  const kills: Kill[] = [];
  let lostAnswered = 0;
  let notWhole = 0;
  log(`seed ${seed}; data in ${dataDir}`);
  try {
    const firstStartMs = await server.start();
    log(`first start (migrations) in ${firstStartMs} ms`);
    const { token: adminToken } = await call<{ token: string }>(server.base, 'POST', '/login', {
      username: ADMIN.email,
      password: ADMIN.password,
    });
    await call(
      server.base,
      'POST',
      '/company',
      {
        name: 'Faults Logistics',
        industryType: 'logistics',
        head: {
          firstName: 'Ines',
          lastName: 'Okafor',
          emailAddress: HEAD.email,
          credential: { newPassword: HEAD.password, confirmPassword: HEAD.password },
        },
      },
      adminToken,
    );
    // Sessions are rows: the head's token holds across restarts.
    const { token } = await call<{ token: string }>(server.base, 'POST', '/login', {
      username: HEAD.email,
      password: HEAD.password,
    });
    await call(server.base, 'POST', '/directory/create', { name: 'Faults', parent: 'Workflows' }, token);

    let made = 0;
    const newFile = async () => {
      made += 1;
      const name = `Fault ${made}`;
      const bytes = await writeRax(
        {
          name,
          description: 'A file the fault test cuts off',
          steps: [{ activity: 'delay', name: 'Wait', expectedSeconds: 1 }],
        },
        { 'data/payload.bin': randomBytes(resourceBytes) },
      );
      return { name, fileName: `${name}.rax`, bytes };
    };
    const form = (file: { name: string; fileName: string; bytes: Uint8Array }) =>
      multipart(
        { name: file.name, description: 'A workflow', directory: DIRECTORY },
        { name: file.fileName, bytes: file.bytes },
      );

    // The workflows that exist for sure, by file name, with the SHA-256 of their current file.
    const known = new Map<string, { id: number; sha: string }>();
    // One whole upload first: something to download and to version, and how long one takes.
    const first = await newFile();
    const timed = Date.now();
    const firstForm = form(first);
    const created = await fetch(`${server.base}/api/workflow/create`, {
      method: 'POST',
      headers: { [HEADERS.appKey]: CONSOLE_APP_KEY, [HEADERS.authToken]: token, 'content-type': firstForm.contentType },
      body: firstForm.body,
    });
    if (created.status !== 201) throw new Error(`the first upload: ${created.status} ${await created.text()}`);
    const uploadMs = Date.now() - timed;
    known.set(first.fileName, { id: ((await created.json()) as { id: number }).id, sha: sha256(first.bytes) });
    log(`a whole upload of ${first.bytes.byteLength} bytes takes ${uploadMs} ms`);

    for (let round = 1; round <= options.kills; round += 1) {
      // Each kind in turn, so that a few rounds meet all three.
      const mode = MODES[(round - 1) % MODES.length]!;
      // Half the uploads cut while the body crosses, half after it, at any point up to 1.5 times
      // an upload's time (inside the transaction, or after the answer).
      const cut: Cut =
        random() < 0.5
          ? { kind: 'body', fraction: 0.02 + 0.96 * random() }
          : { kind: 'after', delayMs: Math.floor(random() * 1.5 * uploadMs) };
      const at = cut.kind === 'body' ? `body ${Math.round(cut.fraction * 100)}%` : `after body +${cut.delayMs} ms`;
      let answered = false;
      let check: () => Promise<boolean>;
      if (mode === 'download') {
        const total = [...known.values()].length * (resourceBytes + 1024);
        const killAt = 1 + Math.floor(random() * total);
        const received = await downloadAndKill(server, token, killAt);
        const fileName = [...known.keys()][Math.floor(random() * known.size)]!;
        const expected = known.get(fileName)!.sha;
        check = async () =>
          sha256((await currentFile(server.base, token, fileName))?.bytes ?? new Uint8Array()) === expected;
        kills.push({ mode, at: `response ${received} bytes`, answered: false, stored: false, restartMs: 0 });
      } else if (mode === 'create') {
        const file = await newFile();
        const { body, contentType } = form(file);
        ({ answered } = await uploadAndKill(server, {
          method: 'POST',
          urlPath: '/workflow/create',
          token,
          body,
          contentType,
          cut,
        }));
        const sha = sha256(file.bytes);
        check = async () => {
          const found = await currentFile(server.base, token, file.fileName);
          if (found && sha256(found.bytes) !== sha) notWhole += 1;
          if (found) known.set(file.fileName, { id: found.id, sha });
          if (answered && !found) lostAnswered += 1;
          return found !== undefined;
        };
        kills.push({ mode, at, answered, stored: false, restartMs: 0 });
      } else {
        const fileName = [...known.keys()][Math.floor(random() * known.size)]!;
        const target = known.get(fileName)!;
        const file = { ...(await newFile()), fileName };
        file.name = fileName.replace(/\.rax$/, '');
        const { body, contentType } = form(file);
        ({ answered } = await uploadAndKill(server, {
          method: 'PUT',
          urlPath: `/workflow/${target.id}`,
          token,
          body,
          contentType,
          cut,
        }));
        const sha = sha256(file.bytes);
        check = async () => {
          const found = await currentFile(server.base, token, fileName);
          const now = found ? sha256(found.bytes) : undefined;
          // The new version whole, or the old one still current: nothing in between.
          if (now !== sha && now !== target.sha) notWhole += 1;
          if (answered && now !== sha) lostAnswered += 1;
          if (now === sha) known.set(fileName, { id: target.id, sha });
          return now === sha;
        };
        kills.push({ mode, at, answered, stored: false, restartMs: 0 });
      }
      const kill = kills.at(-1)!;
      kill.restartMs = await server.start();
      kill.stored = await check();
      log(
        `round ${round}: ${mode} killed at ${kill.at}${kill.answered ? ' (answered first)' : ''}; restarted in ${kill.restartMs} ms; ${
          mode === 'download'
            ? kill.stored
              ? 'files intact'
              : 'FILE CHANGED'
            : kill.stored
              ? 'stored whole'
              : 'not stored'
        }`,
      );
      if (mode === 'download' && !kill.stored) notWhole += 1;
    }
    await server.kill();
    const { invariants, counts } = await checkDatabase(dataDir, backend);
    return { seed, kills, firstStartMs, invariants: { ...invariants, lostAnswered, notWhole }, counts };
  } finally {
    await server.kill();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** What went wrong, as lines; none when every invariant holds. */
export function violations(result: SigkillResult): string[] {
  return Object.entries(result.invariants)
    .filter(([, value]) => value !== 0)
    .map(([name, value]) => `${name}: ${value}`);
}
