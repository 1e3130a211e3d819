import type { Company, CompanySortField } from '@opsdeck/contract/companies';
import type { Page } from '@opsdeck/contract/paging';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startTestApp, type TestApp } from '../../../test/app';
import { createCompany } from '../../../test/factories';
import { ANCHOR_SPACING } from '../../platform/list-anchors';
import { pageCompanyIds } from './queries';

// The companies table's kept count and anchored deep pages (docs/performance.md, "Lists at 500
// requests a second"): exact through every change made through the API, and a deep page is the
// page OFFSET would give.

const COMPANIES = 2 * ANCHOR_SPACING + 345;
const PASSWORD = 'a long password';

let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.login(ADMIN.email, ADMIN.password);
  // Straight through SQL, before any list is read.
  await t.database.db.execute(sql`
    insert into companies (tenant_id, name, industry_type_key, created_at)
    select gen_random_uuid(), 'Scale ' || (array['Alpha','Beta','Gamma'])[1 + i % 3] || ' ' || lpad(i::text, 5, '0'),
      'banking', ${Date.now()}
    from generate_series(1, ${COMPANIES}) as i`);
});
afterAll(async () => {
  await t.close();
});

const list = async (query: string) => {
  const result = await t.call<Page<Company>>(`/api/company?size=10&${query}`, { token: admin });
  expect(result.status).toBe(200);
  return result.body;
};

let sequence = 0;
const newCompany = (name: string) => {
  sequence += 1;
  return {
    name,
    industryType: 'banking',
    head: {
      firstName: 'Grace',
      lastName: 'Hopper',
      emailAddress: `scale-head-${sequence}-${process.pid}@example.test`,
      credential: { username: 'ignored', newPassword: PASSWORD, confirmPassword: PASSWORD },
    },
  };
};

describe('the companies table with thousands of companies', () => {
  it('keeps its total exact through creation, renaming and deletion, between them from its cache', async () => {
    const total = (await list('page=1')).total;
    expect((await list('page=1&search=zephyr')).total).toBe(0);

    // A row written behind the services' backs (no domain event) is not seen: the total is kept.
    await createCompany(t.database.db);
    expect((await list('page=1')).total).toBe(total);

    const created = await t.call<Company>('/api/company', {
      method: 'POST',
      token: admin,
      json: newCompany('Zephyr Air'),
    });
    expect(created.status).toBe(201);
    expect((await list('page=1')).total).toBe(total + 2);
    expect((await list('page=1&search=zephyr')).total).toBe(1);

    const renamed = await t.call<Company>(`/api/company/${created.body.id}`, {
      method: 'PUT',
      token: admin,
      json: { name: 'Boreas Air', industryType: 'banking', headId: created.body.head!.id },
    });
    expect(renamed.status).toBe(200);
    expect((await list('page=1&search=zephyr')).total).toBe(0);

    const removed = await t.call(`/api/company/${created.body.id}`, { method: 'DELETE', token: admin });
    expect(removed.status).toBeLessThan(300);
    expect((await list('page=1')).total).toBe(total + 1);
  });

  it('answers every deep page by name with the rows OFFSET gives, both ways, before and after a change', async () => {
    const total = (await list('page=1')).total;
    const pages = [99, 100, 101, 200, 201, Math.ceil(total / 10)];
    const check = async () => {
      for (const direction of ['asc', 'desc'] as const) {
        const sort = { field: 'name' as CompanySortField, direction };
        for (const page of pages) {
          const answered = (await list(`page=${page}&sort=name,${direction}`)).items.map((company) => company.id);
          const walked = await pageCompanyIds(t.database.db, undefined, sort, 10, (page - 1) * 10);
          expect(answered, `${direction} page ${page}`).toEqual(walked);
          expect(answered.length).toBeGreaterThan(0);
        }
      }
    };
    await check();
    // A company named to sort first moves every later row down by one: the anchors are read again.
    const created = await t.call<Company>('/api/company', {
      method: 'POST',
      token: admin,
      json: newCompany('Aaa First'),
    });
    expect(created.status).toBe(201);
    await check();
  });
});
