import type { Authority } from '@opsdeck/contract/authorities';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Endpoint, expectRefusedWithoutAuthority } from '../../test/access-table';
import { ADMIN, startTestApp, type TestApp } from '../../test/app';
import { csvObjects, parseCsv } from '../../test/csv';
import { createAgentKey, createCompany, createDepartment, createUser, type TestCompany } from '../../test/factories';
import { tokenWithEveryAuthority } from '../../test/sign-in';
import { uploadWorkflow } from '../../test/workflow-files';
import { activities, schedules, statuses, tasks, users } from '../db/schema';
import { pagedRows } from './csv-export';
import { circleIcon } from './png';

// CSV export of every table (docs/csv-export.md): each table's list call with `format=csv`
// answers the rows its pages show, joined, with the table's columns; formula cells neutralised;
// behind the list's own authorities and the tenant wall.

type Row = Record<string, unknown>;
type Page = { items: Row[]; total: number };

/** One table: its list call, how its JSON is read, and a column of the CSV compared with a field. */
type Table = {
  table: string;
  /** The list call, with the filter and sort of the page (GET, or POST with `body`). */
  path: string;
  query?: string;
  body?: Record<string, unknown>;
  /** The call answers a Page: the JSON side is read page by page and joined. */
  paged?: true;
  header: string[];
  /** A CSV column, and the JSON row's value it shows. */
  column: string;
  shown: (row: Row) => string | null;
  authorities: readonly Authority[];
  /** Rows of one company only (activities are the provider's catalogue). */
  tenant: boolean;
  /** Whose pages are compared with the file: a user of the company, or the provider's admin (every company). */
  caller?: 'admin';
};

const name = (row: Row) => row.name as string;
const TABLES: Table[] = [
  {
    table: 'users',
    path: '/api/user/get-user-list',
    query: 'sort=email,desc',
    paged: true,
    header: ['fullName', 'department', 'role', 'company', 'email'],
    column: 'fullName',
    shown: (row) => row.completeName as string,
    authorities: ['VIEW_USER', 'ACCESS_USER_TAB'],
    tenant: true,
  },
  {
    table: 'departments',
    path: '/api/department',
    header: ['name', 'head', 'parent', 'company'],
    column: 'name',
    shown: name,
    authorities: ['VIEW_DEPARTMENT', 'ACCESS_DEPARTMENT_TAB', 'CREATE_USER', 'EDIT_USER', 'ACCESS_MONITOR_REPORT_TAB'],
    tenant: true,
  },
  {
    table: 'roles',
    path: '/api/usergroup/findAllActive',
    header: ['name', 'company', 'protected', 'authorities'],
    column: 'name',
    shown: name,
    authorities: ['VIEW_ROLE', 'ACCESS_ROLE_TAB', 'CREATE_USER', 'EDIT_USER', 'ACCESS_MONITOR_REPORT_TAB'],
    tenant: true,
  },
  {
    table: 'statuses',
    path: '/api/status',
    header: ['name', 'department', 'threshold', 'color', 'trackIdle', 'builtIn'],
    column: 'name',
    shown: name,
    authorities: ['VIEW_STATUS', 'ACCESS_STATUS_TAB', 'VIEW_TASK', 'CREATE_TASK', 'EDIT_TASK'],
    tenant: true,
  },
  {
    table: 'tasks',
    path: '/api/task',
    header: ['name', 'status', 'department'],
    column: 'status',
    shown: (row) => (row.status as Row).name as string,
    authorities: ['VIEW_TASK', 'ACCESS_TASK_TAB'],
    tenant: true,
  },
  {
    table: 'schedules',
    path: '/api/schedule',
    query: `from=0&to=${Date.UTC(2100, 0, 1)}`,
    header: ['user', 'start', 'end'],
    column: 'start',
    shown: (row) => new Date(row.scheduleStart as number).toISOString(),
    authorities: ['VIEW_SCHEDULE', 'ACCESS_SCHEDULE_TAB'],
    tenant: true,
  },
  {
    table: 'companies',
    path: '/api/company',
    query: 'sort=name,desc',
    paged: true,
    header: ['name', 'head', 'industry'],
    column: 'name',
    shown: name,
    authorities: ['VIEW_COMPANY', 'ACCESS_COMPANY_TAB', 'ACCESS_COMPANY_LICENSE_PAGE', 'ADMIN_ACCESS_LEVEL'],
    tenant: true,
    caller: 'admin',
  },
  {
    table: 'accounts',
    path: '/api/account',
    query: 'sort=fullName,asc',
    paged: true,
    header: [
      'type',
      'invalidated',
      'fullName',
      'email',
      'macAddresses',
      'expiration',
      'partialKey',
      'company',
      'license',
      'department',
    ],
    column: 'fullName',
    shown: (row) => row.fullName as string | null,
    authorities: ['VIEW_ACCOUNT', 'ACCESS_ACCOUNT_TAB'],
    tenant: true,
  },
  {
    table: 'activities',
    path: '/api/activity',
    header: ['createDate', 'name', 'key', 'category'],
    column: 'name',
    shown: name,
    authorities: ['VIEW_ACTIVITY', 'ACCESS_ACTIVITY_TAB', 'MANAGE_LICENSING'],
    tenant: false,
  },
  {
    table: 'workflows',
    path: '/api/directory/view',
    body: { parent: 'Workflows', search: 'csv', sort: 'name,desc' },
    paged: true,
    header: ['type', 'name', 'description', 'file', 'size', 'createDate', 'updateDate', 'updatedBy', 'path'],
    column: 'name',
    shown: name,
    authorities: ['VIEW_WORKFLOW'],
    tenant: true,
  },
];

/** A text cell as the CSV writes it: one a spreadsheet would run as a formula starts with an apostrophe. */
const neutral = (value: string | null) => (value === null ? '' : /^[=+\-@\t\r]/.test(value) ? `'${value}` : value);

let t: TestApp;
let a: TestCompany;
let b: TestCompany;
let tokenA: string;
let tokenB: string;
let admin: string;
const db = () => t.database.db;

beforeAll(async () => {
  t = await startTestApp();
  a = await createCompany(db(), { name: '=Acme, "North"' });
  b = await createCompany(db(), { name: 'Beta Freight' });
  tokenA = await tokenWithEveryAuthority(t, a);
  tokenB = await tokenWithEveryAuthority(t, b);
  admin = await t.login(ADMIN.email, ADMIN.password);

  const department = await createDepartment(db(), a, { name: '+Dispatch' });
  await createDepartment(db(), a, { name: 'Ops, "North"' });
  await createDepartment(db(), b, { name: 'Beta only' });
  for (const firstName of ['@Mallory', '-Minus', 'Plain']) {
    const user = await createUser(db(), { company: a, departmentId: department.id });
    await db().update(users).set({ firstName }).where(eq(users.id, user.id));
  }
  const icon = circleIcon(24, '#000000');
  const [status] = await db()
    .insert(statuses)
    .values([
      { tenantId: a.tenantId, departmentId: department.id, name: '=Busy', icon, fileName: 'b.png' },
      { tenantId: a.tenantId, departmentId: department.id, name: 'Idle', icon, fileName: 'i.png', threshold: 5 },
    ])
    .returning({ id: statuses.id });
  await db()
    .insert(tasks)
    .values([
      { tenantId: a.tenantId, name: '-Call back', statusId: status!.id, departmentId: department.id },
      { tenantId: a.tenantId, name: 'File', statusId: status!.id, departmentId: department.id },
    ]);
  await db()
    .insert(activities)
    .values([
      { name: '=1+2', key: 'csv-formula', category: '@cat' },
      { name: 'Read, "quoted"', key: 'csv-quoted' },
    ]);
  const scheduled = await createUser(db(), { company: a });
  await db()
    .insert(schedules)
    .values([
      {
        tenantId: a.tenantId,
        userId: scheduled.id,
        scheduleStart: Date.UTC(2030, 0, 2, 8),
        scheduleEnd: Date.UTC(2030, 0, 2, 17),
      },
      {
        tenantId: a.tenantId,
        userId: scheduled.id,
        scheduleStart: Date.UTC(2030, 0, 3, 8),
        scheduleEnd: Date.UTC(2030, 0, 3, 17),
      },
    ]);
  await createAgentKey(db(), a, { fullName: '=HYPERLINK("http://x")', email: '+1@example.test' });
  await createAgentKey(db(), a, { fullName: 'Zoe Plain' });
  for (const file of ['csv-one.rax', 'csv-two.rax', 'csv-three.rax']) {
    const result = await uploadWorkflow(t, tokenA, 'Workflows', file, undefined, { name: `-${file}` });
    expect(result.status, JSON.stringify(result.body)).toBe(201);
  }
});
afterAll(async () => {
  await t.close();
});

const withQuery = (path: string, query: string | undefined, extra: string) =>
  `${path}?${[query, extra].filter(Boolean).join('&')}`;

/** The list as the console pages it (pages of 2 joined), or the whole array. */
async function jsonRows(table: Table, token: string): Promise<Row[]> {
  const call = (extra: string, body?: Record<string, unknown>) =>
    t.call<Row[] | Page>(withQuery(table.path, table.query, extra), {
      token,
      ...(table.body ? { json: { ...table.body, ...body } } : {}),
    });
  if (!table.paged) {
    const result = await call('');
    expect(result.status).toBe(200);
    return result.body as Row[];
  }
  const rows: Row[] = [];
  for (let page = 1; ; page += 1) {
    const result = table.body ? await call('', { page, size: 2 }) : await call(`page=${page}&size=2`);
    expect(result.status).toBe(200);
    const { items, total } = result.body as Page;
    rows.push(...items);
    if (page * 2 >= total) return rows;
  }
}

const csvCall = (table: Table, token: string, tenantId?: string) =>
  t.call<string>(withQuery(table.path, table.query, 'format=csv'), {
    token,
    ...(table.body ? { json: table.body } : {}),
    ...(tenantId ? { tenantId } : {}),
  });

describe.each(TABLES)('the $table export', (table) => {
  it('is the rows of its pages joined, with its columns, formulas neutralised, as a text/csv download', async () => {
    const token = table.caller === 'admin' ? admin : tokenA;
    const expected = await jsonRows(table, token);
    expect(expected.length).toBeGreaterThan(1);
    const result = await csvCall(table, token);
    expect(result.status, String(result.body)).toBe(200);
    expect(result.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(result.headers.get('content-disposition')).toMatch(
      new RegExp(`^attachment; filename="${table.table}-\\d{4}-\\d{2}-\\d{2}\\.csv"$`),
    );
    const text = new TextDecoder().decode(result.bytes);
    expect(parseCsv(text)[0]).toEqual(table.header);
    const records = csvObjects(text);
    expect(records.map((record) => record[table.column])).toEqual(expected.map((row) => neutral(table.shown(row))));
    // No cell of the file would run in a spreadsheet.
    for (const record of records) for (const cell of Object.values(record)) expect(cell).not.toMatch(/^[=+\-@]/);
  });

  it("answers only to the page's own authorities", async () => {
    const [path, query] = withQuery(table.path, table.query, 'format=csv').split('?');
    const endpoint: Endpoint = {
      method: table.body ? 'POST' : 'GET',
      path: `${path}?${query}`,
      ...(table.body ? { json: table.body } : {}),
      authorities: table.authorities,
    };
    await expectRefusedWithoutAuthority(t, a, [endpoint]);
  });

  it.runIf(table.tenant)("keeps another company's rows out, and refuses it the company's tenant", async () => {
    const own = await csvCall(table, tokenB);
    expect(own.status).toBe(200);
    const mine = new Set(csvObjects(new TextDecoder().decode(own.bytes)).map((record) => record[table.column]));
    const theirs = (await jsonRows(table, tokenA)).map((row) => neutral(table.shown(row)));
    for (const value of theirs) if (value !== '') expect(mine.has(value), value).toBe(false);
    expect((await csvCall(table, tokenB, a.tenantId)).status).toBe(403);
  });
});

describe('CSV exports', () => {
  it('writes times as ISO 8601, and a name with commas and quotes quoted', async () => {
    const schedule = csvObjects((await csvCall(TABLES.find((x) => x.table === 'schedules')!, tokenA)).body);
    expect(schedule[0]).toMatchObject({ start: '2030-01-02T08:00:00.000Z', end: '2030-01-02T17:00:00.000Z' });
    const departments = await csvCall(TABLES.find((x) => x.table === 'departments')!, tokenA);
    expect(departments.body).toContain('"Ops, ""North"""');
  });

  it("follows an admin's X-Tenant-Id, and the users list's search", async () => {
    const result = await t.call<string>('/api/user/get-user-list?format=csv&search=mallory', {
      token: admin,
      tenantId: a.tenantId,
    });
    expect(result.status).toBe(200);
    expect(csvObjects(result.body).map((record) => record.company)).toEqual([`'${a.name}`]);
  });

  it('refuses a format it does not know', async () => {
    const result = await t.call('/api/task?format=xlsx', { token: tokenA });
    expect(result.status).toBe(400);
  });

  it('is described in the OpenAPI document: the format parameter and a text/csv answer', async () => {
    const doc = (await t.call<{ paths: Record<string, Record<string, Record<string, unknown>>> }>('/api/openapi.json'))
      .body;
    for (const [path, method] of [
      ['/api/task', 'get'],
      ['/api/user/get-user-list', 'get'],
      ['/api/directory/view', 'post'],
      ['/api/usergroup/findAllActive', 'get'],
    ] as const) {
      const operation = doc.paths[path]![method]! as {
        parameters: { name: string }[];
        responses: Record<string, { content: Record<string, unknown> }>;
      };
      expect(operation.parameters.map((parameter) => parameter.name)).toContain('format');
      expect(Object.keys(operation.responses['200']!.content)).toEqual(['application/json', 'text/csv']);
    }
  });
});

describe('pagedRows', () => {
  it('reads pages until a short one or the total, one page ahead', async () => {
    const all = Array.from({ length: 7 }, (_, index) => index);
    const asked: number[] = [];
    const read = async (page: number, size: number) => {
      asked.push(page);
      return { items: all.slice((page - 1) * size, page * size), total: all.length, page, size };
    };
    const seen: number[] = [];
    for await (const row of pagedRows(read, { size: 3 })) seen.push(row);
    expect(seen).toEqual(all);
    expect(asked).toEqual([1, 2, 3]);
    const exact: number[] = [];
    for await (const row of pagedRows(read, { size: 7 })) exact.push(row);
    expect(exact).toEqual(all);
  });
});
