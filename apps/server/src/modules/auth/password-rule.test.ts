import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startTestApp, type TestApp } from '../../../test/app';
import { createCompany, createDepartment, createRole, createUser, type TestCompany } from '../../../test/factories';
import { resetKeyFor } from '../../../test/mail';
import { ensureBuiltInRole } from '../roles/queries';

/**
 * The password rule (issue 19, docs/security.md, Passwords) on every call that sets a password:
 * a user registered, a company's head, a reset. Signing in never checks it.
 */

type ErrorBody = { key: string; message: string; fields?: Record<string, string> };

let t: TestApp;
let admin: string;
let north: TestCompany;
let northDept: { id: number };
let employeeRole: number;
/** A north role holding ADMIN_ACCESS_LEVEL: its holders need 12 characters. */
let adminLevelRole: number;
let seq = 0;
const unique = () => `${process.pid}-${++seq}`;

const GOOD = 'violet harbour lantern';
/** Nine characters zxcvbn scores 3 or more: long enough for anyone but an admin. */
const NINE = 'Xq7#vLm2p';
const REFUSED: [label: string, password: string, key: string][] = [
  ['a 7-character password', 'Qz9!kLm', 'ERROR_PASSWORD_TOO_SHORT'],
  ['7 emoji (14 UTF-16 units, 7 characters)', '🦊🐙🦉🐢🦜🐝🦔', 'ERROR_PASSWORD_TOO_SHORT'],
  ['a 129-character password', 'Vx3!qR8#mK2$'.repeat(11).slice(0, 129), 'ERROR_PASSWORD_TOO_LONG'],
  ['a 300-character password', 'k'.repeat(300), 'ERROR_PASSWORD_TOO_LONG'],
  ['a common password', 'password1234', 'ERROR_PASSWORD_TOO_COMMON'],
  ['a common password in capitals', 'ILOVEYOU', 'ERROR_PASSWORD_TOO_COMMON'],
  ['a keyboard row', 'qwertyuiop12', 'ERROR_PASSWORD_TOO_COMMON'],
];

beforeAll(async () => {
  t = await startTestApp();
  const db = t.database.db;
  admin = await t.login(ADMIN.email, ADMIN.password);
  north = await createCompany(db, { name: `North Passwords ${unique()}` });
  northDept = await createDepartment(db, north);
  employeeRole = await ensureBuiltInRole(db, north.tenantId, 'EMPLOYEE');
  adminLevelRole = (await createRole(db, north, ['ADMIN_ACCESS_LEVEL', 'VIEW_USER'], 'Auditor')).id;
});
afterAll(async () => {
  await t.close();
});

describe('POST /api/user/register', () => {
  function registration(password: string, overrides: Record<string, unknown> = {}) {
    const email = `person-${unique()}@example.test`;
    return {
      firstName: 'Ada',
      lastName: 'Lovelace',
      emailAddress: email,
      credential: { username: email, newPassword: password, confirmPassword: password },
      departmentId: northDept.id,
      groups: [employeeRole],
      companyId: north.id,
      ...overrides,
    };
  }
  const register = (json: unknown) => t.call<ErrorBody>('/api/user/register', { token: admin, json });

  it.each(REFUSED)('refuses %s with its key on the field', async (_label, password, key) => {
    const result = await register(registration(password));
    expect(result.status).toBe(400);
    expect(result.body).toMatchObject({ key, fields: { 'credential.newPassword': key } });
  });

  it("refuses a password built from the user's own name and e-mail", async () => {
    const result = await register(
      registration('maria.santos2024', { firstName: 'Maria', lastName: 'Santos', emailAddress: 'maria.santos@x.test' }),
    );
    expect(result.body).toMatchObject({
      key: 'ERROR_PASSWORD_TOO_COMMON',
      fields: { 'credential.newPassword': 'ERROR_PASSWORD_TOO_COMMON' },
    });
  });

  it('asks 12 characters when a role given holds ADMIN_ACCESS_LEVEL', async () => {
    const refused = await register(registration(NINE, { groups: [adminLevelRole], departmentId: null }));
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      key: 'ERROR_PASSWORD_ADMIN_TOO_SHORT',
      message: "An administrator's password must be at least 12 characters.",
      fields: { 'credential.newPassword': 'ERROR_PASSWORD_ADMIN_TOO_SHORT' },
    });
    const accepted = await register(registration(GOOD, { groups: [adminLevelRole], departmentId: null }));
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
  });

  it('accepts a good password, and nine characters for anyone else; the user signs in with it', async () => {
    const body = registration(NINE);
    expect((await register(body)).status).toBe(200);
    expect(await t.login(body.emailAddress, NINE)).toEqual(expect.any(String));
    const spaced = registration(` ${GOOD} `);
    expect((await register(spaced)).status).toBe(200);
    // Nothing is trimmed: the spaces are part of the password.
    expect(await t.login(spaced.emailAddress, ` ${GOOD} `)).toEqual(expect.any(String));
  });
});

describe('POST /api/company (the head)', () => {
  function company(password: string, head: Record<string, unknown> = {}) {
    const n = unique();
    return {
      name: `Password Co ${n}`,
      industryType: 'banking',
      head: {
        firstName: 'Grace',
        lastName: 'Hopper',
        emailAddress: `head-${n}@example.test`,
        credential: { username: 'ignored', newPassword: password, confirmPassword: password },
        ...head,
      },
    };
  }
  const create = (json: unknown) => t.call<ErrorBody>('/api/company', { method: 'POST', token: admin, json });

  it.each(REFUSED)('refuses %s with its key on the field', async (_label, password, key) => {
    const result = await create(company(password));
    expect(result.status).toBe(400);
    expect(result.body).toMatchObject({ key, fields: { 'head.credential.newPassword': key } });
  });

  it("refuses the head's own name as a password", async () => {
    const result = await create(company('gracehopper1', { emailAddress: `grace.hopper.${unique()}@example.test` }));
    expect(result.body).toMatchObject({ fields: { 'head.credential.newPassword': 'ERROR_PASSWORD_TOO_COMMON' } });
  });

  it('accepts nine characters: the Company Administrator role does not hold ADMIN_ACCESS_LEVEL', async () => {
    const body = company(NINE);
    const result = await create(body);
    expect(result.status, JSON.stringify(result.body)).toBe(201);
    expect(await t.login(body.head.emailAddress, NINE)).toEqual(expect.any(String));
  });
});

describe('POST /api/user/reset-password', () => {
  const reset = (newPassword: string, resetPasswordKey: string) =>
    t.call<ErrorBody>('/api/user/reset-password', { json: { newPassword, resetPasswordKey } });

  it('refuses short, long and common passwords, and the key still works for a good one', async () => {
    const user = await createUser(t.database.db, { company: north, role: 'EMPLOYEE' });
    const key = await resetKeyFor(t, user.email);
    for (const [label, password, errorKey] of REFUSED) {
      const result = await reset(password, key);
      expect(result.status, label).toBe(400);
      expect(result.body, label).toMatchObject({ key: errorKey, fields: { newPassword: errorKey } });
    }
    const localPart = user.email.split('@')[0]!;
    expect((await reset(`${localPart}!`, key)).body).toMatchObject({ key: 'ERROR_PASSWORD_TOO_COMMON' });

    expect((await reset(NINE, key)).status).toBe(200);
    expect(await t.login(user.email, NINE)).toEqual(expect.any(String));
  });

  it('asks 12 characters of a user holding ADMIN_ACCESS_LEVEL and of a provider administrator', async () => {
    const auditor = await createUser(t.database.db, { company: north, authorities: ['ADMIN_ACCESS_LEVEL'] });
    const provider = await createUser(t.database.db, { company: null, role: 'PROVIDER_ADMINISTRATOR' });
    for (const user of [auditor, provider]) {
      const key = await resetKeyFor(t, user.email);
      const refused = await reset(NINE, key);
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({
        key: 'ERROR_PASSWORD_ADMIN_TOO_SHORT',
        fields: { newPassword: 'ERROR_PASSWORD_ADMIN_TOO_SHORT' },
      });
      expect((await reset(GOOD, key)).status).toBe(200);
      expect(await t.login(user.email, GOOD)).toEqual(expect.any(String));
    }
  });

  it('answers an unusable key before judging the password', async () => {
    const result = await reset(GOOD, 'no-such-key');
    expect(result.body).toMatchObject({ key: 'ERROR_RESET_PASSWORD_FORM_INVALID' });
  });
});

describe('passwords set before the rule', () => {
  it('keep working: signing in does not judge the password', async () => {
    for (const password of ['x', 'password', 'qwerty12']) {
      const user = await createUser(t.database.db, { company: north, password });
      expect(await t.login(user.email, password)).toEqual(expect.any(String));
    }
    const provider = await createUser(t.database.db, {
      company: null,
      role: 'PROVIDER_ADMINISTRATOR',
      password: '1234',
    });
    expect(await t.login(provider.email, '1234')).toEqual(expect.any(String));
  });
});
