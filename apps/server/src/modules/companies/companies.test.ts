import type { Company } from '@opsdeck/contract/companies';
import type { Page } from '@opsdeck/contract/paging';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectHiddenFromOtherTenant, expectRefusedWithoutAuthority } from '../../../test/access-table';
import { ADMIN, startTestApp, type TestApp } from '../../../test/app';
import {
  createCompany,
  createCompanyHead,
  createDepartment,
  createUser,
  type TestCompany,
} from '../../../test/factories';
import { signInCompanyHead, tokenWithEveryAuthority } from '../../../test/sign-in';
import { departments, licenses, roles, users } from '../../db/schema';

let t: TestApp;
let admin: string;
let sequence = 0;
const unique = (prefix: string) => `${prefix} ${process.pid}-${++sequence}`;

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.login(ADMIN.email, ADMIN.password);
});

afterAll(async () => {
  await t.close();
});

const PASSWORD = 'a long enough secret';

function newCompany(overrides: Record<string, unknown> = {}, head: Record<string, unknown> = {}) {
  const name = unique('Northwind');
  return {
    name,
    industryType: 'banking',
    head: {
      firstName: 'Grace',
      lastName: 'Hopper',
      emailAddress: `head-${sequence}-${process.pid}@example.test`,
      credential: { username: 'ignored', newPassword: PASSWORD, confirmPassword: PASSWORD },
      ...head,
    },
    ...overrides,
  };
}

const create = (json: unknown, token = admin) => t.call<Company>('/api/company', { method: 'POST', token, json });

async function addLicense(companyId: number) {
  await t.database.db.insert(licenses).values({
    companyId,
    tenantId: null,
    typeKey: 'pro',
    issueDate: Date.now(),
    expirationDate: Date.now() + 86_400_000,
    maxAccounts: 5,
  });
}

describe('creating a company', () => {
  it('creates the company and its head, who signs in as its Company Administrator', async () => {
    const body = newCompany();
    const created = await create(body);
    expect(created).toMatchObject({
      status: 201,
      body: {
        name: body.name,
        industryType: { key: 'banking' },
        head: {
          firstName: 'Grace',
          lastName: 'Hopper',
          completeName: 'Grace Hopper',
          emailAddress: body.head.emailAddress,
        },
        license: null,
      },
    });
    const headToken = await t.login(body.head.emailAddress, PASSWORD);
    const profile = await t.call<{ auths: string[]; company: { id: number } }>('/api/user/profile/current-user', {
      token: headToken,
    });
    expect(profile.body.company.id).toBe(created.body.id);
    expect(profile.body.auths).toContain('ACCESS_COMPANY_LICENSE_PAGE');
    expect(profile.body.auths).not.toContain('ADMIN_ACCESS_LEVEL');
    // The head reads their own company, and only it.
    expect((await t.call<Company>(`/api/company/${created.body.id}`, { token: headToken })).body.name).toBe(body.name);
    expect((await t.call<Company[]>('/api/company', { token: headToken })).body.map((c) => c.id)).toEqual([
      created.body.id,
    ]);
    // The built-in roles of a new tenant are there, protected.
    const tenantRoles = await t.database.db.select().from(roles).where(eq(roles.tenantId, created.body.tenantId));
    expect(tenantRoles.map((role) => role.builtIn).sort()).toEqual([
      'COMPANY_ADMINISTRATOR',
      'DEPARTMENT_HEAD',
      'EMPLOYEE',
    ]);
  });

  it('answers every rule of spec section 5 with its key on its field', async () => {
    const long = 'x'.repeat(256);
    const cases: [unknown, string, string][] = [
      [newCompany({ name: '  ' }), 'ERROR_COMPANY_NAME_REQUIRED', 'name'],
      [newCompany({ name: long }), 'ERROR_COMPANY_NAME_TOO_LONG', 'name'],
      [newCompany({ name: 'Acme: East' }), 'ERROR_COMPANY_NAME_INVALID', 'name'],
      [newCompany({ name: 'Acme Inc.' }), 'ERROR_COMPANY_NAME_INVALID', 'name'],
      [newCompany({ industryType: '' }), 'ERROR_COMPANY_INDUSTRY_REQUIRED', 'industryType'],
      [newCompany({ industryType: 'mining-on-mars' }), 'ERROR_COMPANY_INDUSTRY_INVALID', 'industryType'],
      [newCompany({}, { firstName: '' }), 'ERROR_USER_FIRST_NAME_REQUIRED', 'head.firstName'],
      [newCompany({}, { lastName: long }), 'ERROR_USER_LAST_NAME_TOO_LONG', 'head.lastName'],
      [newCompany({}, { emailAddress: 'a@b@c' }), 'ERROR_USER_EMAIL_INVALID', 'head.emailAddress'],
      [newCompany({}, { emailAddress: '' }), 'ERROR_USER_EMAIL_REQUIRED', 'head.emailAddress'],
      [
        newCompany({}, { credential: { newPassword: '', confirmPassword: '' } }),
        'ERROR_USER_PASSWORD_REQUIRED',
        'head.credential.newPassword',
      ],
      [
        newCompany({}, { credential: { newPassword: PASSWORD, confirmPassword: 'other' } }),
        'ERROR_USER_PASSWORD_MISMATCH',
        'head.credential.confirmPassword',
      ],
    ];
    for (const [json, key, field] of cases) {
      const answer = await create(json);
      expect(answer.status, key).toBeGreaterThanOrEqual(400);
      expect(answer.status, key).toBeLessThan(500);
      expect((answer.body as unknown as { fields: Record<string, string> }).fields?.[field], key).toBe(key);
    }
  });

  it('refuses a duplicate name (any case) and an e-mail already used, creating nothing', async () => {
    const first = newCompany();
    expect((await create(first)).status).toBe(201);
    expect(await create(newCompany({ name: first.name.toUpperCase() }))).toMatchObject({
      status: 409,
      body: { key: 'ERROR_COMPANY_NAME_DUPLICATE', fields: { name: 'ERROR_COMPANY_NAME_DUPLICATE' } },
    });
    const again = newCompany({}, { emailAddress: first.head.emailAddress.toUpperCase() });
    expect(await create(again)).toMatchObject({
      status: 409,
      body: { key: 'ERROR_COMPANY_EMAIL_DUPLICATE', fields: { 'head.emailAddress': 'ERROR_COMPANY_EMAIL_DUPLICATE' } },
    });
    expect((await t.call(`/api/company/find-by-name/${encodeURIComponent(again.name)}`, { token: admin })).status).toBe(
      404,
    );
  });

  it('gives one company, not two, to two creations racing for one name', async () => {
    const name = unique('Racing');
    const answers = await Promise.all(
      [1, 2, 3].map((n) => create(newCompany({ name }, { emailAddress: `race-${n}-${sequence}@example.test` }))),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409, 409]);
    const found = await t.call<Company>(`/api/company/find-by-name/${encodeURIComponent(name.toLowerCase())}`, {
      token: admin,
    });
    expect(found).toMatchObject({ status: 200, body: { name } });
  });
});

describe('editing a company', () => {
  it('changes the name, industry and head; the head must be one of its own users', async () => {
    const created = (await create(newCompany())).body;
    const company: TestCompany = { id: created.id, tenantId: created.tenantId, name: created.name };
    const member = await createUser(t.database.db, { company });
    const name = unique('Renamed');
    const updated = await t.call<Company>(`/api/company/${created.id}`, {
      method: 'PUT',
      token: admin,
      json: { name, industryType: { key: 'healthcare' }, headId: member.id },
    });
    expect(updated).toMatchObject({ status: 200, body: { name, industryType: { key: 'healthcare' } } });
    expect(updated.body.head?.id).toBe(member.id);

    const stranger = await createUser(t.database.db, { company: await createCompany(t.database.db) });
    for (const headId of [stranger.id, 2_000_000_000]) {
      expect(
        await t.call(`/api/company/${created.id}`, {
          method: 'PUT',
          token: admin,
          json: { name, industryType: 'banking', headId },
        }),
      ).toMatchObject({
        status: 400,
        body: { key: 'ERROR_COMPANY_HEAD_INVALID', fields: { headId: 'ERROR_COMPANY_HEAD_INVALID' } },
      });
    }
    expect(
      await t.call(`/api/company/${created.id}`, {
        method: 'PUT',
        token: admin,
        json: { name, industryType: 'banking' },
      }),
    ).toMatchObject({ status: 400, body: { fields: { headId: 'ERROR_COMPANY_HEAD_REQUIRED' } } });
    expect(
      await t.call('/api/company/2000000000', {
        method: 'PUT',
        token: admin,
        json: { name: unique('X'), industryType: 'banking', headId: member.id },
      }),
    ).toMatchObject({ status: 404, body: { key: 'ERROR_COMPANY_NOT_EXIST' } });
  });
});

describe('deleting a company', () => {
  it('is refused while it has licences, then takes the whole tenant; its users can no longer sign in', async () => {
    const body = newCompany();
    const created = (await create(body)).body;
    const company: TestCompany = { id: created.id, tenantId: created.tenantId, name: created.name };
    const department = await createDepartment(t.database.db, company);
    const headToken = await t.login(body.head.emailAddress, PASSWORD);
    await addLicense(created.id);

    expect(await t.call(`/api/company/${created.id}`, { method: 'DELETE', token: admin })).toMatchObject({
      status: 409,
      body: { key: 'ERROR_COMPANY_HAS_LICENSE' },
    });
    await t.database.db.delete(licenses).where(eq(licenses.companyId, created.id));

    // A tenant header naming another company is refused.
    const other = await createCompany(t.database.db);
    expect(
      (await t.call(`/api/company/${created.id}`, { method: 'DELETE', token: admin, tenantId: other.tenantId })).status,
    ).toBe(404);

    expect(
      await t.call(`/api/company/${created.id}`, { method: 'DELETE', token: admin, tenantId: created.tenantId }),
    ).toMatchObject({ status: 200, body: { ok: true } });
    expect((await t.call(`/api/company/${created.id}`, { token: admin })).status).toBe(404);
    expect(await t.database.db.select().from(users).where(eq(users.companyId, created.id))).toEqual([]);
    expect(await t.database.db.select().from(departments).where(eq(departments.id, department.id))).toEqual([]);
    expect(await t.database.db.select().from(roles).where(eq(roles.tenantId, created.tenantId))).toEqual([]);
    // The head's open session ends with the company, and their password opens nothing.
    expect((await t.call('/api/user/profile/current-user', { token: headToken })).status).toBe(401);
    const login = await t.call('/api/login', {
      method: 'POST',
      json: { username: body.head.emailAddress, password: PASSWORD },
    });
    expect(login.status).toBe(401);
  });
});

describe('the companies table', () => {
  it('pages, sorts and searches on the server: name, head first or last name, industry', async () => {
    const marker = unique('Zyx');
    for (const [suffix, first, last, industry] of [
      ['Alpha', 'Quinn', 'Adler', 'banking'],
      ['Beta', 'Ulla', 'Zorn', 'healthcare'],
      ['Gamma', 'Ida', 'Moss', 'banking'],
    ] as const) {
      await create(
        newCompany({ name: `${marker} ${suffix}`, industryType: industry }, { firstName: first, lastName: last }),
      );
    }
    const page = (query: string) =>
      t.call<Page<Company>>(`/api/company?page=1&size=2&${query}`, { token: admin }).then((answer) => answer.body);

    const byName = await page(`search=${encodeURIComponent(marker)}&sort=name,desc`);
    expect(byName.total).toBe(3);
    expect(byName.items.map((company) => company.name)).toEqual([`${marker} Gamma`, `${marker} Beta`]);
    const second = await t.call<Page<Company>>(
      `/api/company?page=2&size=2&search=${encodeURIComponent(marker)}&sort=name,desc`,
      { token: admin },
    );
    expect(second.body.items.map((company) => company.name)).toEqual([`${marker} Alpha`]);

    const byHead = await page(`search=${encodeURIComponent(marker)}&sort=head`);
    expect(byHead.items.map((company) => company.head?.firstName)).toEqual(['Ida', 'Quinn']);

    // The head's last name alone finds the company; so does the industry's name.
    const zorn = await page('search=zorn');
    expect(zorn.items.map((company) => company.name)).toContain(`${marker} Beta`);
    const health = await t.call<Page<Company>>('/api/company?page=1&size=100&search=HEALTH', { token: admin });
    expect(health.body.items.every((company) => company.industryType.key === 'healthcare')).toBe(true);
    expect(health.body.items.map((company) => company.name)).toContain(`${marker} Beta`);

    // Without `page`, the plain array of the spec.
    const all = await t.call<Company[]>('/api/company', { token: admin });
    expect(Array.isArray(all.body)).toBe(true);
    expect((await t.call('/api/company?page=1&sort=founded', { token: admin })).status).toBe(400);
  });

  it('shows on each company the licence that runs longest, not an invalidated one', async () => {
    const created = (await create(newCompany())).body;
    const now = Date.now();
    await t.database.db.insert(licenses).values([
      { companyId: created.id, typeKey: 'pro', issueDate: now, expirationDate: now + 10_000_000, maxAccounts: 5 },
      {
        companyId: created.id,
        typeKey: 'enterprise',
        issueDate: now,
        expirationDate: now + 20_000_000,
        maxAccounts: 5,
      },
      {
        companyId: created.id,
        typeKey: 'pro',
        issueDate: now,
        expirationDate: now + 90_000_000,
        maxAccounts: 5,
        invalidatedAt: now,
      },
    ]);
    const company = await t.call<Company>(`/api/company/${created.id}`, { token: admin });
    expect(company.body.license).toMatchObject({ type: { key: 'enterprise' }, expirationDate: now + 20_000_000 });
  });
});

describe('who may do what', () => {
  it('refuses every call to a user without its authority, and every write to a company user', async () => {
    const company = await createCompany(t.database.db);
    const member = await createUser(t.database.db, { company });
    const json = newCompany();
    await expectRefusedWithoutAuthority(t, company, [
      {
        method: 'GET',
        path: '/api/company',
        authorities: ['VIEW_COMPANY', 'ACCESS_COMPANY_TAB', 'ACCESS_COMPANY_LICENSE_PAGE', 'ADMIN_ACCESS_LEVEL'],
      },
      {
        method: 'GET',
        path: `/api/company/${company.id}`,
        authorities: ['VIEW_COMPANY', 'ACCESS_COMPANY_TAB', 'ACCESS_COMPANY_LICENSE_PAGE', 'ADMIN_ACCESS_LEVEL'],
      },
      {
        method: 'GET',
        path: `/api/company/find-by-name/${encodeURIComponent(company.name)}`,
        authorities: [
          'VIEW_COMPANY',
          'ACCESS_COMPANY_TAB',
          'ACCESS_COMPANY_LICENSE_PAGE',
          'ADMIN_ACCESS_LEVEL',
          'CREATE_COMPANY',
        ],
      },
      { method: 'POST', path: '/api/company', json, authorities: ['CREATE_COMPANY'] },
      {
        method: 'PUT',
        path: `/api/company/${company.id}`,
        json: { name: company.name, industryType: 'banking', headId: member.id },
        authorities: ['EDIT_COMPANY'],
      },
      { method: 'DELETE', path: `/api/company/${company.id}`, authorities: ['DELETE_COMPANY'] },
      {
        method: 'GET',
        path: '/api/industry-type',
        authorities: ['VIEW_COMPANY', 'CREATE_COMPANY', 'EDIT_COMPANY', 'ACCESS_COMPANY_TAB'],
      },
    ]);

    // A company user holding every authority still creates, edits and deletes no company, not even its own.
    const everything = await tokenWithEveryAuthority(t, company);
    const writes = [
      { method: 'POST', path: '/api/company', json: newCompany() },
      {
        method: 'PUT',
        path: `/api/company/${company.id}`,
        json: { name: company.name, industryType: 'banking', headId: member.id },
      },
      { method: 'DELETE', path: `/api/company/${company.id}` },
    ] as const;
    for (const write of writes) {
      expect((await t.call(write.path, { ...write, token: everything })).status, write.method).toBe(403);
    }
    expect((await t.call(`/api/company/${company.id}`, { token: admin })).status).toBe(200);
  });

  it('hides a company from the users of another', async () => {
    const owner = await createCompany(t.database.db);
    await createCompanyHead(t.database.db, owner);
    const other = await createCompany(t.database.db);
    const { token: stranger } = await signInCompanyHead(t, other);
    await expectHiddenFromOtherTenant(t, stranger, owner.tenantId, [
      { method: 'GET', path: `/api/company/${owner.id}`, authorities: [] },
      { method: 'GET', path: `/api/company/find-by-name/${encodeURIComponent(owner.name)}`, authorities: [] },
    ]);
    const list = await t.call<Page<Company>>(`/api/company?page=1&search=${encodeURIComponent(owner.name)}`, {
      token: stranger,
    });
    expect(list.body).toMatchObject({ total: 0, items: [] });
  });
});
