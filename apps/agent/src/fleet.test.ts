import type { Account } from '@opsdeck/contract/accounts';
import { describe, expect, it, vi } from 'vitest';
import type { SimulatedAgent } from './agent';
import { type AdminApi, type FleetMember, planFleet, startWorkdays } from './fleet';
import type { Workdays } from './workday';

const HOUR = 3_600_000;
const NOW = Date.UTC(2026, 2, 10, 12);

const account = (id: number, company: number, email: string | null): Account =>
  ({
    id,
    partialKey: `ODK-…-${id}`,
    emailAddress: email,
    hostname: `host-${id}`,
    hasFile: true,
    invalidated: false,
    license: {
      id: company,
      expirationDate: NOW + 100 * 24 * HOUR,
      company: { id: company, name: `Company ${company}`, tenantId: `tenant-${company}` },
    },
  }) as unknown as Account;

const licenseFile = (id: number) =>
  [
    '-----BEGIN OPSDECK LICENSE-----',
    Buffer.from(JSON.stringify({ key: `KEY-${id}`, macAddresses: [`AA:BB:CC:DD:EE:0${id % 10}`] })).toString('base64'),
    '-----END OPSDECK LICENSE-----',
  ].join('\n');

describe('the demo fleet', () => {
  it('plans every key with a licence file when perCompany is unlimited, round-robin across companies', async () => {
    const accounts = [
      account(1, 1, 'a@one.test'),
      account(2, 1, 'b@one.test'),
      account(3, 1, null),
      account(4, 2, 'c@two.test'),
    ];
    const api = {
      accounts: async () => accounts,
      licenseFile: async (id: number) => licenseFile(id),
    } as unknown as AdminApi;
    const members = await planFleet(api, {
      count: undefined,
      perCompany: Number.POSITIVE_INFINITY,
      generate: false,
      now: NOW,
    });
    expect(members.map((member) => member.hostname)).toEqual(['host-1', 'host-4', 'host-2', 'host-3']);
    expect(members[1]).toMatchObject({ emailAddress: 'c@two.test', companyId: 2, tenantId: 'tenant-2' });
    const three = await planFleet(api, { count: undefined, perCompany: 1, generate: false, now: NOW });
    expect(three.map((member) => member.hostname)).toEqual(['host-1', 'host-4']);
  });

  it("gives each agent its person's schedules, department's statuses and the tasks, and reads them again later", async () => {
    vi.useFakeTimers({ now: NOW });
    try {
      const calls: string[] = [];
      const api = {
        companyUsers: async (id: number) => {
          calls.push(`users ${id}`);
          return [
            { id: 7, emailAddress: 'Ana@One.test', departmentId: 2 },
            { id: 8, emailAddress: 'ben@one.test', departmentId: 3 },
          ];
        },
        departments: async () => [
          { id: 1, parentId: null },
          { id: 2, parentId: 1 },
          { id: 3, parentId: null },
        ],
        statuses: async () => [
          { id: 10, name: 'Available', threshold: 0, trackIdle: true, departmentId: 1, builtIn: true },
          { id: 11, name: 'On Break', threshold: 15, trackIdle: false, departmentId: 1, builtIn: false },
          { id: 12, name: 'On Break (Other)', threshold: 15, trackIdle: false, departmentId: 3, builtIn: false },
        ],
        tasks: async () => [{ id: 20, name: 'Queue processing', status: { id: 10, name: 'Available' } }],
        schedules: async (tenantId: string, from: number, to: number) => {
          calls.push(`schedules ${tenantId} ${from} ${to}`);
          return [
            { userId: 7, scheduleStart: NOW - 4 * HOUR, scheduleEnd: NOW + 5 * HOUR, archived: false },
            { userId: 8, scheduleStart: NOW, scheduleEnd: NOW + 9 * HOUR, archived: false },
          ];
        },
      } as unknown as AdminApi;
      const given: Workdays[] = [];
      const agent = { setWorkdays: (workdays: Workdays) => given.push(workdays) } as unknown as SimulatedAgent;
      const members: FleetMember[] = [
        {
          key: 'K1',
          macAddress: 'AA:BB:CC:DD:EE:01',
          hostname: 'h1',
          company: 'One',
          source: 'license-file',
          emailAddress: 'ana@one.test',
          companyId: 1,
          tenantId: 'tenant-1',
        },
        // A key with no person acts out nothing.
        { key: 'K2', macAddress: 'AA:BB:CC:DD:EE:02', hostname: 'h2', company: 'One', source: 'license-file' },
      ];
      const workdays = startWorkdays(api, members, [agent, agent], { refreshMs: HOUR });
      expect(await workdays.refresh()).toBe(1);
      expect(given).toEqual([
        {
          seed: 'ana@one.test',
          schedules: [{ start: NOW - 4 * HOUR, end: NOW + 5 * HOUR }],
          statuses: [expect.objectContaining({ id: 10 }), expect.objectContaining({ id: 11 })],
          tasks: [{ id: 20, name: 'Queue processing', statusId: 10 }],
        },
      ]);
      expect(calls).toContain(`schedules tenant-1 ${NOW - 24 * HOUR} ${NOW + 48 * HOUR}`);
      await vi.advanceTimersByTimeAsync(HOUR);
      expect(given).toHaveLength(2);
      workdays.stop();
      await vi.advanceTimersByTimeAsync(3 * HOUR);
      expect(given).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });
});
