import type { Account, GeneratedAccount } from '@opsdeck/contract/accounts';
import type { Company } from '@opsdeck/contract/companies';
import type { Department } from '@opsdeck/contract/departments';
import { CONSOLE_APP_KEY, HEADERS } from '@opsdeck/contract/http';
import type { License } from '@opsdeck/contract/licenses';
import { type AgentOptions, SimulatedAgent } from './agent';
import { parseLicenseFile, randomMac } from './license-file';

/** One agent of a fleet: a key, the machine it runs as, and where the key came from. */
export interface FleetMember {
  key: string;
  macAddress: string;
  hostname: string;
  company: string;
  source: 'license-file' | 'generated';
}

export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    readonly status: number,
    readonly key: string,
    what: string,
  ) {
    super(`${what}: ${status} ${key}`);
  }
}

/** The provider admin's side of the API that a fleet needs, over HTTP with the console's app key. */
export class AdminApi {
  private token: string | undefined;

  constructor(readonly url: string) {}

  private async call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const response = await fetch(`${this.url}/api${path}`, {
      method,
      headers: {
        [HEADERS.appKey]: CONSOLE_APP_KEY,
        ...(this.token ? { [HEADERS.authToken]: this.token } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) {
      const error = (await response.json().catch(() => null)) as { key?: unknown } | null;
      throw new ApiError(response.status, typeof error?.key === 'string' ? error.key : 'HTTP', `${method} ${path}`);
    }
    return response;
  }

  private async json<T>(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<T> {
    return (await (await this.call(method, path, body, headers)).json()) as T;
  }

  async signIn(email: string, password: string): Promise<void> {
    this.token = undefined;
    const { token } = await this.json<{ token: string }>('POST', '/login', { username: email, password });
    this.token = token;
  }

  async accounts(): Promise<Account[]> {
    const all: Account[] = [];
    for (let page = 1; ; page += 1) {
      const answer = await this.json<{ items: Account[]; total: number }>('GET', `/account?page=${page}&size=100`);
      all.push(...answer.items);
      if (answer.items.length < 100 || all.length >= answer.total) return all;
    }
  }

  async licenseFile(accountId: number): Promise<string> {
    return (await this.call('GET', `/account/export-license-file/${accountId}`)).text();
  }

  companies = () => this.json<Company[]>('GET', '/company');
  licenses = (companyId: number) => this.json<License[]>('GET', `/license/company?id=${companyId}`);
  departments = (tenantId: string) =>
    this.json<Department[]>('GET', '/department', undefined, { [HEADERS.tenantId]: tenantId });
  generate = (company: number, license: number, department: number) =>
    this.json<GeneratedAccount>('POST', '/account/generate', { company, license, department });
}

export interface PlanOptions {
  /** How many agents; undefined: every key with a licence file (at most perCompany a company). */
  count: number | undefined;
  perCompany: number;
  /** Generate keys when the keys with a file are fewer than count. */
  generate: boolean;
  now?: number;
  random?: () => number;
  log?: (message: string) => void;
}

/**
 * Chooses the fleet's keys: first keys made from registration files (their licence file holds
 * the full key and the machines), at most `perCompany` a company, taken round-robin across
 * companies so a small fleet still spans them; then, when more agents are asked for, keys
 * generated on licences with room (each generated key takes its agent's random MAC address at
 * its first connection). Generated keys stay in the database: each run of a large fleet makes new
 * ones while seats last.
 */
export async function planFleet(api: AdminApi, options: PlanOptions): Promise<FleetMember[]> {
  const now = options.now ?? Date.now();
  const random = options.random ?? Math.random;
  const byCompany = new Map<string, Account[]>();
  for (const account of await api.accounts()) {
    const company = account.license.company;
    if (!account.hasFile || account.invalidated || !company || account.license.expirationDate <= now) continue;
    const list = byCompany.get(company.name) ?? [];
    if (list.length < options.perCompany) list.push(account);
    byCompany.set(company.name, list);
  }
  const candidates: Account[] = [];
  for (let i = 0; i < options.perCompany; i += 1) {
    for (const list of byCompany.values()) if (list[i]) candidates.push(list[i]!);
  }

  const members: FleetMember[] = [];
  for (const account of candidates) {
    if (options.count !== undefined && members.length >= options.count) break;
    try {
      const file = parseLicenseFile(await api.licenseFile(account.id));
      const macAddress = file.macAddresses[0];
      if (!macAddress) continue;
      members.push({
        key: file.key,
        macAddress,
        hostname: account.hostname ?? file.hostname ?? `agent-${account.id}`,
        company: account.license.company?.name ?? '',
        source: 'license-file',
      });
    } catch (error) {
      options.log?.(`skipped key ${account.partialKey}: ${(error as Error).message}`);
    }
  }

  if (options.generate && options.count !== undefined && members.length < options.count) {
    members.push(...(await generateMembers(api, options.count - members.length, now, random, options.log)));
  }
  return members;
}

async function generateMembers(
  api: AdminApi,
  wanted: number,
  now: number,
  random: () => number,
  log?: (message: string) => void,
): Promise<FleetMember[]> {
  const slots: { company: Company; license: License; department: number; room: number }[] = [];
  for (const company of await api.companies()) {
    const departments = await api.departments(company.tenantId).catch(() => [] as Department[]);
    const department = departments.find((item) => !item.archived && item.tenantId === company.tenantId);
    if (!department) continue;
    for (const license of await api.licenses(company.id)) {
      if (license.invalidated || license.expired || license.expirationDate <= now || license.unusedAccounts <= 0)
        continue;
      slots.push({ company, license, department: department.id, room: license.unusedAccounts });
    }
  }
  const members: FleetMember[] = [];
  let index = 0;
  while (members.length < wanted && slots.length > 0) {
    const slot = slots[index % slots.length]!;
    try {
      const generated = await api.generate(slot.company.id, slot.license.id, slot.department);
      slot.room -= 1;
      members.push({
        key: generated.key,
        macAddress: randomMac(random),
        hostname: `sim-${slot.company.id}-${generated.id}`,
        company: slot.company.name,
        source: 'generated',
      });
      index += 1;
    } catch (error) {
      log?.(`no more keys on licence ${slot.license.id} of ${slot.company.name}: ${(error as Error).message}`);
      slot.room = 0;
    }
    if (slot.room <= 0) slots.splice(slots.indexOf(slot), 1);
  }
  if (members.length < wanted) log?.(`generated ${members.length} of ${wanted} keys: no licence has more room`);
  return members;
}

export interface Fleet {
  agents: SimulatedAgent[];
  stop(): Promise<void>;
}

/** Starts one agent per member in this process, a few milliseconds apart so that their CONNECTs do not all land at once. */
export async function startFleet(
  members: FleetMember[],
  options: Omit<AgentOptions, 'licenseKey' | 'macAddress' | 'hostname'>,
  spacingMs = 20,
): Promise<Fleet> {
  const agents: SimulatedAgent[] = [];
  for (const member of members) {
    agents.push(
      new SimulatedAgent({
        ...options,
        licenseKey: member.key,
        macAddress: member.macAddress,
        hostname: member.hostname,
      }).start(),
    );
    if (spacingMs > 0) await new Promise((resolve) => setTimeout(resolve, spacingMs));
  }
  return { agents, stop: async () => void (await Promise.all(agents.map((agent) => agent.stop()))) };
}
