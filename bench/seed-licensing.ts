// Fills a database with N companies (each with a head user and four departments), one licence per
// company and M accounts (licence keys) spread over them, for the licensing-lists benchmark,
// straight through SQL: one `insert … select … from generate_series` per table, which is a bulk
// insert on either backend (the API would take hours for 200,000 keys). Run with
// `node --import tsx bench/seed-licensing.ts` (BENCH_COMPANIES, default 10,000; BENCH_ACCOUNTS,
// default 200,000); it opens the database the same way the server does (PGlite dir in DATA_DIR, or
// DATABASE_URL), migrates, seeds, vacuums, closes. PGlite has no lock between processes: never run
// this while a server has the directory open.
import { sql } from 'drizzle-orm';
import { INDUSTRY_TYPES } from '../apps/server/src/db/reference-data';
import { runScriptAsOwner } from '../apps/server/src/platform/tenancy';
import { openSeedDatabase, takeDownTheWallIfAsked, words } from './seed-lib';

const companyCount = Number(process.env.BENCH_COMPANIES ?? 10_000);
const accountCount = Number(process.env.BENCH_ACCOUNTS ?? 200_000);

// Seeding is the owner's work (docs/tenancy.md): every company's rows in bulk, VACUUM.
runScriptAsOwner();
const database = await openSeedDatabase();
const { db } = database;

// Company names: 40 × 25 × 10 combinations, every one of them unique ("Stonebridge Robotics
// Holdings"); beyond 10,000 a number is appended.
const prefixes = [
  'Northwind',
  'Blue Ridge',
  'Silverline',
  'Redwood',
  'Summit',
  'Harbor',
  'Granite',
  'Evergreen',
  'Pioneer',
  'Atlas',
  'Crescent',
  'Lakeshore',
  'Ironbridge',
  'Meridian',
  'Oakridge',
  'Sterling',
  'Bayview',
  'Cedar',
  'Horizon',
  'Keystone',
  'Maple',
  'Riverside',
  'Westfield',
  'Eastgate',
  'Highland',
  'Golden Gate',
  'Pinecrest',
  'Stonebridge',
  'Clearwater',
  'Brightwater',
  'Falcon',
  'Liberty',
  'Sunrise',
  'Coastal',
  'Northstar',
  'Union',
  'Capital',
  'Frontier',
  'Prairie',
  'Vanguard',
];
const trades = [
  'Freight',
  'Logistics',
  'Health',
  'Insurance',
  'Bank',
  'Telecom',
  'Energy',
  'Foods',
  'Motors',
  'Textiles',
  'Pharma',
  'Networks',
  'Systems',
  'Robotics',
  'Retail',
  'Outsourcing',
  'Analytics',
  'Utilities',
  'Shipping',
  'Labs',
  'Metals',
  'Plastics',
  'Media',
  'Advisors',
  'Software',
];
const suffixes = [
  'Inc',
  'Ltd',
  'Group',
  'Holdings',
  'Corporation',
  'Co',
  'LLC',
  'International',
  'Partners',
  'Services',
];
// People: list lengths are coprime, so full names vary widely.
const firstNames = [
  'James',
  'Maria',
  'Wei',
  'Fatima',
  'Lucas',
  'Aiko',
  'Noah',
  'Priya',
  'Omar',
  'Elena',
  'Kofi',
  'Sofia',
  'Mateo',
  'Hannah',
  'Ravi',
  'Chloe',
  'Diego',
  'Amara',
  'Jonas',
  'Leila',
  'Tomasz',
  'Grace',
  'Yusuf',
];
const lastNames = [
  'Anderson',
  'Santos',
  'Chen',
  'Haddad',
  'Moreau',
  'Tanaka',
  'Williams',
  'Raman',
  'Nguyen',
  'Okafor',
  'Schmidt',
  'Costa',
  'Jensen',
  'Kowalski',
  'Alvarez',
  'Brennan',
  'Dubois',
  'Eriksson',
  'Fischer',
  'Gupta',
  'Hughes',
  'Ivanova',
  'Johansson',
  'Kim',
  'Lindqvist',
  'Mensah',
  'Novak',
  'Petrov',
  'Rossi',
];
const departmentNames = ['Operations', 'Finance', 'Customer Care', 'IT'];
// Real vendors' prefixes (Dell, Intel, Apple, Lenovo, HP, Cisco, Realtek, VMware).
const ouis = ['F8:BC:12', '3C:52:82', 'A4:5E:60', '54:EE:75', '9C:B6:D0', '00:1B:54', '00:E0:4C', '00:50:56'];
const industries = INDUSTRY_TYPES.map((industry) => industry.key);
const now = Date.now();
const day = 86_400_000;
const started = Date.now();

// Companies and their heads in one statement each; the head is linked afterwards (a cycle).
await db.execute(sql`
  insert into companies (tenant_id, name, email_address, industry_type_key, created_at)
  select gen_random_uuid(),
    p[1 + i % 40] || ' ' || t[1 + (i / 40) % 25] || ' ' || s[1 + (i / 1000) % 10]
      || case when i >= 10000 then ' ' || (i / 10000 + 1) else '' end,
    'contact' || i || '@company' || i || '.example',
    ind[1 + (i + i / 7) % ${industries.length}], ${now}
  from generate_series(0, ${companyCount - 1}) as i,
    (select ${words(prefixes)} as p, ${words(trades)} as t, ${words(suffixes)} as s, ${words(industries)} as ind) as lists
`);
await db.execute(sql`
  insert into users (tenant_id, company_id, first_name, last_name, email_address, created_at)
  select c.tenant_id, c.id, f[1 + (c.id * 5) % ${firstNames.length}], l[1 + (c.id * 3) % ${lastNames.length}],
    'head' || c.id || '@company' || c.id || '.example', ${now}
  from companies c, (select ${words(firstNames)} as f, ${words(lastNames)} as l) as lists
`);
await db.execute(sql`update companies c set head_id = u.id from users u where u.company_id = c.id`);
await db.execute(sql`
  insert into departments (tenant_id, name, head_id, created_at)
  select c.tenant_id, d.name, c.head_id, ${now}
  from companies c, unnest(${words(departmentNames)}) as d(name)
`);
// One licence per company, issued in the last year, expiring over the next two (the expiration
// sort has something to sort), seats enough for the company's share of the accounts.
const perCompany = Math.ceil(accountCount / companyCount);
await db.execute(sql`
  insert into licenses (company_id, tenant_id, type_key, label, issue_date, expiration_date, max_accounts, created_at)
  select c.id, c.tenant_id, case when c.id % 4 = 0 then 'enterprise' else 'pro' end, 'Seats ' || c.id,
    ${now} - (c.id % 365) * ${day}::bigint, ${now} + (c.id * 37 % 730) * ${day}::bigint,
    ${Math.min(100, Math.max(perCompany, 1))}, ${now}
  from companies c
`);
// The accounts: account i belongs to licence (i % companies), so each licence gets its share.
// A full name and an e-mail, 1-4 MAC addresses, a department, a 64-hex digest and a partial key.
await db.execute(sql`
  insert into accounts (license_id, tenant_id, solo, department_id, department_name, key_digest, partial_key,
    full_name, email_address, mac_addresses, hostname, created_at)
  select l.id, l.tenant_id, false, d.id, d.name,
    encode(sha256(convert_to('bench-key-' || a.i, 'UTF8')), 'hex'),
    'ODK-' || upper(substr(md5(a.i::text), 1, 4)) || '-…-' || upper(substr(md5(a.i::text), 29, 4)),
    f[1 + a.i % ${firstNames.length}] || ' ' || ln[1 + (a.i / 3) % ${lastNames.length}],
    lower(f[1 + a.i % ${firstNames.length}] || '.' || ln[1 + (a.i / 3) % ${lastNames.length}]) || a.i
      || '@company' || l.company_id || '.example',
    array(select o[1 + (a.i + k) % ${ouis.length}] || ':' || upper(substr(md5(a.i || '-' || k), 1, 2)) || ':'
        || upper(substr(md5(a.i || '-' || k), 3, 2)) || ':' || upper(substr(md5(a.i || '-' || k), 5, 2))
      from generate_series(1, 1 + (a.i + a.i / ${companyCount}) % 4) as k),
    'WS-' || lpad(a.i::text, 6, '0'), ${now} - (a.i % 300) * ${day}::bigint
  from generate_series(0, ${accountCount - 1}) as a(i)
  join licenses l on l.company_id = (select min(id) from companies) + a.i % ${companyCount}
  join departments d on d.tenant_id = l.tenant_id
    and d.name = (${words(departmentNames)})[1 + (a.i / ${companyCount}) % ${departmentNames.length}],
  (select ${words(firstNames)} as f, ${words(lastNames)} as ln, ${words(ouis)} as o) as lists
`);
// A database that has been running is vacuumed: GIN pending lists merged, the visibility map set.
await takeDownTheWallIfAsked(db);
await db.execute(sql`vacuum analyze`);
console.log(
  `seeded ${companyCount} companies and ${accountCount} accounts into ${database.kind} in ` +
    `${((Date.now() - started) / 1000).toFixed(1)} s`,
);
await database.close();
