// Fills a database with one company whose directory 'Workflows/Zip' holds BENCH_FILES workflows
// (1,000), each with its own file, for the workflow-download benchmark: the first BENCH_PART_FILES
// (100) in the folder 'Workflows/Zip/Part', the rest in 'Workflows/Zip' itself. Every file is a
// distinct `.rax` made with `writeRax` (a manifest and one incompressible resource) of
// BENCH_MIN_KB to BENCH_MAX_KB KiB (100 to 500), spread evenly; stored as the server stores an
// upload (a blob named by its SHA-256, a workflow, its version 1). Straight through SQL rather
// than the API: on PGlite an upload costs about a second per MB (its bytea parameter is hex-encoded
// one byte at a time, bench/workflow-upload.mjs), so the bytes go in as hex text through
// `decode(…, 'hex')`. The head (a Company Administrator) signs in with BENCH_HEAD_EMAIL /
// BENCH_HEAD_PASSWORD. Run with `node --import tsx bench/seed-workflow-files.ts`; it opens the
// database the same way the server does (PGlite dir in DATA_DIR, or DATABASE_URL), migrates,
// seeds, analyzes, closes, and prints the total size as JSON on its last line. PGlite has no lock
// between processes: never run this while a server has the directory open.
import { randomBytes } from 'node:crypto';
import { writeRax } from '@opsdeck/rax/write';
import { sql } from 'drizzle-orm';
import { workflows, workflowVersions } from '../apps/server/src/db/schema';
import { sha256Of } from '../apps/server/src/modules/workflows/blob-store';
import { ensureTreeRoot, insertDirectory } from '../apps/server/src/modules/workflows/queries';
import { runScriptAsOwner } from '../apps/server/src/platform/tenancy';
import { openSeedDatabase, seedCompanyWithHead } from './seed-lib';

const count = Number(process.env.BENCH_FILES ?? 1_000);
const partCount = Math.min(count, Number(process.env.BENCH_PART_FILES ?? 100));
const minBytes = Number(process.env.BENCH_MIN_KB ?? 100) * 1024;
const maxBytes = Number(process.env.BENCH_MAX_KB ?? 500) * 1024;
const headEmail = process.env.BENCH_HEAD_EMAIL ?? 'head@bench.test';
const headPassword = process.env.BENCH_HEAD_PASSWORD ?? 'bench-password';

// Seeding is the owner's work (docs/tenancy.md): every company's rows in bulk, VACUUM.
runScriptAsOwner();
const database = await openSeedDatabase();
const { db } = database;
const started = Date.now();
const now = Date.now();

const { tenantId, headId } = await seedCompanyWithHead(
  db,
  { name: 'Zip Bench Freight', industry: 'logistics' },
  { firstName: 'Zip', lastName: 'Head', email: headEmail, password: headPassword },
);

const root = await ensureTreeRoot(db, tenantId);
const zip = await insertDirectory(db, root, { name: 'Zip', userId: headId, now });
const part = await insertDirectory(db, zip, { name: 'Part', userId: headId, now });

const activityKeys = ['open-browser', 'read-excel-range'];
let totalBytes = 0;
let partBytes = 0;
for (let i = 1; i <= count; i += 1) {
  // Sizes spread evenly over [min, max] in a shuffled order (7919 is prime).
  const resourceBytes = minBytes + Math.floor((((i * 7919) % 1000) / 999) * (maxBytes - minBytes));
  const name = `Zip file ${String(i).padStart(4, '0')}`;
  const bytes = await writeRax(
    {
      name,
      description: 'A file of the download benchmark',
      steps: activityKeys.map((activity) => ({ activity, name: activity, expectedSeconds: 30 })),
    },
    { 'data/payload.bin': randomBytes(resourceBytes) },
  );
  const sha256 = sha256Of(bytes);
  const hex = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
  await db.execute(
    sql`insert into blobs (sha256, size, content, created_at) values (${sha256}, ${bytes.byteLength}, decode(${hex}, 'hex'), ${now})`,
  );
  const fileName = `${name}.rax`;
  const [row] = await db
    .insert(workflows)
    .values({
      tenantId,
      directoryId: i <= partCount ? part.id : zip.id,
      name,
      description: 'A file of the download benchmark',
      fileName,
      size: bytes.byteLength,
      activityKeys,
      createdAt: now,
      createdBy: headId,
      updatedAt: now,
      updatedBy: headId,
    })
    .returning({ id: workflows.id });
  await db.insert(workflowVersions).values({
    workflowId: row!.id,
    tenantId,
    number: 1,
    fileName,
    size: bytes.byteLength,
    sha256,
    activityKeys,
    steps: activityKeys.length,
    createdAt: now,
    createdBy: headId,
  });
  totalBytes += bytes.byteLength;
  if (i <= partCount) partBytes += bytes.byteLength;
}
await db.execute(sql`analyze`);
console.log(
  `seeded ${count} workflow files (${(totalBytes / 1024 / 1024).toFixed(1)} MiB; ${partCount} of them, ` +
    `${(partBytes / 1024 / 1024).toFixed(1)} MiB, in 'Workflows/Zip/Part') into ${database.kind} in ` +
    `${((Date.now() - started) / 1000).toFixed(1)} s`,
);
console.log(JSON.stringify({ files: count, partFiles: partCount, totalBytes, partBytes }));
await database.close();
