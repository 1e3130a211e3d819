// Fills a database with one company whose directory 'Workflows/Bench' holds N workflows (10,000),
// for the workflow-lists benchmark, straight through SQL: the company, its head (a Company
// Administrator, who signs in with BENCH_HEAD_EMAIL / BENCH_HEAD_PASSWORD), the tree's root
// (`ensureTreeRoot`) and the directory, then one `insert … select … from generate_series` for the
// workflows and one for their versions (one version each). The versions point at 16 small shared
// blobs (real `.rax` files of about 0.5–8 KB, made with `writeRax`), workflow i at blob i % 16,
// so that the size order has something to sort. Names are "<verb> <object> <number>" ("Reconcile
// invoices 00042": 12 verbs, 10 objects, so "invoice" is in every tenth name), descriptions name
// a team and a schedule but none of those words, and createDate is spread evenly over the last 365
// days (updateDate up to 29 days later). Run with `node --import tsx bench/seed-workflows.ts`
// (BENCH_WORKFLOWS, default 10,000); it opens the database the same way the server does (PGlite
// dir in DATA_DIR, or DATABASE_URL), migrates, seeds, vacuums, closes. PGlite has no lock between
// processes: never run this while a server has the directory open.
import { randomBytes } from 'node:crypto';
import { writeRax } from '@opsdeck/rax/write';
import { sql } from 'drizzle-orm';
import { blobs } from '../apps/server/src/db/schema';
import { sha256Of } from '../apps/server/src/modules/workflows/blob-store';
import { ensureTreeRoot, insertDirectory } from '../apps/server/src/modules/workflows/queries';
import { runScriptAsOwner } from '../apps/server/src/platform/tenancy';
import { openSeedDatabase, seedCompanyWithHead, takeDownTheWallIfAsked, words } from './seed-lib';

const count = Number(process.env.BENCH_WORKFLOWS ?? 10_000);
const headEmail = process.env.BENCH_HEAD_EMAIL ?? 'head@bench.test';
const headPassword = process.env.BENCH_HEAD_PASSWORD ?? 'bench-password';
const directoryName = process.env.BENCH_DIRECTORY ?? 'Bench';
/** The moment the seed calls now: createDate runs back 365 days from it. */
const now = Number(process.env.BENCH_NOW ?? Date.now());
const day = 86_400_000;

// Seeding is the owner's work (docs/tenancy.md): every company's rows in bulk, VACUUM.
runScriptAsOwner();
const database = await openSeedDatabase();
const { db } = database;
const started = Date.now();

const { tenantId, headId } = await seedCompanyWithHead(
  db,
  { name: 'Benchmark Robotics', industry: 'manufacturing' },
  { firstName: 'Bench', lastName: 'Head', email: headEmail, password: headPassword },
);

const root = await ensureTreeRoot(db, tenantId);
const directory = await insertDirectory(db, root, { name: directoryName, userId: headId, now });

// The shared blobs: 16 real workflow files, 0.5 KB to 8 KB of incompressible resource each.
const activityKeys = ['open-browser', 'read-excel-range', 'send-email', 'call-rest-api', 'write-csv', 'wait'];
// Their sizes differ (512 bytes more resource each), so a workflow's version finds its blob by size.
const blobSizes: number[] = [];
for (let k = 0; k < 16; k += 1) {
  const bytes = await writeRax(
    {
      name: `Shared ${k + 1}`,
      description: 'A small workflow file shared by the seeded workflows',
      steps: [
        { activity: activityKeys[k % activityKeys.length]!, name: 'First', expectedSeconds: 10 },
        { activity: activityKeys[(k + 1) % activityKeys.length]!, name: 'Second', expectedSeconds: 20 },
      ],
    },
    { 'data/payload.bin': randomBytes(512 * (k + 1)) },
  );
  await db.insert(blobs).values({ sha256: sha256Of(bytes), size: bytes.byteLength, content: bytes, createdAt: now });
  blobSizes.push(bytes.byteLength);
}
if (new Set(blobSizes).size !== blobSizes.length) throw new Error(`two shared blobs have one size: ${blobSizes}`);

const verbs = [
  'Reconcile',
  'Extract',
  'Validate',
  'Approve',
  'Archive',
  'Export',
  'Import',
  'Match',
  'Post',
  'Review',
  'Schedule',
  'Sync',
];
const objects = [
  'invoices',
  'purchase orders',
  'timesheets',
  'claims',
  'shipments',
  'payroll',
  'bank statements',
  'vendor records',
  'tickets',
  'contracts',
];
const teams = ['Finance', 'Operations', 'Logistics', 'People', 'Sales', 'Support', 'Legal'];
const schedules = ['nightly', 'hourly', 'every Monday', 'at month end', 'on demand'];

// Workflow i: name "<verb> <object> <i, 5 digits>", in the directory, created ((i × 7919) mod 365)
// days and (i mod 86,400) seconds ago, updated up to 29 days later (never after now), current file
// the blob i mod 16, two of the activity keys.
await db.execute(sql`
  insert into workflows (tenant_id, directory_id, name, description, file_name, size, activity_keys, archived,
    created_at, created_by, updated_at, updated_by)
  select ${tenantId}::uuid, ${directory.id}, w.name,
    'Runs ' || s[1 + i % ${schedules.length}] || ' for the ' || t[1 + (i / 3) % ${teams.length}] || ' team',
    w.name || '.rax', (${sql.raw(`array[${blobSizes.join(',')}]`)})[1 + i % 16],
    array[a[1 + i % ${activityKeys.length}], a[1 + (i + 1) % ${activityKeys.length}]], false,
    w.created, ${headId}, least(${now}::bigint, w.created + (i * 31 % 30) * ${day}::bigint), ${headId}
  from (select ${words(verbs)} as v, ${words(objects)} as o, ${words(teams)} as t, ${words(schedules)} as s,
      ${words(activityKeys)} as a) as lists
  cross join generate_series(1, ${count}) as i
  cross join lateral (
    select v[1 + i % ${verbs.length}] || ' ' || o[1 + (i / ${verbs.length}) % ${objects.length}] || ' '
        || lpad(i::text, 5, '0') as name,
      ${now}::bigint - ((i * 7919) % 365) * ${day}::bigint - (i % 86400) * 1000::bigint as created
  ) as w
`);
await db.execute(sql`
  insert into workflow_versions (workflow_id, tenant_id, number, file_name, size, sha256, activity_keys, steps,
    created_at, created_by)
  select w.id, w.tenant_id, 1, w.file_name, w.size, b.sha256, w.activity_keys, 2, w.created_at, w.created_by
  from workflows w
  join blobs b on b.size = w.size
  where w.directory_id = ${directory.id}
`);
// A database that has been running is vacuumed: the visibility map set, the statistics current.
await takeDownTheWallIfAsked(db);
await db.execute(sql`vacuum analyze`);
console.log(
  `seeded ${count} workflows in 'Workflows/${directoryName}' into ${database.kind} in ` +
    `${((Date.now() - started) / 1000).toFixed(1)} s`,
);
await database.close();
