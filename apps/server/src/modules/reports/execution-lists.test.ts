import type { Page } from '@opsdeck/contract/paging';
import {
  EXCEPTION_CSV_COLUMNS,
  type ExecutionException,
  type ExecutionLog,
  LOG_CSV_COLUMNS,
  REPORT_PATHS,
} from '@opsdeck/contract/reports';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app';
import { csvObjects, parseCsv } from '../../../test/csv';
import { createDepartment, createWorkflowRow } from '../../../test/factories';
import {
  agentOf,
  DAY,
  HOUR,
  queryString,
  type Run,
  reportCompany,
  storeRuns,
  type TestAgent,
  TODAY,
  testIngest,
} from '../../../test/report-runs';
import { selectRows } from '../../db/client';
import { executionLogs } from '../../db/schema';
import type { RequestAuth } from '../../platform/access';
import { likePattern } from '../../platform/search';
import { asOwner } from '../../platform/tenancy';
import { searchCondition } from './queries';
import { createReportsService } from './service';

/**
 * The exceptions and logs lists: order, limit, pages and their totals, the search on each field,
 * and the CSV export.
 */

let t: TestApp;
let company: Awaited<ReturnType<typeof reportCompany>>;
let grace: TestAgent;
let ids: Record<string, string>;
let starts: Record<string, number>;

const BASE = TODAY - 12 * DAY + 10 * HOUR;
const FROM = BASE - HOUR;
const TO = BASE + HOUR;
/** L10's end, 1 h 2 min 3 s after its start: searched as the log table shows it. */
const L10_END = BASE + 6_000 + 3_723_000;

beforeAll(async () => {
  t = await startTestApp();
  const db = t.database.db;
  const { service } = testIngest(db, t.app.services.events);
  company = await reportCompany(t, ['Invoice intake'], 'Lists & Co');
  const ledger = await createWorkflowRow(db, company.company, 'Ledger Sync');
  const invoices = company.workflows[0]!;
  const department = await createDepartment(db, company.company, { name: 'Dispatch' });
  grace = await agentOf(
    db,
    company.company,
    { fullName: 'Grace Hopper', email: 'Grace.Hopper@Navy.test', departmentId: department.id },
    { macAddress: 'AB:CD:EF:01:02:03', hostname: 'build-07' },
  );
  const alan = await agentOf(db, company.company, { fullName: 'Alan Turing', email: null });
  const runs: [string, TestAgent, Run][] = [
    ['L1', alan, { workflowId: invoices, start: BASE, end: BASE + 10 }],
    [
      'L2',
      grace,
      {
        workflowId: ledger,
        start: BASE + 1_000,
        end: BASE + 2_000,
        status: 'faulted',
        errorMessage: 'Disk quota exceeded, "drive D"',
        errorActivity: 'Click Button',
      },
    ],
    ['L3', alan, { workflowId: invoices, start: BASE + 2_000, end: BASE + 2_500, status: 'unknown' }],
    [
      'L4',
      alan,
      {
        workflowId: invoices,
        start: BASE + 3_000,
        end: BASE + 3_100,
        status: 'faulted',
        errorMessage: '=HYPERLINK("http://evil.test")',
        errorActivity: 'Type into\nfield',
      },
    ],
    // Four runs that started at the same millisecond: ties go by id.
    ['L5', alan, { workflowId: invoices, start: BASE + 4_000, end: BASE + 4_100 }],
    ['L6', alan, { workflowId: invoices, start: BASE + 4_000, end: BASE + 4_200 }],
    ['L7', alan, { workflowId: invoices, start: BASE + 4_000, end: BASE + 4_300 }],
    ['L8', alan, { workflowId: invoices, start: BASE + 4_000, end: BASE + 4_400 }],
    [
      'L9',
      alan,
      {
        workflowId: ledger,
        start: BASE + 5_000,
        end: BASE + 5_500,
        status: 'faulted',
        errorMessage: 'Selector missing',
      },
    ],
    ['L10', grace, { workflowId: invoices, start: BASE + 6_000, end: L10_END }],
  ];
  ids = {};
  starts = {};
  for (const [name, agent, run] of runs) {
    const [report] = await storeRuns(service, agent, [run]);
    ids[name] = report!.id;
    starts[name] = run.start;
  }
});

afterAll(async () => {
  await t.close();
});

const list = <T>(kind: 'exceptions' | 'logs', query: Record<string, string | number | undefined> = {}) =>
  t.call<T>(`/api${REPORT_PATHS[kind]}?${queryString({ from: FROM, to: TO, ...query })}`, { token: company.token });

const names = (rows: { id: string }[]) =>
  rows.map((row) => Object.entries(ids).find(([, id]) => id === row.id)?.[0] ?? row.id);

/** The runs named, newest first (ties by id, descending), as the lists order them. */
const newestFirst = (...named: string[]) =>
  [...named].sort((a, b) => starts[b]! - starts[a]! || (ids[a]! < ids[b]! ? 1 : -1));

const ALL = ['L1', 'L2', 'L3', 'L4', 'L5', 'L6', 'L7', 'L8', 'L9', 'L10'];

describe('the lists', () => {
  it('answer an array, newest first, ties by id, at most `limit`', async () => {
    const logs = await list<ExecutionLog[]>('logs');
    expect(names(logs.body)).toEqual(newestFirst(...ALL));
    const three = await list<ExecutionLog[]>('logs', { limit: 3 });
    expect(names(three.body)).toEqual(newestFirst(...ALL).slice(0, 3));
    const oldest = await list<ExecutionLog[]>('logs', { sort: 'executionStart,asc' });
    expect(names(oldest.body)).toEqual(newestFirst(...ALL).reverse());
  });

  it('list only the faulted runs as exceptions', async () => {
    const exceptions = await list<ExecutionException[]>('exceptions');
    expect(names(exceptions.body)).toEqual(['L9', 'L4', 'L2']);
    expect(exceptions.body[2]).toMatchObject({
      executedBy: { id: null, firstName: 'Grace', lastName: 'Hopper' },
      emailAddress: 'Grace.Hopper@Navy.test',
      macAddress: 'AB:CD:EF:01:02:03',
      hostname: 'build-07',
      errorMessage: 'Disk quota exceeded, "drive D"',
    });
  });

  it('page with a total, read from the rollups, and nothing past the end', async () => {
    const order = newestFirst(...ALL);
    const first = await list<Page<ExecutionLog>>('logs', { page: 1, size: 4 });
    expect(first.body).toMatchObject({ total: 10, page: 1, size: 4 });
    expect(names(first.body.items)).toEqual(order.slice(0, 4));
    const second = await list<Page<ExecutionLog>>('logs', { page: 2, size: 4 });
    expect(names(second.body.items)).toEqual(order.slice(4, 8));
    const third = await list<Page<ExecutionLog>>('logs', { page: 3, size: 4 });
    expect(names(third.body.items)).toEqual(order.slice(8));
    expect((await list<Page<ExecutionLog>>('logs', { page: 4, size: 4 })).body).toEqual({
      items: [],
      total: 10,
      page: 4,
      size: 4,
    });
    const ascending = await list<Page<ExecutionLog>>('logs', { page: 1, size: 4, sort: 'executionStart,asc' });
    expect(names(ascending.body.items)).toEqual([...order].reverse().slice(0, 4));
    const exceptions = await list<Page<ExecutionException>>('exceptions', { page: 1 });
    expect(exceptions.body).toMatchObject({ total: 3, page: 1, size: 10 });
    // A range cut inside the ties, at the millisecond.
    const cut = await list<Page<ExecutionLog>>('logs', { page: 1, from: BASE + 2_000, to: BASE + 4_000 });
    expect(cut.body.total).toBe(6);
    expect(names(cut.body.items)).toEqual(newestFirst('L3', 'L4', 'L5', 'L6', 'L7', 'L8'));
  });

  it.each([
    ['exceptions', 'QUOTA', ['L2']],
    ['exceptions', 'click butt', ['L2']],
    ['exceptions', 'ledger', ['L9', 'L2']],
    ['exceptions', 'hopper@navy', ['L2']],
    ['exceptions', 'ab:cd:ef', ['L2']],
    ['exceptions', 'grace hop', ['L2']],
    ['exceptions', 'Turing', ['L9', 'L4']],
    ['exceptions', 'type into', ['L4']],
    ['exceptions', 'faulted', []],
    ['exceptions', 'dispatch', []],
    ['exceptions', '%', []],
    ['exceptions', '_', []],
    // The searched fields are joined by U+0001 for their index: a text holding it matches no two fields.
    ['exceptions', 'drive d"\u0001click', []],
    ['exceptions', 'turing\u0001', []],
    ['logs', 'unkn', ['L3']],
    ['logs', 'SUCCESS', ['L10', 'L8', 'L7', 'L6', 'L5', 'L1']],
    ['logs', 'lists & co', ALL],
    ['logs', 'dispatch', ['L10', 'L2']],
    ['logs', 'invoice', ['L10', 'L8', 'L7', 'L6', 'L5', 'L4', 'L3', 'L1']],
  ] as const)('%s: searching %j finds %j', async (kind, search, expected) => {
    const rows = await list<ExecutionLog[]>(kind, { search });
    expect(names(rows.body)).toEqual(newestFirst(...expected));
    const page = await list<Page<ExecutionLog>>(kind, { search, page: 1, size: 100 });
    expect(page.body.total).toBe(expected.length);
  });

  it('pages a search in either order, its total from the same read', async () => {
    const invoices = newestFirst('L10', 'L8', 'L7', 'L6', 'L5', 'L4', 'L3', 'L1');
    const second = await list<Page<ExecutionLog>>('logs', { search: 'invoice', page: 2, size: 3 });
    expect(second.body).toMatchObject({ total: 8, page: 2, size: 3 });
    expect(names(second.body.items)).toEqual(invoices.slice(3, 6));
    const oldest = await list<Page<ExecutionLog>>('logs', {
      search: 'invoice',
      page: 3,
      size: 3,
      sort: 'executionStart,asc',
    });
    expect(names(oldest.body.items)).toEqual([...invoices].reverse().slice(6));
    // Past the last match: the total still, no rows.
    expect((await list<Page<ExecutionLog>>('logs', { search: 'invoice', page: 4, size: 3 })).body).toEqual({
      items: [],
      total: 8,
      page: 4,
      size: 3,
    });
    // Each row as the unsearched list gives it.
    const plain = await list<ExecutionLog[]>('logs');
    expect(second.body.items).toEqual(plain.body.filter((row) => second.body.items.some((item) => item.id === row.id)));
  });

  it('searches a range that starts an hour before a month as well as one inside it', async () => {
    // Last month's first millisecond (UTC): always four weeks or more behind, so every run is past.
    const now = new Date();
    const month = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1);
    const slices = await reportCompany(t, ['Slice check'], 'Slices & Co');
    const agent = await agentOf(t.database.db, slices.company, { fullName: 'Ada Slice', email: null });
    const fault = (start: number) => ({
      workflowId: slices.workflows[0]!,
      start,
      end: start + 1_000,
      status: 'faulted' as const,
      errorMessage: 'Slicing fault',
    });
    const [early, before, after, later] = await storeRuns(
      testIngest(t.database.db, t.app.services.events).service,
      agent,
      [fault(month - 2 * DAY), fault(month - 30 * 60_000), fault(month + HOUR), fault(month + 3 * DAY)],
    );
    // From an hour before the month (a slice under a day, read by time) to five days into it (through the index).
    const query = { from: month - HOUR, to: month + 5 * DAY, search: 'slicing', page: 1, size: 10 };
    for (const kind of ['exceptions', 'logs'] as const) {
      const result = await t.call<Page<ExecutionLog>>(`/api${REPORT_PATHS[kind]}?${queryString(query)}`, {
        token: slices.token,
      });
      expect(result.body.total).toBe(3);
      expect(result.body.items.map((row) => row.id)).toEqual([later!.id, after!.id, before!.id]);
    }
    // A range of less than a day, inside a month: one slice, read by time.
    const today = await t.call<Page<ExecutionLog>>(
      `/api${REPORT_PATHS.exceptions}?${queryString({ ...query, from: month + HOUR - 1, to: month + HOUR + 1 })}`,
      { token: slices.token },
    );
    expect(today.body.items.map((row) => row.id)).toEqual([after!.id]);
    expect(early).toBeDefined();
  });

  it('counts a search up to its cap and says when more match', async () => {
    const reports = createReportsService({ db: t.database.db, searchTotalCap: 5 });
    const auth = { tenantId: company.company.tenantId } as RequestAuth;
    const query = { from: FROM, to: TO, limit: 100, size: 4, format: 'json' as const, tz: 'UTC', page: 1 };
    const capped = await reports.logs(auth, { ...query, search: 'invoice' });
    expect(capped).toMatchObject({ total: 5, totalCapped: true, page: 1, size: 4 });
    expect(names((capped as Page<ExecutionLog>).items)).toEqual(
      newestFirst('L10', 'L8', 'L7', 'L6', 'L5', 'L4', 'L3', 'L1').slice(0, 4),
    );
    const exact = await reports.logs(auth, { ...query, search: 'dispatch' });
    expect(exact).toMatchObject({ total: 2, page: 1 });
    expect(exact).not.toHaveProperty('totalCapped');
  });

  it('searches through the trigram index of the joined fields', async () => {
    // With sequential and plain index scans off, the search must find a bitmap path: only the
    // trigram indexes give one, and only when the query's expression is the index's own.
    // (A month's partition names its copies of execution_logs_search_idx and
    // execution_logs_exception_search_idx after the expression: execution_logs_p2026_11_lower_idx.)
    for (const kind of ['logs', 'exceptions'] as const) {
      let plan: { 'QUERY PLAN': string }[] = [];
      const rolledBack = new Error('rolled back');
      const attempt = t.database.db.transaction(async (tx) => {
        await tx.execute(sql`set local enable_seqscan = off`);
        await tx.execute(sql`set local enable_indexscan = off`);
        // The faulted rows' own indexes would give a bitmap too (their predicate is the query's):
        // gone for this transaction only.
        // (Dropped as the owner, docs/tenancy.md; the plan below is the server role's, under its wall.)
        await asOwner(() => tx.execute(sql`drop index execution_logs_tenant_faulted_idx, execution_logs_faulted_idx`));
        const search = { text: 'zqxj', pattern: likePattern('zqxj'), timeZone: 'UTC', logFields: kind === 'logs' };
        const faulted = kind === 'exceptions' ? sql`and status_type = 'faulted'` : sql``;
        plan = await selectRows<{ 'QUERY PLAN': string }>(
          tx,
          sql`explain select count(*) from ${executionLogs} where ${searchCondition(search)} ${faulted}`,
        );
        throw rolledBack;
      });
      await expect(attempt).rejects.toBe(rolledBack);
      const text = plan.map((row) => row['QUERY PLAN']).join('\n');
      expect(text).toMatch(/Bitmap Index Scan on execution_logs_p\d{4}_\d{2}_lower_idx/);
      expect(text).not.toContain('Seq Scan');
    }
  });

  it("searches the logs' execution end as the table shows it, in the caller's zone", async () => {
    const shown = (timeZone: string) => {
      const parts = Object.fromEntries(
        new Intl.DateTimeFormat('en-CA', {
          timeZone,
          hourCycle: 'h23',
          year: 'numeric',
          month: '2-digit',
          day: '2-digit',
          hour: '2-digit',
          minute: '2-digit',
          second: '2-digit',
        })
          .formatToParts(L10_END)
          .map((part) => [part.type, part.value]),
      );
      return `${parts.year}/${parts.month}/${parts.day} ${parts.hour}:${parts.minute}:${parts.second}`;
    };
    const kathmandu = shown('Asia/Kathmandu');
    expect(names((await list<ExecutionLog[]>('logs', { search: kathmandu, tz: 'Asia/Kathmandu' })).body)).toEqual([
      'L10',
    ]);
    expect((await list<ExecutionLog[]>('logs', { search: kathmandu })).body).toEqual([]);
    expect(names((await list<ExecutionLog[]>('logs', { search: shown('UTC') })).body)).toEqual(['L10']);
  });
});

describe('the CSV export', () => {
  it('sends every matching exception as RFC 4180 CSV, times in UTC, formulas neutralised', async () => {
    const result = await list<string>('exceptions', { format: 'csv', limit: 1, page: 1, size: 1 });
    expect(result.status).toBe(200);
    expect(result.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(result.headers.get('content-disposition')).toBe(`attachment; filename="exceptions-${FROM}-${TO}.csv"`);
    const text = new TextDecoder().decode(result.bytes);
    expect(parseCsv(text)[0]).toEqual([...EXCEPTION_CSV_COLUMNS]);
    const records = csvObjects(text);
    expect(records.map((record) => record.id)).toEqual(['L9', 'L4', 'L2'].map((name) => ids[name]));
    expect(records[1]).toEqual({
      id: ids.L4,
      executionStart: new Date(BASE + 3_000).toISOString(),
      workflowName: 'Invoice intake',
      workflowVersion: '',
      errorMessage: `'=HYPERLINK("http://evil.test")`,
      errorActivity: 'Type into\nfield',
      executedByFirstName: 'Alan',
      executedByLastName: 'Turing',
      emailAddress: '',
      macAddress: 'AA:BB:CC:DD:EE:01',
      hostname: 'agent-host',
    });
    expect(records[2]).toMatchObject({
      errorMessage: 'Disk quota exceeded, "drive D"',
      emailAddress: 'Grace.Hopper@Navy.test',
    });
  });

  it('sends the logs with their end, runtime, status, company and department, filtered and sorted as asked', async () => {
    const result = await list<string>('logs', { format: 'csv', search: 'dispatch', sort: 'executionStart,asc' });
    expect(result.headers.get('content-disposition')).toBe(`attachment; filename="execution-logs-${FROM}-${TO}.csv"`);
    const text = new TextDecoder().decode(result.bytes);
    expect(parseCsv(text)[0]).toEqual([...LOG_CSV_COLUMNS]);
    expect(csvObjects(text)).toEqual([
      expect.objectContaining({ id: ids.L2, statusType: 'faulted', runtimeSeconds: '1', departmentName: 'Dispatch' }),
      expect.objectContaining({
        id: ids.L10,
        executionEnd: new Date(L10_END).toISOString(),
        runtimeSeconds: '3723',
        statusType: 'success',
        companyName: 'Lists & Co',
      }),
    ]);
  });

  it('reads in keyset batches that resume inside a run of equal starts', async () => {
    const reports = createReportsService({ db: t.database.db, csvBatchRows: 3 });
    const auth = { tenantId: company.company.tenantId } as RequestAuth;
    for (const direction of ['asc', 'desc'] as const) {
      const query = {
        from: FROM,
        to: TO,
        limit: 100,
        size: 10,
        format: 'csv' as const,
        tz: 'UTC',
        sort: `executionStart,${direction}`,
      };
      const read: string[] = [];
      for await (const row of reports.csv('logs', auth, query).rows) read.push(String(row.id));
      const expected = newestFirst(...ALL).map((name) => ids[name]);
      expect(read).toEqual(direction === 'desc' ? expected : expected.reverse());
    }
  });

  it('lists nothing older than the retention keeps, and counts nothing there either', async () => {
    // A year later, with a retention of 30 days: this month's logs are gone.
    const reports = createReportsService({ db: t.database.db, retentionDays: 30, now: () => TODAY + 365 * DAY });
    const auth = { tenantId: company.company.tenantId } as RequestAuth;
    const query = { from: FROM, to: TO, limit: 100, size: 10, format: 'json' as const, tz: 'UTC' };
    expect(await reports.logs(auth, query)).toEqual([]);
    expect(await reports.logs(auth, { ...query, page: 1 })).toEqual({ items: [], total: 0, page: 1, size: 10 });
    // The counts come from the rollups, kept for ever.
    expect(await reports.metrics(auth, { from: FROM, to: TO })).toMatchObject({ completedWorkflowCount: 6 });
  });
});
