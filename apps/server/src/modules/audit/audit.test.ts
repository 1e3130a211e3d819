import type { AuditRecord } from '@opsdeck/contract/audit';
import { AUTHORITY_KEYS } from '@opsdeck/contract/authorities';
import type { Page } from '@opsdeck/contract/paging';
import type { Role } from '@opsdeck/contract/roles';
import { sql } from 'drizzle-orm';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Endpoint, expectHiddenFromOtherTenant, expectRefusedWithoutAuthority } from '../../../test/access-table';
import { ADMIN, startTestApp, type TestApp } from '../../../test/app';
import { createCompany, createUser, type TestCompany } from '../../../test/factories';
import { signInCompanyHead, tokenFor } from '../../../test/sign-in';
import { access } from '../../platform/access';
import { audit, registerAudit } from '../../platform/audit';
import { asOwner, EVERY_TENANT } from '../../platform/tenancy';
import { createUnitOfWork } from '../../platform/unit-of-work';
import { deleteAuditBefore } from './queries';

let t: TestApp;
let admin: string;
let north: TestCompany;
let south: TestCompany;
let northHead: { id: number; token: string };
let southHead: { id: number; token: string };

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.login(ADMIN.email, ADMIN.password);
  north = await createCompany(t.database.db, { name: 'North Audit' });
  south = await createCompany(t.database.db, { name: 'South Audit' });
  northHead = await signInCompanyHead(t, north);
  southHead = await signInCompanyHead(t, south);
});
afterAll(async () => {
  await t.close();
});

async function records(token: string, query: Record<string, string | number> = {}, tenantId?: string) {
  const params = new URLSearchParams(Object.entries({ size: 100, ...query }).map(([k, v]) => [k, String(v)]));
  const result = await t.call<Page<AuditRecord>>(`/api/audit?${params}`, { token, tenantId });
  expect(result.status, JSON.stringify(result.body)).toBe(200);
  return result.body;
}

async function createRole(token: string, name: string) {
  const result = await t.call<Role>('/api/usergroup', {
    token,
    json: { name, newAuthorityName: ['VIEW_USER', 'ACCESS_USER_TAB'] },
  });
  expect(result.status, JSON.stringify(result.body)).toBe(200);
  return result.body;
}

/** The database's own message of a refused statement (Drizzle wraps it as the error's cause). */
const refusal = (query: Promise<unknown>) =>
  query.then(
    () => 'not refused',
    (error: Error & { cause?: Error }) => error.cause?.message ?? error.message,
  );

/** Every text the audit table holds, as one string: for searching secrets in it. */
async function wholeAuditTable() {
  const rows = await t.database.db.execute(sql`select row_to_json(a)::text as line from audit_log a`);
  return ((rows as unknown as { rows: { line: string }[] }).rows ?? []).map((row) => row.line).join('\n');
}

describe('a change and its record', () => {
  it('records who changed what, from where, with the fields before and after', async () => {
    const role = await createRole(northHead.token, 'Auditors');
    const updated = await t.call(`/api/usergroup/${role.id}`, {
      method: 'PUT',
      token: northHead.token,
      json: { name: 'Senior auditors', newAuthorityName: ['VIEW_USER'] },
      headers: { 'user-agent': 'audit-test/1.0' },
    });
    expect(updated.status).toBe(200);

    const page = await records(northHead.token, { entityType: 'role', entityId: role.id });
    expect(page.items.map((record) => record.action)).toEqual(['role.update', 'role.create']);
    const [update] = page.items;
    expect(update).toMatchObject({
      actor: { type: 'user', id: northHead.id },
      tenantId: north.tenantId,
      companyName: 'North Audit',
      entityType: 'role',
      entityId: String(role.id),
      entityName: 'Senior auditors',
      userAgent: 'audit-test/1.0',
    });
    expect(update!.address).toMatch(/127\.0\.0\.1|::1/);
    expect(update!.actor.name).toMatch(/^Test User/);
    expect(update!.changes).toContainEqual({ field: 'name', before: 'Auditors', after: 'Senior auditors' });
    const one = await t.call<AuditRecord>(`/api/audit/${update!.id}`, { token: northHead.token });
    expect(one.body).toEqual(update);
  });

  it("records a user's edit with the fields as they were before it, read by the service itself", async () => {
    const user = await createUser(t.database.db, { company: north });
    const role = await createRole(northHead.token, 'Edited staff');
    const edited = await t.call(`/api/user/updateUser/${user.id}`, {
      method: 'PUT',
      token: northHead.token,
      json: { firstName: 'Edited', lastName: 'Person', groups: [role.id] },
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);

    const [update] = (await records(northHead.token, { action: 'user.update', entityId: user.id })).items;
    expect(update).toMatchObject({ entityType: 'user', entityId: String(user.id), entityName: 'Edited Person' });
    expect(update!.changes).toContainEqual({ field: 'firstName', before: 'Test', after: 'Edited' });
    expect(update!.changes).toContainEqual({ field: 'displayGroups', before: 'Employee', after: 'Edited staff' });
  });

  it('leaves no record of a write that fails', async () => {
    await createRole(northHead.token, 'Only once');
    const before = (await records(northHead.token, { action: 'role.create' })).total;
    const again = await t.call('/api/usergroup', {
      token: northHead.token,
      json: { name: 'Only once', newAuthorityName: ['VIEW_USER'] },
    });
    expect(again.status).toBe(409);
    expect((await records(northHead.token, { action: 'role.create' })).total).toBe(before);
  });

  it('leaves no change without its record: a record that cannot be written undoes the change', async () => {
    const db = t.database.db;
    // Schema changes are the owner's (docs/tenancy.md).
    await asOwner(async () => {
      await db.execute(sql`create function refuse_audit() returns trigger language plpgsql as $$
        begin raise exception 'no audit today'; end $$`);
      await db.execute(
        sql`create trigger refuse_audit before insert on audit_log for each row execute function refuse_audit()`,
      );
    });
    try {
      const result = await t.call('/api/usergroup', {
        token: northHead.token,
        json: { name: 'Unrecorded', newAuthorityName: ['VIEW_USER'] },
      });
      expect(result.status).toBe(500);
    } finally {
      await asOwner(async () => {
        await db.execute(sql`drop trigger refuse_audit on audit_log`);
        await db.execute(sql`drop function refuse_audit()`);
      });
    }
    const roles = await t.call<Role[]>('/api/usergroup/findAllActive', { token: northHead.token });
    expect(roles.body.map((role) => role.name)).not.toContain('Unrecorded');
  });

  it('records a sign-in, a failed one under the name tried, and a sign-out', async () => {
    const user = await createUser(t.database.db, { company: north, email: 'signer@north.test' });
    await t.call('/api/login', { json: { username: 'signer@north.test', password: 'not the password' } });
    const token = await t.login(user.email, user.password);
    await t.call('/api/logout', { token });

    const ofUser = await records(admin, { actor: user.id });
    expect(ofUser.items.map((record) => record.action)).toEqual(['auth.sign_out', 'auth.sign_in']);
    const [signOut, signIn] = ofUser.items;
    const [failed] = (await records(admin, { search: 'signer@north.test', action: 'auth.sign_in_failed' })).items;
    expect(failed).toMatchObject({ actor: { type: 'user', id: null, name: 'signer@north.test' }, tenantId: null });
    expect(signIn).toMatchObject({ actor: { type: 'user', id: user.id }, tenantId: north.tenantId });
    expect(signOut).toMatchObject({ actor: { type: 'user', id: user.id } });
  });

  it('names the API token and its user as the actor of a change made with it', async () => {
    const made = await t.call<{ token: string; id: number }>('/api/token', {
      token: northHead.token,
      json: { name: 'ci-deploy', expiresAt: Date.now() + 86_400_000, scopes: ['CREATE_ROLE', 'VIEW_ROLE'] },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const role = await createRole(made.body.token, 'Made by a script');
    const [record] = (await records(northHead.token, { entityType: 'role', entityId: role.id })).items;
    expect(record!.actor.type).toBe('token');
    expect(record!.actor.id).toBe(northHead.id);
    expect(record!.actor.name).toMatch(/\(token ci-deploy\)$/);
    expect(await wholeAuditTable()).not.toContain(made.body.token);
  });
});

describe('secrets', () => {
  it('never reach the log: passwords, keys, tokens and reset links', async () => {
    const password = 'Sekrit-Horse-Battery-91';
    const created = await t.call<{ id: number }>('/api/user/register', {
      token: northHead.token,
      json: {
        firstName: 'Pat',
        lastName: 'Secret',
        emailAddress: 'pat.secret@north.test',
        credential: { username: 'pat.secret@north.test', newPassword: password, confirmPassword: password },
        groups: [],
      },
    });
    // The user call's own rules may refuse this body; what matters is that no password is stored.
    expect([200, 400]).toContain(created.status);
    await t.call('/api/login', { json: { username: 'pat.secret@north.test', password: `${password}-wrong` } });
    await t.call('/api/login', { json: { username: ADMIN.email, password: ADMIN.password } });
    const table = await wholeAuditTable();
    for (const secret of [password, `${password}-wrong`, ADMIN.password, northHead.token, admin]) {
      expect(table).not.toContain(secret);
    }
  });
});

describe('the log cannot be changed', () => {
  it('refuses UPDATE, DELETE and TRUNCATE by the application, whatever it tries', async () => {
    const db = t.database.db;
    expect(await refusal(db.execute(sql`update audit_log set actor_name = 'someone else'`))).toMatch(/append-only/);
    expect(await refusal(db.execute(sql`delete from audit_log`))).toMatch(/append-only/);
    // The server's role may not even try to empty it; its owner is stopped by the trigger.
    expect(await refusal(db.execute(sql`truncate audit_log`))).toMatch(/permission denied/);
    expect(await refusal(asOwner(() => db.execute(sql`truncate audit_log`)))).toMatch(/append-only/);
    expect((await records(admin)).total).toBeGreaterThan(0);
  });

  it('lets retention delete only records past the retention, and never younger than 30 days', async () => {
    const db = t.database.db;
    const old = Date.now() - 800 * 86_400_000;
    await db.execute(sql`insert into audit_log (at, actor_type, actor_name, action, entity_type)
      values (${old}, 'user', 'Old Timer', 'role.create', 'role')`);
    // Even with the retention's setting, a young record stays.
    const young = db.transaction(async (tx) => {
      await tx.execute(sql`select set_config('opsdeck.audit_retention', 'on', true)`);
      await tx.execute(sql`delete from audit_log where actor_name <> 'Old Timer'`);
    });
    expect(await refusal(young)).toMatch(/append-only/);
    expect(await deleteAuditBefore(db, EVERY_TENANT, Date.now() - 730 * 86_400_000)).toBe(1);
    expect(await wholeAuditTable()).not.toContain('Old Timer');
  });
});

describe('who reads the log', () => {
  it('shows a company its own records only, and the provider every company', async () => {
    await createRole(southHead.token, 'South only');
    const northSees = await records(northHead.token);
    expect(northSees.items.every((record) => record.tenantId === north.tenantId)).toBe(true);
    expect(northSees.items.map((record) => record.entityName)).not.toContain('South only');
    const southRecord = (await records(southHead.token, { search: 'South only' })).items[0]!;
    expect((await t.call(`/api/audit/${southRecord.id}`, { token: northHead.token })).status).toBe(404);

    const provider = await records(admin, { search: 'only' });
    expect(provider.items.map((record) => record.entityName)).toEqual(
      expect.arrayContaining(['South only', 'Only once']),
    );
    const picked = await records(admin, {}, south.tenantId);
    expect(picked.items.every((record) => record.tenantId === south.tenantId)).toBe(true);
  });

  it('refuses a user without VIEW_AUDIT_LOG, and hides a record from another company', async () => {
    const role = await createRole(northHead.token, 'Walled');
    const [record] = (await records(northHead.token, { action: 'role.create', entityId: role.id })).items;
    const endpoints: Endpoint[] = [
      { method: 'GET', path: '/api/audit', authorities: ['VIEW_AUDIT_LOG'] },
      { method: 'GET', path: '/api/audit?format=csv', authorities: ['VIEW_AUDIT_LOG'] },
      { method: 'GET', path: `/api/audit/${record!.id}`, authorities: ['VIEW_AUDIT_LOG'] },
    ];
    await expectRefusedWithoutAuthority(t, north, endpoints);
    const southAll = await tokenFor(
      t,
      south,
      AUTHORITY_KEYS.filter((key) => key !== 'ADMIN_ACCESS_LEVEL'),
    );
    await expectHiddenFromOtherTenant(t, southAll, north.tenantId, endpoints.slice(2));
  });

  it('filters by action, person, entity and time, pages newest first, and exports CSV', async () => {
    const a = await createRole(northHead.token, 'Filter A');
    const b = await createRole(northHead.token, 'Filter B');
    const byAction = await records(northHead.token, { action: 'role.create', size: 1, page: 1 });
    expect(byAction.items).toHaveLength(1);
    expect(byAction.items[0]!.entityName).toBe('Filter B');
    const second = await records(northHead.token, { action: 'role.create', size: 1, page: 2 });
    expect(second.items[0]!.entityName).toBe('Filter A');
    expect((await records(northHead.token, { actor: northHead.id })).total).toBeGreaterThanOrEqual(2);
    expect((await records(northHead.token, { actor: southHead.id })).total).toBe(0);
    expect((await records(northHead.token, { entityType: 'role', entityId: a.id })).items).toHaveLength(1);
    expect((await records(northHead.token, { search: 'filter b' })).items.map((r) => r.entityId)).toEqual([
      String(b.id),
    ]);
    expect((await records(northHead.token, { to: 1 })).total).toBe(0);
    expect((await t.call('/api/audit?action=role.explode', { token: northHead.token })).body).toMatchObject({
      key: 'ERROR_AUDIT_ACTION_INVALID',
    });

    const csv = await t.call<string>('/api/audit?format=csv&action=role.create', { token: northHead.token });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toBe(
      'id,at,actorType,actorId,actorName,companyName,action,entityType,entityId,entityName,changes,address,userAgent',
    );
    expect(lines.length - 1).toBe((await records(northHead.token, { action: 'role.create' })).total);
    expect(lines[1]).toContain('Filter B');
  });

  it('counts a word search only ten pages past the page asked for', async () => {
    const before = (await records(southHead.token, { action: 'role.create' })).total;
    for (let k = 1; k <= 25; k += 1) await createRole(southHead.token, `Windowed ${k}`);
    const first = await records(southHead.token, { search: 'windowed', size: 2, page: 1 });
    expect(first).toMatchObject({ total: 20, totalCapped: true });
    expect(first.items.map((record) => record.entityName)).toEqual(['Windowed 25', 'Windowed 24']);
    expect(await records(southHead.token, { search: 'windowed', size: 2, page: 3 })).toMatchObject({
      total: 24,
      totalCapped: true,
    });
    const last = await records(southHead.token, { search: 'windowed', size: 2, page: 10 });
    expect(last.total).toBe(25);
    expect(last.totalCapped).toBeUndefined();
    // Other filters count up to 10,000.
    expect((await records(southHead.token, { action: 'role.create', size: 2 })).total).toBe(before + 25);
  });
});

describe('every write route says what it records', () => {
  it('refuses to start with a write route that declares no audit action', async () => {
    const app = Fastify();
    registerAudit(app, { unit: createUnitOfWork(t.database.db), write: async () => {} });
    const register = async () => {
      app.post('/api/forgotten', { config: { access: access.session } }, async () => ({ ok: true }));
      await app.ready();
    };
    await expect(register()).rejects.toThrow(/declares no audit action/);
  });

  it('accepts a write route that says why it records nothing', async () => {
    const app = Fastify();
    registerAudit(app, { unit: createUnitOfWork(t.database.db), write: async () => {} });
    app.post('/api/search', { config: { access: access.session, audit: audit.none('a read') } }, async () => ({
      ok: true,
    }));
    await expect(app.ready()).resolves.toBeDefined();
    await app.close();
  });
});
