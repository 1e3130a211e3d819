import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startTestApp, type TestApp } from '../../test/app';
import { createCompany, createDepartment, createUser, type TestCompany } from '../../test/factories';
import { signInCompanyHead } from '../../test/sign-in';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { registerAccessControl } from './access';
import { loggerSerializers, redactUrl } from './logging';

let t: TestApp;
let north: TestCompany;
let south: TestCompany;
let adminToken: string;
let headToken: string;
let employeeToken: string;

beforeAll(async () => {
  t = await startTestApp();
  const { db } = t.database;
  north = await createCompany(db, { name: 'North Co' });
  south = await createCompany(db, { name: 'South Co' });
  headToken = (await signInCompanyHead(t, north)).token;
  const department = await createDepartment(db, north, { name: 'Claims' });
  const employee = await createUser(db, { company: north, role: 'EMPLOYEE', departmentId: department.id });
  adminToken = await t.login(ADMIN.email, ADMIN.password);
  employeeToken = await t.login(employee.email, employee.password);
});
afterAll(async () => {
  await t.close();
});

describe('X-Tenant-Id', () => {
  it('lets an admin act on an existing company', async () => {
    const result = await t.call('/api/test', { token: adminToken, tenantId: south.tenantId });
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ tenantId: south.tenantId });
  });

  it('answers an admin naming an unknown or malformed tenant with 404', async () => {
    for (const tenantId of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      const result = await t.call('/api/test', { token: adminToken, tenantId });
      expect(result.status).toBe(404);
      expect(result.body).toMatchObject({ key: 'ERROR_COMPANY_NOT_EXIST' });
    }
  });

  it('refuses a company user who names another company', async () => {
    const result = await t.call('/api/company', { token: headToken, tenantId: south.tenantId });
    expect(result.status).toBe(403);
    expect(result.body).toMatchObject({ key: 'ERROR_TENANT_FORBIDDEN' });
  });

  it('accepts a company user naming their own company', async () => {
    const result = await t.call('/api/test', { token: headToken, tenantId: north.tenantId });
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ tenantId: north.tenantId });
  });
});

describe('authorities', () => {
  it('refuses a user without the authority a route names (403)', async () => {
    const result = await t.call('/api/company', { token: employeeToken });
    expect(result.status).toBe(403);
    expect(result.body).toMatchObject({ key: 'ERROR_FORBIDDEN' });
    expect((await t.call('/api/industry-type', { token: employeeToken })).status).toBe(403);
  });

  it('asks for a session before authorities (401)', async () => {
    expect((await t.call('/api/company')).status).toBe(401);
    expect((await t.call('/api/user/profile/current-user')).status).toBe(401);
  });

  it('refuses at start-up a route that declares no access', async () => {
    const app = Fastify();
    registerAccessControl(app, {
      appKeys: new Set(['k']),
      resolveCaller: async () => null,
      resolveTenant: async () => null,
      openPrefixes: [],
    });
    expect(() => app.get('/api/forgotten', async () => 'open')).toThrow(/declares no access/);
    // Declared routes and paths outside /api are fine.
    expect(() => app.get('/api/declared', { config: { access: { kind: 'session' } } }, async () => 'ok')).not.toThrow();
    expect(() => app.get('/outside', async () => 'page')).not.toThrow();
  });
});

describe('GET /api/company', () => {
  it('lists every company for the provider admin', async () => {
    const result = await t.call<{ name: string }[]>('/api/company', { token: adminToken });
    expect(result.status).toBe(200);
    expect(result.body.map((company) => company.name)).toEqual(['North Co', 'South Co']);
  });

  it('lists only their own company for a company head, whatever the tenant header', async () => {
    const result = await t.call<{ name: string; head: { completeName: string } | null }[]>('/api/company', {
      token: headToken,
    });
    expect(result.status).toBe(200);
    expect(result.body).toHaveLength(1);
    expect(result.body[0]).toMatchObject({
      name: 'North Co',
      industryType: { key: 'banking' },
      head: { completeName: expect.stringMatching(/^Test User/) },
    });
  });

  it('lists the industry types', async () => {
    const result = await t.call<{ key: string; name: string }[]>('/api/industry-type', { token: headToken });
    expect(result.status).toBe(200);
    expect(result.body.length).toBeGreaterThanOrEqual(3);
    expect(result.body[0]).toEqual({ key: expect.any(String), name: expect.any(String) });
  });
});

describe('GET /api/user/profile/current-user', () => {
  it('gives the provider admin every authority and no company', async () => {
    const result = await t.call<{ auths: string[]; company: unknown }>('/api/user/profile/current-user', {
      token: adminToken,
    });
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({
      completeName: 'Provider Administrator',
      fullName: 'Provider Administrator',
      tenantId: null,
      company: null,
    });
    expect(result.body.auths).toContain('ADMIN_ACCESS_LEVEL');
    expect(result.body.auths).toContain('ACCESS_COMPANY_TAB');
  });

  it('gives an employee their company, department and role authorities', async () => {
    const result = await t.call<{ auths: string[] }>('/api/user/profile/current-user', { token: employeeToken });
    expect(result.body).toMatchObject({
      tenantId: north.tenantId,
      company: { id: north.id, name: 'North Co', tenantId: north.tenantId },
      department: { name: 'Claims' },
    });
    expect(result.body.auths).toContain('ACCESS_WORKFLOW_TAB');
    expect(result.body.auths).not.toContain('ADMIN_ACCESS_LEVEL');
  });
});

describe('logs', () => {
  it('redacts credentials and reset keys from logged URLs', () => {
    expect(redactUrl('/api/login?username=a%40b.c&password=hunter2')).toBe(
      '/api/login?username=%5BREDACTED%5D&password=%5BREDACTED%5D',
    );
    expect(redactUrl('/login?resetPasswordKey=abc123')).not.toContain('abc123');
    expect(redactUrl('/api/user/reset-password?newPassword=x&resetPasswordKey=y')).not.toMatch(/=x|=y/);
    expect(redactUrl('/api/company?page=2')).toBe('/api/company?page=2');
  });

  it('writes no password into the request log of a query-form sign-in', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const app = await buildApp({
      config: loadConfig({ DATA_DIR: t.dataDir, DEMO: '0' }),
      database: t.database,
      logger: { level: 'info', stream, serializers: loggerSerializers },
    });
    const response = await app.inject({
      method: 'POST',
      url: `/api/login?username=${encodeURIComponent(ADMIN.email)}&password=${encodeURIComponent(ADMIN.password)}`,
      headers: { 'x-app-key': 'opsdeck-console' },
    });
    expect(response.statusCode).toBe(200);
    const token = response.json<{ token: string }>().token;
    await app.close();
    const log = lines.join('');
    expect(log).toContain('/api/login');
    expect(log).not.toContain(ADMIN.password);
    expect(log).not.toContain(token);
  });
});
