import type { SimulatedAgent } from '@opsdeck/agent/agent';
import { AdminApi, planFleet, startWorkdays } from '@opsdeck/agent/fleet';
import { planWorkdays, type Workdays } from '@opsdeck/agent/workday';
import type { Account, AccountPage } from '@opsdeck/contract/accounts';
import type { CatalogueActivity } from '@opsdeck/contract/activities';
import type { Company } from '@opsdeck/contract/companies';
import type { License } from '@opsdeck/contract/licenses';
import { MONITOR_PATHS, WIDGET_KEYS } from '@opsdeck/contract/monitor';
import type { DirectoryPage, WorkflowDetail } from '@opsdeck/contract/workflows';
import { checkLicenseFile } from '@opsdeck/licensing/license-file';
import { errorsFor } from '@opsdeck/rax/activity-errors';
import { readRax } from '@opsdeck/rax/read';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startTestApp, type TestApp } from '../../test/app';
import { queryString } from '../../test/report-runs';
import { selectRows } from '../db/client';
import { DEMO_COMPANIES, emailOf } from './demo';
import { DEMO_PREMIUM_ACTIVITIES, DEMO_SOLO_ACCOUNTS } from './demo-licenses';
import { TERMINATED_MESSAGE } from './demo-run-outcomes';
import { DEMO_HISTORY_DAYS } from './demo-tenant';
import { demoWorkflowSteps } from './demo-workflows';
import { DEMO_ADMIN_PASSWORD } from './provider-admin';

let t: TestApp;
let admin: string;
let startedAt: number;

// `npm start` seeds the demo on the embedded database only (docs/architecture.md, "Demo data");
// the seed itself is checked on both databases.
// The whole demo (90 days of runs, 30 of activity) takes its time when `npm test` runs the
// browser suite beside this one on two cores: three minutes, not the suite's one.
beforeAll(async () => {
  startedAt = Date.now();
  t = await startTestApp({ DEMO: '1' });
  admin = await t.login(ADMIN.email, ADMIN.password);
}, 180_000);

afterAll(async () => {
  await t.close();
});

describe('the demo of License Management (issue 8)', () => {
  it('gives every company a licence issued in the past, one of them expiring this month', async () => {
    const companies = (await t.call<Company[]>('/api/company', { token: admin })).body;
    expect(companies.map((company) => company.name).sort()).toEqual(DEMO_COMPANIES.map((plan) => plan.name).sort());
    const types = new Set<string>();
    let expiringThisMonth = 0;
    const now = new Date();
    for (const company of companies) {
      const licenses = (await t.call<License[]>(`/api/license/company?id=${company.id}`, { token: admin })).body;
      expect(licenses.length, company.name).toBeGreaterThan(0);
      for (const license of licenses) {
        types.add(license.type.key);
        // Issued in the past (a licence issued in the future once showed), valid until after that.
        expect(license.issueDate, `${company.name} ${license.label}`).toBeLessThan(startedAt);
        expect(license.expirationDate).toBeGreaterThan(license.issueDate);
        const expires = new Date(license.expirationDate);
        if (expires.getUTCFullYear() === now.getUTCFullYear() && expires.getUTCMonth() === now.getUTCMonth())
          expiringThisMonth += 1;
        expect(license.unusedAccounts).toBeGreaterThan(0);
      }
    }
    expect([...types].sort()).toEqual(['enterprise', 'pro']);
    expect(expiringThisMonth).toBeGreaterThanOrEqual(1);
  });

  it('has keys from registration files whose licence files export and verify at once', async () => {
    const company = (await t.call<Company[]>('/api/company', { token: admin })).body[0]!;
    const [license] = (await t.call<License[]>(`/api/license/company?id=${company.id}`, { token: admin })).body;
    const keys = (
      await t.call<Account[]>(`/api/account/list?company=${company.id}&license=${license!.id}`, { token: admin })
    ).body;
    const withFile = keys.find((key) => key.hasFile)!;
    expect(keys.some((key) => !key.hasFile)).toBe(true);
    expect(withFile.macAddresses.length).toBeGreaterThan(0);
    const exported = await t.call<string>(`/api/account/export-license-file/${withFile.id}`, { token: admin });
    expect(exported.status).toBe(200);
    const publicKey = await t.call<string>('/api/license/public-key');
    const check = checkLicenseFile(exported.body, publicKey.body);
    expect(check).toMatchObject({ valid: true, expired: false });
    if (check.valid) expect(check.payload.macAddresses).toEqual(withFile.macAddresses);
  });

  it('has solo accounts, premium activities, and heads who sign in with the demo password', async () => {
    const solo = (await t.call<Account[]>('/api/account/solo', { token: admin })).body;
    expect(solo.map((account) => account.fullName).sort()).toEqual(
      DEMO_SOLO_ACCOUNTS.map((account) => account.fullName).sort(),
    );
    const page = (await t.call<AccountPage>('/api/account?page=1&size=100', { token: admin })).body;
    expect(page.total).toBeGreaterThan(10);
    const catalogue = (await t.call<CatalogueActivity[]>('/api/license-type/premium', { token: admin })).body;
    expect(
      catalogue
        .filter((activity) => activity.premium)
        .map((activity) => activity.key)
        .sort(),
    ).toEqual([...DEMO_PREMIUM_ACTIVITIES].sort());
    const plan = DEMO_COMPANIES[0]!;
    await t.login(emailOf(plan.head, plan.domain), DEMO_ADMIN_PASSWORD);
  });
});

describe('the demo of Workflows (issue 9)', () => {
  it('gives every company a tree of real .rax workflows, some with several versions', async () => {
    for (const plan of DEMO_COMPANIES) {
      const folder = `Workflows/${plan.name}`;
      const top = (await t.call<DirectoryPage>('/api/directory/view', { token: admin, json: { parent: folder } })).body;
      expect(top.items.map((item) => item.name)).toEqual(['Finance', 'HR', 'IT', 'Operations']);
      const all = (
        await t.call<DirectoryPage>('/api/directory/view', {
          token: admin,
          json: { parent: folder, search: '', from: 0, size: 100 },
        })
      ).body;
      expect(all.total).toBeGreaterThanOrEqual(12);
      expect(all.items.some((item) => item.parent === `${folder}/Finance/Invoices`)).toBe(true);
      expect(all.items.some((item) => item.premium)).toBe(true);
      const intake = all.items.find((item) => item.name === 'Invoice intake')!;
      const detail = (await t.call<WorkflowDetail>(`/api/workflow/${intake.id}`, { token: admin })).body;
      expect(detail.versions.length).toBe(2);
      const file = await t.call(`/api/workflow/download/${intake.id}`, { token: admin });
      expect((await readRax(file.bytes)).manifest.name).toBe('Invoice intake');
    }
  });
});

describe('the demo history of Reports (issue 16)', () => {
  const DAY = 86_400_000;
  const rows = <T extends Record<string, unknown>>(query: ReturnType<typeof sql>) =>
    selectRows<T>(t.database.db, query);

  it('gives every company a few thousand runs on most of the last 90 days, none in the future', async () => {
    const companies = await rows<{ name: string; runs: number; days: number; oldest: string; newest: string }>(sql`
      select company_name as name, count(*)::int as runs,
        count(distinct execution_start / ${DAY}::bigint)::int as days,
        min(execution_start)::text as oldest, max(execution_end)::text as newest
      from execution_logs group by company_name`);
    expect(companies.map((company) => company.name).sort()).toEqual(DEMO_COMPANIES.map((plan) => plan.name).sort());
    for (const company of companies) {
      expect(company.runs, company.name).toBeGreaterThan(2_000);
      expect(company.runs, company.name).toBeLessThan(4_500);
      expect(company.days, company.name).toBeGreaterThanOrEqual(85);
      expect(Number(company.oldest)).toBeGreaterThanOrEqual(startedAt - DEMO_HISTORY_DAYS * DAY);
      expect(Number(company.newest)).toBeLessThan(Date.now());
    }
    const [queued] = await rows<{ newest: string; open: number }>(
      sql`select max(queued_at)::text as newest, count(*) filter (where open)::int as open from queued_runs`,
    );
    expect(Number(queued!.newest)).toBeLessThan(Date.now());
    expect(queued!.open).toBe(0);
  });

  it('succeeds about 9 runs in 10, and fails at the fragile steps with messages that fit them', async () => {
    const statuses = await rows<{ name: string; success: number; faulted: number; unknown: number; runs: number }>(sql`
      select company_name as name, count(*)::int as runs,
        count(*) filter (where status_type = 'success')::int as success,
        count(*) filter (where status_type = 'faulted')::int as faulted,
        count(*) filter (where status_type = 'unknown')::int as unknown
      from execution_logs group by company_name`);
    for (const company of statuses) {
      expect(company.success / company.runs, company.name).toBeGreaterThanOrEqual(0.88);
      expect(company.success / company.runs, company.name).toBeLessThanOrEqual(0.94);
      expect(company.faulted / company.runs, company.name).toBeGreaterThanOrEqual(0.05);
      expect(company.faulted / company.runs, company.name).toBeLessThanOrEqual(0.1);
      expect(company.unknown, company.name).toBeGreaterThan(0);
    }

    // A step's name says its activity, within its workflow.
    const activityOf = new Map<string, string>();
    for (const [workflow, versions] of demoWorkflowSteps())
      for (const steps of versions)
        for (const [activity, step] of steps) activityOf.set(`${workflow}/${step}`, activity);
    const failures = await rows<{ workflow: string; step: string; message: string; status: string; n: number }>(sql`
      select workflow_name as workflow, error_activity as step, error_message as message, status_type as status, count(*)::int as n
      from execution_logs where status_type <> 'success' group by 1, 2, 3, 4`);
    const unfit = failures.filter((failure) => {
      const activity = activityOf.get(`${failure.workflow}/${failure.step}`);
      if (!activity) return true;
      return failure.status === 'unknown'
        ? failure.message !== TERMINATED_MESSAGE
        : !errorsFor(activity).includes(failure.message);
    });
    expect(unfit).toEqual([]);
    const faulted = failures.filter((failure) => failure.status === 'faulted');
    const total = faulted.reduce((sum, failure) => sum + failure.n, 0);
    const fragile = faulted
      .filter((failure) =>
        /^(open-browser|click-element|type-into|sap-|get-imap-mail|ocr-|read-pdf)/.test(
          activityOf.get(`${failure.workflow}/${failure.step}`)!,
        ),
      )
      .reduce((sum, failure) => sum + failure.n, 0);
    expect(fragile / total).toBeGreaterThan(0.75);
  });

  it("is run by the company's keys, as the company's users when the key's e-mail is theirs", async () => {
    const [wrong] = await rows<{ foreign: number; mac: number; executor: number; unnamed: number }>(sql`
      select
        count(*) filter (where accounts.tenant_id is distinct from logs.tenant_id)::int as foreign,
        count(*) filter (where not logs.mac_address = any (accounts.mac_addresses))::int as mac,
        count(*) filter (where users.id is not null and logs.executor_user_id is distinct from users.id)::int as executor,
        count(*) filter (where logs.executor_first_name = '' or logs.hostname is null)::int as unnamed
      from execution_logs logs
      join accounts on accounts.id = logs.account_id
      left join users on lower(users.email_address) = lower(accounts.email_address) and users.tenant_id = logs.tenant_id`);
    expect(wrong).toEqual({ foreign: 0, mac: 0, executor: 0, unnamed: 0 });
    const [versions] = await rows<{ workflows: number; revised: number }>(sql`
      select count(distinct workflow_id)::int as workflows,
        count(distinct workflow_id) filter (where workflow_version > 1)::int as revised
      from execution_logs`);
    expect(versions!.revised).toBeGreaterThan(0);
    expect(versions!.workflows).toBe(DEMO_COMPANIES.length * demoWorkflowSteps().size);
  });

  it('has its rollups equal to the raw rows', async () => {
    const differences = await rows(sql`
      with raw as (
        select tenant_id, workflow_id, execution_start - mod(execution_start, ${DAY}::bigint) as day,
          count(*) filter (where status_type = 'success')::int as s, count(*) filter (where status_type = 'faulted')::int as f,
          count(*) filter (where status_type = 'unknown')::int as u, 0 as q
        from execution_logs group by 1, 2, 3
        union all
        select tenant_id, workflow_id, queued_at - mod(queued_at, ${DAY}::bigint), 0, 0, 0, count(*)::int from queued_runs group by 1, 2, 3
      ),
      summed as (select tenant_id, workflow_id, day, sum(s)::int as s, sum(f)::int as f, sum(u)::int as u, sum(q)::int as q from raw group by 1, 2, 3),
      daily as (select tenant_id, workflow_id, day_start as day, succeeded as s, faulted as f, unknown as u, queued as q from execution_daily_rollups)
      (select * from summed except select * from daily) union all (select * from daily except select * from summed)`);
    expect(differences).toEqual([]);
    const [totals] = await rows<{ logs: number; buckets: number; executed: string; spread: string }>(sql`
      select (select count(*)::int from execution_logs) as logs,
        (select sum(succeeded + faulted + unknown)::int from execution_rollups) as buckets,
        (select sum(execution_end - execution_start)::text from execution_logs) as executed,
        (select sum(execution_ms)::text from execution_time_rollups) as spread`);
    expect(totals!.buckets).toBe(totals!.logs);
    expect(totals!.spread).toBe(totals!.executed);
  });
});

describe('the demo activity of the Monitor (issue 17)', () => {
  const DAY = 86_400_000;
  const rows = <T extends Record<string, unknown>>(query: ReturnType<typeof sql>) =>
    selectRows<T>(t.database.db, query);

  it('gives every staff member a key with a licence file, and acts out their scheduled days on it', async () => {
    const [keys] = await rows<{ staff: number; keyed: number; people: number; heads: number }>(sql`
      select (select count(*)::int from users join companies on companies.id = users.company_id where users.id <> companies.head_id) as staff,
        (select count(distinct lower(accounts.email_address))::int from accounts join users on lower(users.email_address) = lower(accounts.email_address)
          where accounts.sealed_key is not null and accounts.tenant_id = users.tenant_id) as keyed,
        (select count(distinct user_id)::int from activity_spans) as people,
        (select count(*)::int from activity_spans join companies on companies.head_id = activity_spans.user_id) as heads`);
    // The heads have no schedule (and no key); everyone else has both, and a month of activity.
    expect(keys).toEqual({ staff: keys!.staff, keyed: keys!.staff, people: keys!.staff, heads: 0 });
    expect(keys!.staff).toBe(DEMO_COMPANIES.reduce((sum, plan) => sum + plan.staff.length, 0));
    const [spans] = await rows<{ spans: number; days: number; future: number; foreign: number; open: number }>(sql`
      select count(*)::int as spans, count(distinct started_at / ${DAY}::bigint)::int as days,
        count(*) filter (where started_at >= ${Date.now()}::bigint or ended_at > ${Date.now()}::bigint)::int as future,
        count(*) filter (where accounts.email_address is null or lower(accounts.email_address) <> lower(users.email_address))::int as foreign,
        count(*) filter (where ended_at is null)::int as open
      from activity_spans join users on users.id = activity_spans.user_id left join accounts on accounts.id = activity_spans.account_id`);
    // The weekdays of 30 days (and the Saturdays the night shifts end on).
    expect(spans!.days).toBeGreaterThanOrEqual(21);
    expect(spans!).toMatchObject({ future: 0, foreign: 0, open: 0 });
    // About 40 to 80 spans a person and working day.
    expect(spans!.spans).toBeGreaterThan(keys!.staff * 20 * 40);
    expect(spans!.spans).toBeLessThan(keys!.staff * 23 * 80);
    // Its rollups are the spans'.
    const [sums] = await rows<{ spans: string; rolled: string }>(sql`
      select (select sum(ended_at - started_at)::text from activity_spans) as spans,
        (select sum(duration_ms)::text from activity_daily_rollups where person_id = 0) as rolled`);
    expect(sums!.rolled).toBe(sums!.spans);
  });

  it('answers every widget with something for a company head over the last 30 days, late arrivals, absences, long breaks and idle hours among them', async () => {
    const to = Date.now();
    const from = to - 30 * DAY;
    for (const plan of DEMO_COMPANIES) {
      const token = await t.login(emailOf(plan.head, plan.domain), DEMO_ADMIN_PASSWORD);
      const widget = async <T>(key: string, range = { from, to }) => {
        const answer = await t.call<T>(
          `/api${MONITOR_PATHS.widget(key as never)}?${queryString({ ...range, tz: plan.timeZone })}`,
          {
            token,
          },
        );
        expect(answer.status, `${plan.name} ${key}`).toBe(200);
        return answer.body;
      };
      for (const key of WIDGET_KEYS) {
        const body = await widget<unknown>(key);
        if (key === 'active_users') {
          expect(body, plan.name).toMatchObject({ active: plan.staff.length, total: plan.staff.length + 1 });
        } else if (key === 'hourly_activity') {
          expect(
            (body as { activeMs: number }[]).some((hour) => hour.activeMs > 0),
            `${plan.name} ${key}`,
          ).toBe(true);
        } else {
          expect((body as unknown[]).length, `${plan.name} ${key}`).toBeGreaterThan(0);
        }
      }
      const attendance =
        await widget<{ lateDays: number; absentDays: number; presentDays: number }[]>('attendance_and_tardiness');
      const sum = (field: 'lateDays' | 'absentDays' | 'presentDays') =>
        attendance.reduce((total, person) => total + person[field], 0);
      expect(sum('lateDays'), plan.name).toBeGreaterThan(0);
      expect(sum('absentDays'), plan.name).toBeGreaterThan(0);
      expect(sum('lateDays') + sum('absentDays'), plan.name).toBeLessThan(sum('presentDays') / 3);
      const breaks = await widget<{ breaks: number; overThreshold: number }[]>('break_adherence');
      expect(
        breaks.reduce((total, person) => total + person.overThreshold, 0),
        plan.name,
      ).toBeGreaterThan(0);
      // The alerts show the newest 50: every kind turns up within the month's weeks.
      const kinds = new Set<string>();
      for (let end = to; end > from; end -= 7 * DAY) {
        for (const alert of await widget<{ kind: string }[]>('alerts', {
          from: Math.max(from, end - 7 * DAY),
          to: end,
        }))
          kinds.add(alert.kind);
      }
      expect([...kinds].sort(), plan.name).toEqual(['absent', 'break_over', 'idle_long', 'late']);
    }
  });

  it('gives the demo fleet one agent per staff member, whose plan goes on with the seeded spans', async () => {
    const api = new AdminApi(t.baseUrl);
    await api.signIn(ADMIN.email, ADMIN.password);
    const members = await planFleet(api, { count: undefined, perCompany: Number.POSITIVE_INFINITY, generate: false });
    expect(members).toHaveLength(DEMO_COMPANIES.reduce((sum, plan) => sum + plan.staff.length, 0));
    const given = new Map<string, Workdays>();
    const agents = members.map(
      (member) =>
        ({
          setWorkdays: (workdays: Workdays) => given.set(member.emailAddress!, workdays),
        }) as unknown as SimulatedAgent,
    );
    const workdays = startWorkdays(api, members, agents);
    expect(await workdays.refresh()).toBe(members.length);
    workdays.stop();
    // The spans the live agents would send that started before the seed: the seeded ones, id for id.
    const planned = [...given.values()]
      .flatMap((plan) => planWorkdays(plan))
      .filter((span) => span.start < startedAt - 60_000);
    expect(planned.length).toBeGreaterThan(members.length * 20);
    const stored = await rows<{ id: string; kind: string; start: string }>(
      sql`select id::text, kind, started_at::text as start from activity_spans where started_at >= ${startedAt - 2 * DAY}::bigint`,
    );
    const byId = new Map(stored.map((row) => [row.id, row]));
    const missing = planned.filter(
      (span) => byId.get(span.id)?.start !== String(span.start) || byId.get(span.id)?.kind !== span.kind,
    );
    expect(missing).toEqual([]);
  });
});
