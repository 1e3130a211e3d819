import { Writable } from 'node:stream';
import { CONSOLE_APP_KEY, HEADERS } from '@opsdeck/contract/http';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startTestApp, type TestApp } from '../../../test/app';
import { createCompany, createUser, TEST_PASSWORD } from '../../../test/factories';
import { resetKeyOf, waitForMail } from '../../../test/mail';
import { buildApp } from '../../app';
import { loadConfig } from '../../config';
import { credentials, passwordResetKeys, sessions } from '../../db/schema';
import { loggerSerializers } from '../../platform/logging';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
});

/** A new company's employee who asked for a password reset, and the key mailed to them. */
async function employeeWithResetKey() {
  const company = await createCompany(t.database.db);
  const user = await createUser(t.database.db, { company, role: 'EMPLOYEE' });
  await t.call(`/api/user/reset-password?u=${encodeURIComponent(user.email)}`);
  return { user, key: resetKeyOf(await waitForMail(t, user.email)) };
}

/** Backdates every reset key of the user to have expired a moment ago. */
async function expireResetKeysOf(userId: number) {
  await t.database.db
    .update(passwordResetKeys)
    .set({ expiresAt: Date.now() - 1 })
    .where(eq(passwordResetKeys.userId, userId));
}

describe('app key', () => {
  it('refuses a request without an app key', async () => {
    const result = await t.call('/api/test', { appKey: null });
    expect(result.status).toBe(401);
    expect(result.body).toEqual({ key: 'ERROR_APP_KEY_INVALID', message: expect.any(String) });
  });

  it('refuses an unknown app key, even on the public sign-in call', async () => {
    const result = await t.call('/api/login', {
      appKey: 'someone-else',
      json: { username: ADMIN.email, password: ADMIN.password },
    });
    expect(result.status).toBe(401);
    expect(result.body).toMatchObject({ key: 'ERROR_APP_KEY_INVALID' });
  });

  it('lets health checks and the API description through without one', async () => {
    expect((await t.call('/api/health', { appKey: null })).body).toMatchObject({ status: 'ok' });
    const openapi = await t.call<{ paths: Record<string, Record<string, { responses: Record<string, unknown> }>> }>(
      '/api/openapi.json',
      { appKey: null },
    );
    expect(openapi.status).toBe(200);
    expect(Object.keys(openapi.body.paths['/api/login']?.post?.responses ?? {})).toEqual(['200', '4XX', '5XX']);
    expect(Object.keys(openapi.body.paths)).toEqual(
      expect.arrayContaining([
        '/api/login',
        '/api/logout',
        '/api/test',
        '/api/user/reset-password',
        '/api/user/profile/current-user',
      ]),
    );
  });
});

describe('POST /api/login', () => {
  it('answers a token for a JSON body, a form body and the query form', async () => {
    const json = await t.call<{ token: string }>('/api/login', {
      json: { username: ADMIN.email, password: ADMIN.password },
    });
    expect(json.status).toBe(200);
    expect(json.body.token).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const form = await t.call<{ token: string }>('/api/login', {
      form: { username: ADMIN.email, password: ADMIN.password },
    });
    expect(form.status).toBe(200);

    const query = await t.call<{ token: string }>(
      `/api/login?username=${encodeURIComponent(ADMIN.email)}&password=${encodeURIComponent(ADMIN.password)}`,
      { method: 'POST' },
    );
    expect(query.status).toBe(200);
    expect(new Set([json.body.token, form.body.token, query.body.token]).size).toBe(3);
  });

  it('matches the e-mail whatever its case', async () => {
    const result = await t.call('/api/login', {
      json: { username: ADMIN.email.toUpperCase(), password: ADMIN.password },
    });
    expect(result.status).toBe(200);
  });

  it('answers a wrong password and an unknown e-mail alike', async () => {
    const wrong = await t.call('/api/login', { json: { username: ADMIN.email, password: 'not-it' } });
    const unknown = await t.call('/api/login', { json: { username: 'nobody@example.test', password: 'not-it' } });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({
      key: 'ERROR_LOGIN_FORM_INCORRECT_CREDENTIALS',
      message: 'Invalid username/password.',
    });
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual(wrong.body);
  });

  it('names the missing field', async () => {
    const result = await t.call('/api/login', { json: { password: 'x' } });
    expect(result.status).toBe(400);
    expect(result.body).toMatchObject({
      key: 'ERROR_LOGIN_FORM_EMAIL_REQUIRED',
      fields: { username: 'ERROR_LOGIN_FORM_EMAIL_REQUIRED' },
    });
    const noPassword = await t.call('/api/login', { json: { username: ADMIN.email, password: '' } });
    expect(noPassword.body).toMatchObject({ key: 'ERROR_LOGIN_FORM_PASSWORD_REQUIRED' });
  });

  it('refuses an archived user', async () => {
    const company = await createCompany(t.database.db);
    const user = await createUser(t.database.db, { company, role: 'EMPLOYEE', archived: true });
    const result = await t.call('/api/login', { json: { username: user.email, password: user.password } });
    expect(result.status).toBe(401);
    expect(result.body).toMatchObject({ key: 'ERROR_LOGIN_FORM_INCORRECT_CREDENTIALS' });
  });

  it('answers a corrupt stored hash as bad credentials, and logs it as corrupt: the user, never the hash or the password', async () => {
    const company = await createCompany(t.database.db);
    const user = await createUser(t.database.db, { company, role: 'EMPLOYEE' });
    const [stored] = await t.database.db
      .select({ hash: credentials.passwordHash })
      .from(credentials)
      .where(eq(credentials.userId, user.id));
    // Cut short before its hash, as a bad restore or a hand edit leaves it: argon2 cannot decode
    // it. (Cut anywhere inside the hash, it may still decode, as a shorter hash that matches nothing.)
    const corrupt = stored!.hash.slice(0, stored!.hash.lastIndexOf('$'));
    await t.database.db.update(credentials).set({ passwordHash: corrupt }).where(eq(credentials.userId, user.id));
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(...String(chunk).trim().split('\n'));
        done();
      },
    });
    const app = await buildApp({
      config: loadConfig({ DATA_DIR: t.dataDir, DEMO: '0' }),
      database: t.database,
      logger: { level: 'trace', stream, serializers: loggerSerializers },
    });
    try {
      const response = await app.inject({
        method: 'POST',
        url: '/api/login',
        headers: { [HEADERS.appKey]: CONSOLE_APP_KEY },
        payload: { username: user.email, password: user.password },
      });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ key: 'ERROR_LOGIN_FORM_INCORRECT_CREDENTIALS' });
    } finally {
      await app.close();
    }
    const logged = lines.map((line) => JSON.parse(line) as { level: number; msg: string; userId?: number });
    expect(logged.filter((line) => line.msg.includes('corrupt'))).toEqual([
      expect.objectContaining({ level: 50, userId: user.id, reason: expect.any(String) }),
    ]);
    const all = lines.join('\n');
    expect(all).not.toContain(corrupt);
    expect(all).not.toContain('$argon2');
    expect(all).not.toContain(user.password);
  });

  it('throttles repeated guesses on one account, even when the right password follows', async () => {
    const company = await createCompany(t.database.db);
    const user = await createUser(t.database.db, { company, role: 'EMPLOYEE' });
    for (let i = 0; i < 5; i += 1) {
      expect((await t.call('/api/login', { json: { username: user.email, password: `guess-${i}` } })).status).toBe(401);
    }
    const locked = await t.call('/api/login', { json: { username: user.email, password: TEST_PASSWORD } });
    expect(locked.status).toBe(429);
    expect(locked.body).toMatchObject({ key: 'ERROR_TOO_MANY_REQUESTS' });
    // Other accounts are not locked by it.
    expect((await t.call('/api/login', { json: { username: ADMIN.email, password: ADMIN.password } })).status).toBe(
      200,
    );
  });

  it('answers malformed JSON with 400, not 500', async () => {
    const result = await t.call('/api/login', { headers: { 'content-type': 'application/json' }, method: 'POST' });
    expect(result.status).toBe(400);
    const broken = await fetch(`${t.baseUrl}/api/login`, {
      method: 'POST',
      headers: { 'x-app-key': 'opsdeck-console', 'content-type': 'application/json' },
      body: '{"username":',
    });
    expect(broken.status).toBe(400);
    expect(await broken.json()).toMatchObject({ key: 'ERROR_GENERAL_INVALID_INPUT' });
  });

  it('refuses a body over the limit with 413', async () => {
    const result = await t.call('/api/login', { json: { username: ADMIN.email, password: 'x'.repeat(1_100_000) } });
    expect(result.status).toBe(413);
    expect(result.body).toMatchObject({ key: 'ERROR_PAYLOAD_TOO_LARGE' });
  });
});

describe('sessions', () => {
  it('checks the session with GET /api/test and ends it with GET /api/logout', async () => {
    const token = await t.login(ADMIN.email, ADMIN.password);
    const check = await t.call('/api/test', { token });
    expect(check.status).toBe(200);
    expect(check.body).toMatchObject({ authenticated: true, tenantId: null });

    expect((await t.call('/api/logout', { token })).status).toBe(200);
    const after = await t.call('/api/test', { token });
    expect(after.status).toBe(401);
    expect(after.body).toMatchObject({ key: 'ERROR_UNAUTHORIZED' });
  });

  it('refuses a missing, unknown or expired token', async () => {
    expect((await t.call('/api/test')).status).toBe(401);
    expect((await t.call('/api/test', { token: 'made-up' })).status).toBe(401);

    const token = await t.login(ADMIN.email, ADMIN.password);
    await t.database.db.update(sessions).set({ expiresAt: Date.now() - 1 });
    // The session cache may hold it for a few seconds on one instance; a new token never was.
    const expired = await t.login(ADMIN.email, ADMIN.password);
    await t.database.db.update(sessions).set({ expiresAt: Date.now() - 1 });
    expect((await t.call('/api/test', { token: expired })).status).toBe(401);
    expect(token).not.toBe(expired);
  });

  it('stores only a digest of the token', async () => {
    const token = await t.login(ADMIN.email, ADMIN.password);
    const rows = await t.database.db.select({ tokenHash: sessions.tokenHash }).from(sessions);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.map((row) => row.tokenHash)).not.toContain(token);
    expect((await t.call('/api/test', { token })).status).toBe(200);
  });
});

describe('password reset', () => {
  it('answers the same whether or not the e-mail exists, and mails a one-time link', async () => {
    const company = await createCompany(t.database.db);
    const user = await createUser(t.database.db, { company, role: 'EMPLOYEE' });
    const known = await t.call(`/api/user/reset-password?u=${encodeURIComponent(user.email)}`);
    const unknown = await t.call(`/api/user/reset-password?u=${encodeURIComponent('ghost@example.test')}`);
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(known.body).toEqual(unknown.body);

    const mail = await waitForMail(t, user.email);
    expect(mail).toContain('Subject: Reset your Opsdeck password');
    const key = resetKeyOf(mail);

    const before = await t.login(user.email, user.password);
    const reset = await t.call('/api/user/reset-password', {
      json: { newPassword: 'a brand new secret', resetPasswordKey: key },
    });
    expect(reset.status).toBe(200);

    // The old session and the old password are gone; the new password works.
    expect((await t.call('/api/test', { token: before })).status).toBe(401);
    expect((await t.call('/api/login', { json: { username: user.email, password: user.password } })).status).toBe(401);
    expect(
      (await t.call('/api/login', { json: { username: user.email, password: 'a brand new secret' } })).status,
    ).toBe(200);

    // A key works once.
    const reused = await t.call('/api/user/reset-password', {
      json: { newPassword: 'another brand new secret', resetPasswordKey: key },
    });
    expect(reused.status).toBe(400);
    expect(reused.body).toEqual({ key: 'ERROR_RESET_PASSWORD_FORM_INVALID', message: 'Invalid reset password.' });
  });

  it('tells whether a key still works without using it up, before and after the reset', async () => {
    const { key } = await employeeWithResetKey();
    const check = (resetPasswordKey: unknown) => t.call('/api/reset-password/check', { json: { resetPasswordKey } });

    expect(await check(key)).toMatchObject({ status: 200, body: { valid: true } });
    expect(await check(key)).toMatchObject({ status: 200, body: { valid: true } });
    expect(await check('not-a-key')).toMatchObject({ status: 200, body: { valid: false } });
    const reset = await t.call('/api/user/reset-password', {
      json: { newPassword: 'checked first', resetPasswordKey: key },
    });
    expect(reset.status).toBe(200);
    expect(await check(key)).toMatchObject({ status: 200, body: { valid: false } });

    expect(await check('')).toMatchObject({ status: 400, body: { key: 'ERROR_RESET_PASSWORD_FORM_INVALID' } });
    expect(await check(42)).toMatchObject({ status: 400, body: { key: 'ERROR_RESET_PASSWORD_FORM_INVALID' } });
  });

  it('tells an expired key as not usable', async () => {
    const { user, key } = await employeeWithResetKey();
    await expireResetKeysOf(user.id);
    const result = await t.call('/api/reset-password/check', { json: { resetPasswordKey: key } });
    expect(result.body).toEqual({ valid: false });
  });

  it('stops an address that keeps asking about keys that do not work', async () => {
    const answers: number[] = [];
    for (let i = 0; i < 32; i += 1) {
      answers.push((await t.call('/api/reset-password/check', { json: { resetPasswordKey: `guess-${i}` } })).status);
    }
    // 30 failures a window per address; the tests above already spent a few of this address's.
    const firstRefusal = answers.indexOf(429);
    expect(firstRefusal).toBeGreaterThan(20);
    expect(answers.slice(0, firstRefusal).every((status) => status === 200)).toBe(true);
    expect(answers.slice(firstRefusal).every((status) => status === 429)).toBe(true);
  });

  it('accepts the spec query form of the reset call', async () => {
    const { user, key } = await employeeWithResetKey();
    const result = await t.call(
      `/api/user/reset-password?newPassword=${encodeURIComponent('query form secret')}&resetPasswordKey=${encodeURIComponent(key)}`,
      { method: 'POST' },
    );
    expect(result.status).toBe(200);
    expect((await t.call('/api/login', { json: { username: user.email, password: 'query form secret' } })).status).toBe(
      200,
    );
  });

  it('refuses an unknown key and validates the e-mail', async () => {
    const bad = await t.call('/api/user/reset-password', {
      json: { newPassword: 'a brand new secret', resetPasswordKey: 'nope' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ key: 'ERROR_RESET_PASSWORD_FORM_INVALID' });

    const empty = await t.call('/api/user/reset-password?u=');
    expect(empty.body).toMatchObject({
      key: 'ERROR_FORGOT_PASSWORD_FORM_EMAIL_REQUIRED',
      fields: { u: 'ERROR_FORGOT_PASSWORD_FORM_EMAIL_REQUIRED' },
    });
    const malformed = await t.call('/api/user/reset-password?u=a@b@c');
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ key: 'ERROR_FORGOT_PASSWORD_FORM_INVALID', message: 'Invalid username.' });
    const noPassword = await t.call('/api/user/reset-password', { json: { resetPasswordKey: 'k' } });
    expect(noPassword.body).toMatchObject({ key: 'ERROR_RESET_PASSWORD_FORM_PASSWORD_REQUIRED' });
  });

  it('refuses an expired key', async () => {
    const { user, key } = await employeeWithResetKey();
    await expireResetKeysOf(user.id);
    const result = await t.call('/api/user/reset-password', {
      json: { newPassword: 'late but long enough', resetPasswordKey: key },
    });
    expect(result.body).toMatchObject({ key: 'ERROR_RESET_PASSWORD_FORM_INVALID' });
  });
});

describe('security headers', () => {
  it('sends a strict content security policy, no caching and no referrer on API answers', async () => {
    const result = await t.call('/api/health');
    expect(result.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(result.headers.get('cache-control')).toBe('no-store');
    expect(result.headers.get('referrer-policy')).toBe('no-referrer');
    expect(result.headers.get('x-content-type-options')).toBe('nosniff');
  });
});
