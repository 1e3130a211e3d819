import type { Account, GeneratedAccount } from '@opsdeck/contract/accounts';
import type { Company } from '@opsdeck/contract/companies';
import type { Department } from '@opsdeck/contract/departments';
import { CONSOLE_APP_KEY, HEADERS } from '@opsdeck/contract/http';
import type { License } from '@opsdeck/contract/licenses';
import type { Schedule } from '@opsdeck/contract/schedules';
import type { Status } from '@opsdeck/contract/statuses';
import type { Task } from '@opsdeck/contract/tasks';
import type { User } from '@opsdeck/contract/users';
import { type AgentOptions, SimulatedAgent } from './agent';
import { parseLicenseFile, randomMac } from './license-file';
import { departmentChain, personSeed, statusesFor, type Workdays } from './workday';

/** One agent of a fleet: a key, the machine it runs as, and where the key came from. */
export interface FleetMember {
  key: string;
  macAddress: string;
  hostname: string;
  company: string;
  source: 'license-file' | 'generated';
  /** The key's person (its licence file's e-mail) and company: whose working days it acts out. */
  emailAddress?: string | null;
  companyId?: number | null;
  tenantId?: string | null;
  /** False: no runs of its own (it still runs what the console asks). Default true. */
  runs?: boolean;
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
  private credentials: { email: string; password: string } | undefined;

  constructor(readonly url: string) {}

  private async call(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
    again = true,
  ): Promise<Response> {
    const response = await this.send(method, path, body, headers);
    // A session runs out (SESSION_TTL_HOURS): a long-lived fleet signs in again once.
    if (response.status === 401 && again && this.credentials && path !== '/login') {
      await this.signIn(this.credentials.email, this.credentials.password);
      return this.call(method, path, body, headers, false);
    }
    if (!response.ok) {
      // A body that is not JSON (a proxy's error page) has no key: the status tells what failed.
      const error = (await response.json().catch(() => null)) as { key?: unknown } | null;
      throw new ApiError(response.status, typeof error?.key === 'string' ? error.key : 'HTTP', `${method} ${path}`);
    }
    return response;
  }

  private send(method: string, path: string, body: unknown, headers: Record<string, string>) {
    return fetch(`${this.url}/api${path}`, {
      method,
      headers: {
        [HEADERS.appKey]: CONSOLE_APP_KEY,
        ...(this.token ? { [HEADERS.authToken]: this.token } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  }

  private async json<T>(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<T> {
    return (await (await this.call(method, path, body, headers)).json()) as T;
  }

  async signIn(email: string, password: string): Promise<void> {
    this.token = undefined;
    const { token } = await this.json<{ token: string }>('POST', '/login', { username: email, password });
    this.token = token;
    this.credentials = { email, password };
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
  companyUsers = (companyId: number) => this.json<User[]>('GET', `/user/find-by-company/${companyId}`);
  schedules = (tenantId: string, from: number, to: number) =>
    this.json<Schedule[]>('GET', `/schedule?from=${from}&to=${to}`, undefined, { [HEADERS.tenantId]: tenantId });
  statuses = (tenantId: string) => this.json<Status[]>('GET', '/status', undefined, { [HEADERS.tenantId]: tenantId });
  tasks = (tenantId: string) => this.json<Task[]>('GET', '/task', undefined, { [HEADERS.tenantId]: tenantId });
}

export interface PlanOptions {
  /** How many agents; undefined: every key with a licence file (at most perCompany a company). */
  count: number | undefined;
  /** Infinity: every key with a licence file (the demo fleet). */
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
  const longest = Math.max(0, ...[...byCompany.values()].map((list) => list.length));
  for (let i = 0; i < longest; i += 1) {
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
        emailAddress: account.emailAddress ?? null,
        companyId: account.license.company?.id ?? null,
        tenantId: account.license.company?.tenantId ?? null,
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
    let departments: Department[];
    try {
      departments = await api.departments(company.tenantId);
    } catch (error) {
      // One company's failure does not stop the fleet: its licences get no generated keys this run.
      log?.(`skipped company ${company.name}: its departments could not be read (${(error as Error).message})`);
      continue;
    }
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
        ...(member.runs === false ? { selfStartPerHour: 0 } : {}),
      }).start(),
    );
    if (spacingMs > 0) await new Promise((resolve) => setTimeout(resolve, spacingMs));
  }
  return { agents, stop: async () => void (await Promise.all(agents.map((agent) => agent.stop()))) };
}

export interface WorkdaysOptions {
  /** How often the schedules, statuses and tasks are read again. Default an hour. */
  refreshMs?: number;
  now?: () => number;
  log?: (message: string) => void;
}

export interface FleetWorkdays {
  /** Reads every company's schedules, statuses and tasks and gives each agent its person's days; answers how many got one. */
  refresh(): Promise<number>;
  stop(): void;
}

const DAY_MS = 86_400_000;

/**
 * Gives each agent of the fleet whose key names a person of its company that person's working
 * days to act out (docs/monitor.md, "The simulator and the demo"): their schedules from a day back
 * to two days ahead, the statuses of their department (and the ones above it, and the built-in
 * ones) and the company's tasks, read through the admin API with X-Tenant-Id, again every
 * `refreshMs` (a schedule added or moved in the console is acted out from then on).
 */
export function startWorkdays(
  api: AdminApi,
  members: FleetMember[],
  agents: SimulatedAgent[],
  options: WorkdaysOptions = {},
): FleetWorkdays {
  const now = options.now ?? Date.now;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  const refresh = async () => {
    const at = now();
    const byCompany = new Map<
      number,
      { tenantId: string; members: { member: FleetMember; agent: SimulatedAgent }[] }
    >();
    members.forEach((member, index) => {
      const agent = agents[index];
      if (!agent || !member.emailAddress || !member.companyId || !member.tenantId) return;
      const entry = byCompany.get(member.companyId) ?? { tenantId: member.tenantId, members: [] };
      entry.members.push({ member, agent });
      byCompany.set(member.companyId, entry);
    });
    let planned = 0;
    for (const [companyId, { tenantId, members: own }] of byCompany) {
      try {
        const [users, departments, statuses, tasks, schedules] = await Promise.all([
          api.companyUsers(companyId),
          api.departments(tenantId),
          api.statuses(tenantId),
          api.tasks(tenantId),
          api.schedules(tenantId, at - DAY_MS, at + 2 * DAY_MS),
        ]);
        const byEmail = new Map(users.map((user) => [personSeed(user.emailAddress), user]));
        for (const { member, agent } of own) {
          const seed = personSeed(member.emailAddress!);
          const user = byEmail.get(seed);
          if (!user) continue;
          const workdays: Workdays = {
            seed,
            schedules: schedules
              .filter((schedule) => schedule.userId === user.id && !schedule.archived)
              .map((schedule) => ({ start: schedule.scheduleStart, end: schedule.scheduleEnd })),
            statuses: statusesFor(statuses, departmentChain(departments, user.departmentId)),
            tasks: tasks.map((task) => ({ id: task.id, name: task.name, statusId: task.status.id })),
          };
          agent.setWorkdays(workdays);
          planned += 1;
        }
      } catch (error) {
        options.log?.(`could not read the working days of company ${companyId}: ${(error as Error).message}`);
      }
    }
    return planned;
  };

  const loop = () => {
    if (stopped) return;
    timer = setTimeout(() => void refresh().finally(loop), options.refreshMs ?? 3_600_000);
    timer.unref?.();
  };
  loop();
  return {
    refresh,
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
