// Fills a database for the live-channel benchmarks (live-sessions, live-latency, live-fanout):
// BENCH_COMPANIES companies (default 4), each with a head (a Company Administrator, who signs in
// with head<n>@live.bench.test / BENCH_HEAD_PASSWORD and whose role has VIEW_WORKFLOW_EVENTS),
// BENCH_WORKFLOWS_PER_COMPANY workflows in 'Workflows/Live' (default 10; an agent's CONNECT
// reads its company's list and every console hears it), and BENCH_KEYS licence keys (default
// 10,000) spread evenly over the companies, at most 100 to a licence (a licence holds at most 100
// keys) expiring in a year. Each key is made by `newLicenseKey()`: the database keeps its digest
// and partial form, as an issued key; the account carries one MAC address of its own (locally
// administered, 02:00:…), as a key made from a registration file. The full keys, with their MAC
// address and company, and the companies' tenant ids and heads are written as JSON to
// BENCH_KEYS_FILE, for the benchmark's agents. Run with `node --import tsx bench/seed-live.ts`;
// it opens the database the same way the server does (PGlite dir in DATA_DIR, or DATABASE_URL),
// migrates, seeds, vacuums, closes. PGlite has no lock between processes: never run this while a
// server has the directory open.
import { writeFileSync } from 'node:fs';
import { keyDigest, newLicenseKey, partialKey } from '@opsdeck/licensing/keys';
import { writeRax } from '@opsdeck/rax/write';
import { sql } from 'drizzle-orm';
import { accounts, blobs, licenses } from '../apps/server/src/db/schema';
import { sha256Of } from '../apps/server/src/modules/workflows/blob-store';
import { ensureTreeRoot, insertDirectory } from '../apps/server/src/modules/workflows/queries';
import { runScriptAsOwner } from '../apps/server/src/platform/tenancy';
import { openSeedDatabase, seedCompanyWithHead } from './seed-lib';

const companyCount = Number(process.env.BENCH_COMPANIES ?? 4);
const keyCount = Number(process.env.BENCH_KEYS ?? 10_000);
const workflowsPerCompany = Number(process.env.BENCH_WORKFLOWS_PER_COMPANY ?? 10);
const headPassword = process.env.BENCH_HEAD_PASSWORD ?? 'bench-password';
const keysFile = process.env.BENCH_KEYS_FILE;
if (!keysFile) throw new Error('BENCH_KEYS_FILE names where the keys are written');
const KEYS_PER_LICENSE = 100;
const day = 86_400_000;

// Seeding is the owner's work (docs/tenancy.md): every company's rows in bulk, VACUUM.
runScriptAsOwner();
const database = await openSeedDatabase();
const { db } = database;
const started = Date.now();
const now = Date.now();

// One small shared workflow file for every seeded workflow.
const rax = await writeRax(
  {
    name: 'Live bench',
    description: 'A small workflow for the live-channel benchmarks',
    steps: [
      { activity: 'open-browser', name: 'First', expectedSeconds: 10 },
      { activity: 'send-email', name: 'Second', expectedSeconds: 20 },
    ],
  },
  {},
);
const sha256 = sha256Of(rax);
await db.insert(blobs).values({ sha256, size: rax.byteLength, content: rax, createdAt: now });

const trades = ['Freight', 'Health', 'Robotics', 'Foods', 'Energy', 'Telecom', 'Metals', 'Media'];
const companiesOut: { tenantId: string; name: string; email: string; password: string }[] = [];
const agentsOut: { key: string; mac: string; company: number }[] = [];
const mac = (i: number) =>
  ['02', '00', (i >> 16) & 255, (i >> 8) & 255, i & 255, 0x42]
    .map((part) => (typeof part === 'string' ? part : part.toString(16).padStart(2, '0').toUpperCase()))
    .join(':');

for (let c = 0; c < companyCount; c += 1) {
  const name = `Live ${trades[c % trades.length]} ${c + 1}`;
  const email = `head${c + 1}@live.bench.test`;
  const { tenantId, companyId, headId } = await seedCompanyWithHead(
    db,
    { name, industry: 'manufacturing' },
    { firstName: 'Live', lastName: `Head ${c + 1}`, email, password: headPassword },
  );
  companiesOut.push({ tenantId, name, email, password: headPassword });

  if (workflowsPerCompany > 0) {
    const root = await ensureTreeRoot(db, tenantId);
    const directory = await insertDirectory(db, root, { name: 'Live', userId: headId, now });
    await db.execute(sql`
      insert into workflows (tenant_id, directory_id, name, description, file_name, size, activity_keys, archived,
        created_at, created_by, updated_at, updated_by)
      select ${tenantId}::uuid, ${directory.id}, 'Process orders ' || lpad(i::text, 3, '0'), 'Runs hourly',
        'process-orders-' || i || '.rax', ${rax.byteLength}, array['open-browser', 'send-email'], false,
        ${now}, ${headId}, ${now}, ${headId}
      from generate_series(1, ${workflowsPerCompany}) as i
    `);
    await db.execute(sql`
      insert into workflow_versions (workflow_id, tenant_id, number, file_name, size, sha256, activity_keys, steps,
        created_at, created_by)
      select w.id, w.tenant_id, 1, w.file_name, w.size, ${sha256}, w.activity_keys, 2, w.created_at, w.created_by
      from workflows w where w.directory_id = ${directory.id}
    `);
  }

  // This company's share of the keys, in licences of at most 100.
  const share = Math.floor(keyCount / companyCount) + (c < keyCount % companyCount ? 1 : 0);
  for (let done = 0; done < share; done += KEYS_PER_LICENSE) {
    const size = Math.min(KEYS_PER_LICENSE, share - done);
    const [licence] = await db
      .insert(licenses)
      .values({
        companyId,
        tenantId,
        typeKey: 'enterprise',
        label: `Live seats ${done / KEYS_PER_LICENSE + 1}`,
        issueDate: now - day,
        expirationDate: now + 365 * day,
        maxAccounts: KEYS_PER_LICENSE,
        createdAt: now,
      })
      .returning({ id: licenses.id });
    const rows = [];
    for (let k = 0; k < size; k += 1) {
      const index = agentsOut.length;
      const made = newLicenseKey();
      if (made.digest !== keyDigest(made.key) || made.partial !== partialKey(made.key)) throw new Error('key');
      agentsOut.push({ key: made.key, mac: mac(index), company: c });
      rows.push({
        licenseId: licence!.id,
        tenantId,
        keyDigest: made.digest,
        partialKey: made.partial,
        fullName: `Agent ${String(index).padStart(5, '0')} Bench`,
        emailAddress: `agent${index}@live.bench.test`,
        macAddresses: [mac(index)],
        hostname: `WS-${String(index).padStart(5, '0')}`,
        createdAt: now,
      });
    }
    await db.insert(accounts).values(rows);
  }
}

await db.execute(sql`vacuum analyze`);
writeFileSync(keysFile, JSON.stringify({ companies: companiesOut, agents: agentsOut }));
console.log(
  `seeded ${companyCount} companies, ${keyCount} keys in ${Math.ceil(keyCount / KEYS_PER_LICENSE)}+ licences, ` +
    `${workflowsPerCompany} workflows each into ${database.kind} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
);
await database.close();
