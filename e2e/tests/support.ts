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

/** The newest .eml addressed to `to` in the outbox of the server whose data directory is `dataDir`. */
export async function waitForMail(dataDir: string, to: string, after: number, timeoutMs = 10_000): Promise<string> {
  const outbox = path.join(dataDir, 'mail');
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

/** A licence key an agent can connect with, and the machine it runs as. */
export interface AgentKey {
  key: string;
  macAddress: string;
  hostname: string;
  /** The key's person, as the Events card names the agent; null for a generated key ('Agent User'). */
  fullName: string | null;
}

/** The provider admin's API (apps/agent's, as the fleet uses it) on the server at `baseURL`. */
async function adminApi(baseURL: string) {
  const { AdminApi } = await import('@opsdeck/agent/fleet');
  const api = new AdminApi(baseURL);
  await api.signIn(USERS.admin.email, DEMO_PASSWORD);
  return api;
}

/**
 * The `index`-th demo key of `company` made from a registration file, read from its exported
 * licence file (the full key is only there) with the first of its machines.
 */
export async function demoAgentKey(baseURL: string, company: string, index = 0): Promise<AgentKey> {
  const { parseLicenseFile } = await import('@opsdeck/agent/license-file');
  const api = await adminApi(baseURL);
  const keys = (await api.accounts())
    .filter((account) => account.license.company?.name === company && account.hasFile && !account.invalidated)
    .sort((a, b) => a.id - b.id);
  const account = keys[index];
  if (!account) throw new Error(`${company} has no key with a licence file at ${index}`);
  const file = parseLicenseFile(await api.licenseFile(account.id));
  return {
    key: file.key,
    macAddress: file.macAddresses[0]!,
    hostname: account.hostname ?? `agent-${account.id}`,
    fullName: file.fullName,
  };
}

/** A new key on one of `company`'s licences with room (no person: 'Agent User'), for a random machine. */
export async function generatedAgentKey(baseURL: string, company: string): Promise<AgentKey> {
  const { randomMac } = await import('@opsdeck/agent/license-file');
  const api = await adminApi(baseURL);
  const found = (await api.companies()).find((item) => item.name === company);
  if (!found) throw new Error(`no company ${company}`);
  const license = (await api.licenses(found.id)).find(
    (item) => !item.invalidated && !item.expired && item.unusedAccounts > 0 && item.expirationDate > Date.now(),
  );
  const department = (await api.departments(found.tenantId)).find((item) => !item.archived);
  if (!license || !department) throw new Error(`${company} has no licence with room or no department`);
  const generated = await api.generate(found.id, license.id, department.id);
  return { key: generated.key, macAddress: randomMac(), hostname: `e2e-agent-${generated.id}`, fullName: null };
}

export type TestAgent = import('@opsdeck/agent/agent').SimulatedAgent;

/**
 * Starts a simulated agent (apps/agent, a real client of the live channel) with `key` in this
 * process, and resolves once it is connected and holds its workflow list. No runs of its own and
 * no failures, so that only the test moves its queue; stop it with `agent.stop()`.
 */
export async function startTestAgent(
  baseURL: string,
  key: AgentKey,
  options: { speed?: number; timeoutMs?: number } = {},
): Promise<TestAgent> {
  const { startAgent } = await import('@opsdeck/agent/agent');
  const { DEMO_AGENT_SECRET } = await import('@opsdeck/contract/live');
  const agent = startAgent({
    url: baseURL,
    licenseKey: key.key,
    macAddress: key.macAddress,
    hostname: key.hostname,
    secret: DEMO_AGENT_SECRET,
    speed: options.speed ?? 20,
    failureRate: 0,
    selfStartPerHour: 0,
  });
  const timeoutMs = options.timeoutMs ?? 15_000;
  try {
    // Ready once its list has come; until then the last refusal of its CONNECT, if any, says why not.
    await expect
      .poll(
        () => {
          const { connected, workflows, lastRefusal } = agent.snapshot();
          return connected && workflows.length > 0 ? 'ready' : (lastRefusal ?? 'connecting');
        },
        { timeout: timeoutMs, message: `the agent ${key.macAddress} connects and gets its workflows` },
      )
      .toBe('ready');
  } catch (error) {
    await agent.stop();
    throw error;
  }
  return agent;
}

/** The id of the agent's workflow named `name`. */
export function agentWorkflowId(agent: TestAgent, name: string): number {
  const workflow = agent.snapshot().workflows.find((item) => item.name === name);
  if (!workflow) throw new Error(`the agent has no workflow ${name}`);
  return workflow.id;
}

/**
 * Signs in through the API (POST /api/login) and hands the token to the console the way it reads
 * it at start (local storage), without the login form: for tests about other screens, where the
 * form's seconds add up. Takes effect at the page's next navigation.
 */
export async function signInByToken(page: Page, email: string, password = DEMO_PASSWORD) {
  const response = await page.request.post('/api/login', {
    headers: { 'X-App-Key': 'opsdeck-console' },
    data: { username: email, password },
  });
  expect(response.status(), await response.text()).toBe(200);
  const { token } = (await response.json()) as { token: string };
  await page.addInitScript(
    ([key, value]) => {
      // Only the first time: a sign-out later in the test stays signed out across reloads.
      try {
        if (sessionStorage.getItem('e2e.tokenSet') === null) {
          localStorage.setItem(key, value);
          sessionStorage.setItem('e2e.tokenSet', '1');
        }
      } catch {
        // about:blank and other opaque origins have no storage
      }
    },
    ['opsdeck.authToken', token] as const,
  );
}
