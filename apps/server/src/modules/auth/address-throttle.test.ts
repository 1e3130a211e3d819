import { afterAll, beforeAll, expect, it } from 'vitest';
import { ADMIN, startTestApp, type TestApp } from '../../../test/app';

// A file of its own: it uses up the sign-in failures of 127.0.0.1 for this server instance.
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
});

it('throttles an address that guesses across many accounts, whatever X-Forwarded-For says', async () => {
  for (let i = 0; i < 30; i += 1) {
    const result = await t.call('/api/login', { json: { username: `guess-${i}@example.test`, password: 'wrong' } });
    expect(result.status).toBe(401);
  }
  const spoofed = await t.call('/api/login', {
    json: { username: ADMIN.email, password: ADMIN.password },
    headers: { 'x-forwarded-for': '203.0.113.7' },
  });
  expect(spoofed.status).toBe(429);
  expect(spoofed.body).toMatchObject({ key: 'ERROR_TOO_MANY_REQUESTS' });
});
