import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { type APIRequestContext, expect, type Page } from '@playwright/test';
import { pngFile } from './png-fixtures';

/** Demo accounts seeded by the server (apps/server/src/seed/demo.ts); all share one password. */
export const DEMO_PASSWORD = 'opsdeck-demo';
export const USERS = {
  admin: { email: 'admin@opsdeck.test', name: 'Provider Administrator' },
  companyHead: { email: 'maria.santos@northwind.test', name: 'Maria Santos', company: 'Northwind Logistics' },
  departmentHead: { email: 'james.whitaker@northwind.test', name: 'James Whitaker' },
  employee: { email: 'fatima.haddad@northwind.test', name: 'Fatima Haddad' },
  /** Only the throttling test uses this one: it ends up locked for fifteen minutes. */
  throttled: { email: 'oliver.nguyen@northwind.test', name: 'Oliver Nguyen' },
  /** Only the password-reset test uses this one, since it changes the password. */
  resetter: { email: 'chloe.anderson@northwind.test', name: 'Chloe Anderson' },
} as const;

export async function signIn(page: Page, email: string, password = DEMO_PASSWORD) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page).toHaveURL(/\/dashboard\//);
}

/** The newest .eml in the server's outbox addressed to `to`. */
export async function waitForMail(to: string, after: number, timeoutMs = 10_000): Promise<string> {
  const outbox = path.join(process.env.E2E_DATA_DIR ?? '', 'mail');
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const files = (await readdir(outbox).catch(() => [] as string[])).sort().reverse();
    for (const file of files) {
      const full = path.join(outbox, file);
      const text = await readFile(full, 'utf8');
      if (text.includes(`To: ${to}`) && (await stat(full)).mtimeMs >= after) return text;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no mail to ${to} in ${outbox}`);
}

/** The reset link of a mail's plain-text part (quoted-printable may fold or escape it). */
export function resetLinkOf(mail: string): string {
  const unfolded = mail.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
  const match = unfolded.match(/https?:\/\/[^\s"<]+\/login\?resetPasswordKey=[A-Za-z0-9_%-]+/);
  if (!match) throw new Error('no reset link in the mail');
  return match[0];
}

/** The demo company head's API, for arranging statuses and tasks before a browser test. */
export async function asCompanyHead(request: APIRequestContext) {
  const headers = { 'X-App-Key': 'opsdeck-console' };
  const login = await request.post('/api/login', {
    headers,
    data: { username: USERS.companyHead.email, password: DEMO_PASSWORD },
  });
  const { token } = (await login.json()) as { token: string };
  const auth = { ...headers, 'X-Auth-Token': token };
  const departments = (await (await request.get('/api/department', { headers: auth })).json()) as {
    id: number;
    name: string;
  }[];
  const departmentId = (name: string) => departments.find((department) => department.name === name)?.id;
  return {
    async status(name: string, department: string) {
      const response = await request.post('/api/status', {
        headers: auth,
        data: {
          name,
          departmentId: departmentId(department),
          threshold: 0,
          color: '#0c8599',
          icon: `data:image/png;base64,${pngFile('s.png', 24).buffer.toString('base64')}`,
          trackIdle: false,
          fileName: 's.png',
        },
      });
      expect(response.status()).toBe(201);
      return (await response.json()) as { id: number };
    },
    async task(name: string, statusId: number, department: string) {
      const response = await request.post('/api/task', {
        headers: auth,
        data: { name, statusId, departmentId: departmentId(department) },
      });
      expect(response.status()).toBe(201);
    },
  };
}
