import { CONSOLE_APP_KEY, HEADERS } from '@opsdeck/contract/http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startTestApp, type TestApp } from '../../test/app';
import { createCompany, createCompanyHead, createDepartment, createUser } from '../../test/factories';
import { bodyExcerpt, hostileRequest, type OpenApi, seededRandom } from '../../test/hostile-values';
import { insertSession } from '../modules/auth/queries';
import { digest, newSecret } from './tokens';

/**
 * No input makes a 5xx (issue 7). Every operation of the server's own OpenAPI document gets
 * hostile values from a fixed seed, as the provider admin and as a company head, so an area added
 * later is covered the day it lands. Bodies come as JSON, broken JSON, form fields, the wrong
 * content type and bytes that are not UTF-8; an admin's X-Tenant-Id is now and then
 * garbage. A 5xx is the server's fault, whatever the client sent.
 */
/**
 * 50 a caller on PGlite. On PostgreSQL, 15, from another seed: the same engine answers the same
 * values the same way, and what differs there (the pool, its connections' scope) is met by every
 * request; the run's time goes to the suite's budget (docs/performance.md, "The test suite").
 */
const ON_POSTGRES = process.env.TEST_DB === 'postgres';
const REQUESTS_PER_CALLER = ON_POSTGRES ? 15 : 50;
const SEED = ON_POSTGRES ? 11 : 7;

let t: TestApp;
let doc: OpenApi;
let tenantId: string;
let adminId: number;
let headId: number;

beforeAll(async () => {
  t = await startTestApp();
  // Hostile requests name ids 1 to 5 too, and the admin may delete a company: those are spares,
  // so the company the callers belong to outlives the run.
  for (let spare = 1; spare <= 5; spare += 1) await createCompany(t.database.db, { name: `Spare ${spare}` });
  const company = await createCompany(t.database.db, { name: 'Hostile Input Co' });
  tenantId = company.tenantId;
  const department = await createDepartment(t.database.db, company, { name: 'Target Desk' });
  const head = await createCompanyHead(t.database.db, company, department.id);
  headId = head.id;
  await createUser(t.database.db, { company, role: 'EMPLOYEE', departmentId: department.id });
  const admin = await t.call<{ id: number }>('/api/user/profile/current-user', {
    token: await t.login(ADMIN.email, ADMIN.password),
  });
  adminId = admin.body.id;
  doc = (await t.call<OpenApi>('/api/openapi.json')).body;
});

afterAll(async () => {
  await t?.close();
});

/**
 * A fresh session per operation, written straight to the database: a hostile logout or password
 * change must not blind the operations after it, and hostile sign-ins must not throttle ours.
 */
async function sessionOf(userId: number) {
  const token = newSecret();
  await insertSession(t.database.db, { userId, tokenHash: digest(token), expiresAt: Date.now() + 3_600_000 });
  return token;
}

const operations = () =>
  Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.keys(methods)
      .filter((method) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
      .map((method) => ({ path, method })),
  );

describe('hostile input', () => {
  it('reads an OpenAPI document that lists the API', () => {
    expect(operations().length).toBeGreaterThan(30);
    expect(operations()).toContainEqual({ path: '/api/department/{id}', method: 'delete' });
  });

  it('answers every operation without a 5xx, as the admin and as a company head', async () => {
    const random = seededRandom(SEED);
    const failures: string[] = [];
    const answered = new Map<string, number>();
    for (const { path, method } of operations()) {
      const callers = [
        { name: 'admin', token: await sessionOf(adminId), tenant: undefined as string | undefined },
        { name: 'admin+tenant', token: await sessionOf(adminId), tenant: tenantId },
        { name: 'company head', token: await sessionOf(headId), tenant: undefined },
      ];
      for (const caller of callers) {
        const count = caller.name === 'admin+tenant' ? REQUESTS_PER_CALLER / 5 : REQUESTS_PER_CALLER;
        for (let i = 0; i < count; i += 1) {
          const request = hostileRequest(doc, method, path, random);
          const headers: Record<string, string> = {
            [HEADERS.appKey]: CONSOLE_APP_KEY,
            [HEADERS.authToken]: caller.token,
          };
          if (caller.tenant) headers[HEADERS.tenantId] = caller.tenant;
          if (request.contentType) headers['content-type'] = request.contentType;
          Object.assign(headers, request.headers);
          const response = await fetch(t.baseUrl + request.path, {
            method: request.method,
            headers,
            ...(request.body !== undefined ? { body: request.body } : {}),
          });
          const text = await response.text();
          const key = `${method.toUpperCase()} ${path}`;
          answered.set(key, (answered.get(key) ?? 0) + 1);
          if (response.status >= 500) {
            failures.push(
              `${caller.name}: ${request.method} ${request.path.slice(0, 200)} ${bodyExcerpt(request.body)} -> ${response.status} ${text.slice(0, 200)}`,
            );
          }
        }
      }
    }
    expect(failures, failures.join('\n')).toEqual([]);
    // Each operation was really exercised, by every caller.
    for (const { path, method } of operations()) {
      expect(answered.get(`${method.toUpperCase()} ${path}`)).toBeGreaterThanOrEqual(REQUESTS_PER_CALLER * 2);
    }
    // Still up and still answering properly after all of it.
    expect((await t.call('/api/health')).status).toBe(200);
    expect((await t.call('/api/user/profile/current-user', { token: await sessionOf(headId) })).status).toBe(200);
  }, 300_000);
});
