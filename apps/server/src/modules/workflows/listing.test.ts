import type { DirectoryItem, DirectoryPage, Workflow } from '@opsdeck/contract/workflows';
import { type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app';
import { createCompany, type TestCompany } from '../../../test/factories';
import { tokenWithEveryAuthority } from '../../../test/sign-in';
import { uploadWorkflow, workflowForm } from '../../../test/workflow-files';
import { selectRows } from '../../db/client';
import { asOwner } from '../../platform/tenancy';
import { directoryWorkflowIds, type ItemOrder, searchCountSql } from './listing';
import { ensureTreeRoot } from './queries';

// The Workflows table's pages at 500 requests a second (docs/performance.md, "The workflows table
// at 500 requests a second"): totals kept between requests yet exact after every write, deep pages
// read from an index in their order, the search served by trigram indexes, on either database.

let t: TestApp;
let company: TestCompany;
let token: string;

beforeAll(async () => {
  t = await startTestApp();
  company = await createCompany(t.database.db, { name: 'Counted Co' });
  token = await tokenWithEveryAuthority(t, company);
});

afterAll(async () => {
  await t.close();
});

const view = async (parent: string, extra: Record<string, unknown> = {}) => {
  const result = await t.call<DirectoryPage>('/api/directory/view', { token, json: { parent, ...extra } });
  expect(result.status, JSON.stringify(result.body)).toBe(200);
  return result.body;
};

async function uploaded(directory: string, fileName: string) {
  const result = await uploadWorkflow(t, token, directory, fileName);
  expect(result.status, JSON.stringify(result.body)).toBe(201);
  return result.body;
}

async function ok(path: string, json: Record<string, unknown>) {
  const result = await t.call(path, { token, json });
  expect(result.status, JSON.stringify(result.body)).toBeLessThan(300);
  return result.body;
}

/** A directory's total and a search's total below the root, each asked twice (the second from what was kept). */
async function totals(directory: string, search: string) {
  const first = [(await view(directory)).total, (await view('Workflows', { search })).total];
  const again = [(await view(directory)).total, (await view('Workflows', { search })).total];
  expect(again).toEqual(first);
  return first;
}

describe('the totals of the Workflows table', () => {
  it('stay exact after every write that changes them: upload, directory made, rename, move, archive, delete', async () => {
    const made = await t.call<DirectoryItem>('/api/directory/create', {
      token,
      json: { name: 'Counted', parent: 'Workflows' },
    });
    expect(made.status).toBe(201);
    expect(await totals('Workflows/Counted', 'tally')).toEqual([0, 0]);

    const first = await uploaded('Workflows/Counted', 'Tally one.rax');
    await uploaded('Workflows/Counted', 'Tally two.rax');
    expect(await totals('Workflows/Counted', 'tally')).toEqual([2, 2]);

    await ok('/api/directory/create', { name: 'Inner', parent: 'Workflows/Counted' });
    expect(await totals('Workflows/Counted', 'tally')).toEqual([3, 2]);

    // Renamed out of the search, then moved out of the directory (the edit form's directory).
    await ok('/api/directory/update/multiple', {
      directory: 'Workflows/Counted',
      files: ['Tally two.rax'],
      newFileName: 'Other',
    });
    expect(await totals('Workflows/Counted', 'tally')).toEqual([3, 1]);
    const moved = await t.call<Workflow>(`/api/workflow/${first.id}`, {
      method: 'PUT',
      token,
      multipart: workflowForm({ name: 'Tally one', description: 'A workflow', directory: 'Workflows/Counted/Inner' }),
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(await totals('Workflows/Counted', 'tally')).toEqual([2, 1]);

    await ok(`/api/workflow/delete/${first.id}`, { directory: 'Workflows/Counted/Inner' });
    expect(await totals('Workflows/Counted', 'tally')).toEqual([2, 0]);

    await uploaded('Workflows/Counted/Inner', 'Tally three.rax');
    expect(await totals('Workflows/Counted', 'tally')).toEqual([2, 1]);
    await ok('/api/directory/delete/multiple', { directory: 'Workflows/Counted', files: ['Inner', 'Other.rax'] });
    expect(await totals('Workflows/Counted', 'tally')).toEqual([0, 0]);
  });
});

/** The plan PostgreSQL (or PGlite) would run `query` by, with scans of the whole table and sorts priced out. */
async function planOf(query: SQL) {
  return t.database.db.transaction(async (tx) => {
    // A test's tables are small enough that reading them whole is cheapest: price that out, so
    // that the plan shows whether an index can serve the query at all.
    await tx.execute(sql`set local enable_seqscan = off`);
    await tx.execute(sql`set local enable_sort = off`);
    const rows = await selectRows<{ 'QUERY PLAN': string }>(tx, sql`explain ${query}`);
    return rows.map((row) => row['QUERY PLAN']).join('\n');
  });
}

describe(`the Workflows table's queries on ${process.env.TEST_DB ?? 'pglite'}`, () => {
  // Enough workflows, described alike, that the planner weighs an index against reading them.
  beforeAll(async () => {
    const root = await ensureTreeRoot(t.database.db, company.tenantId);
    await t.database.db.execute(sql`
      insert into workflows (tenant_id, directory_id, name, description, file_name, size, created_at, updated_at)
      select ${company.tenantId}, ${root.id}, 'Flow ' || i, 'Runs nightly', 'flow-' || i || '.rax', i, i, i
      from generate_series(1, 10000) i`);
    // Merged into the trigram indexes (a GIN index takes new rows into a pending list first) and
    // counted: the owner's to do (docs/tenancy.md).
    await asOwner(() => t.database.db.execute(sql`vacuum analyze workflows`));
  });

  it("read a directory's page, however deep, from the index of its order alone, unsorted", async () => {
    const root = await ensureTreeRoot(t.database.db, company.tenantId);
    const indexes = {
      name: 'workflows_directory_name_idx',
      description: 'workflows_directory_description_idx',
      created_at: 'workflows_directory_created_idx',
      updated_at: 'workflows_directory_updated_idx',
      size: 'workflows_directory_size_idx',
    } as const;
    for (const [column, index] of Object.entries(indexes)) {
      for (const descending of [false, true]) {
        const order = { column, descending } as ItemOrder;
        const plan = await planOf(directoryWorkflowIds(root, { order, limit: 10, offset: 4990 }));
        expect(plan, `${column} ${descending ? 'desc' : 'asc'}`).toContain(
          `Index Only Scan${descending ? ' Backward' : ''} using ${index}`,
        );
        expect(plan).not.toMatch(/\bSort\b/);
      }
    }
  });

  it('find workflows by name and description through the trigram indexes', async () => {
    // Every company's workflows (the provider's root): no other index can narrow them first.
    const plan = await planOf(searchCountSql({ directory: null, deep: true }, { text: 'invoice' }));
    expect(plan).toContain('workflows_name_trgm_idx');
    expect(plan).toContain('workflows_description_trgm_idx');
  });
});
