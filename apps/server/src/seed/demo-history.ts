import { and, asc, type Column, eq, getTableColumns, isNull, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Executor } from '../db/client';
import { accounts, companies, executionLogs, queuedRuns, users, workflows, workflowVersions } from '../db/schema';
import { ensureMonthPartition } from '../modules/execution-logs/queries';
import { splitFullName } from '../modules/execution-logs/service';
import { type HistoryWorkflow, type PlannedRun, planDemoRuns } from './demo-runs';
import { DEMO_HISTORY_DAYS, type DemoTenant } from './demo-tenant';
import { demoWorkflowSteps } from './demo-workflows';

export type DemoHistoryOptions = {
  /** The company's IANA time zone: its working hours and weekends. */
  timeZone: string;
  /** The same seed gives the same runs (for the same `now`). */
  seed: number;
  days?: number;
  /** Scales the runs people ask for (1: as demo-runs.ts's CADENCES says). */
  volume?: number;
};

/** Rows per INSERT: a thousand logs make a JSON parameter of about half a megabyte. */
const BATCH = 1_000;

/**
 * Gives one demo company the execution logs of the last `days` days (docs/reports.md, The demo
 * history): its demo workflows run by its keys that have a machine (the ones the simulated agents
 * connect with), each run also a queued run, so that the reports and the logs pages are full on
 * first start. The rollups are not touched: the caller rebuilds them once, after every company.
 */
export async function seedDemoHistory(db: Executor, tenant: DemoTenant, options: DemoHistoryOptions) {
  const days = options.days ?? DEMO_HISTORY_DAYS;
  const robots = await robotsOf(db, tenant);
  const [company] = await db.select({ name: companies.name }).from(companies).where(eq(companies.id, tenant.companyId));
  const flows = await workflowsOf(db, tenant);
  if (robots.length === 0 || flows.length === 0) return { runs: 0 };

  const runs = planDemoRuns({
    now: tenant.now,
    days,
    timeZone: options.timeZone,
    seed: options.seed,
    workflows: flows,
    robots: robots.length,
    volume: options.volume,
  });

  // The months' partitions first (UTC months: migration 0011's opsdeck_month_partition).
  const first = new Date(tenant.now - days * 86_400_000);
  for (let month = Date.UTC(first.getUTCFullYear(), first.getUTCMonth(), 1); month <= tenant.now; ) {
    await ensureMonthPartition(db, 'execution_logs', month);
    const date = new Date(month);
    month = Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1);
  }

  const log = (run: PlannedRun): typeof executionLogs.$inferInsert => {
    const robot = robots[run.robot]!;
    const flow = flows[run.workflow]!;
    return {
      id: run.id,
      tenantId: tenant.tenantId,
      companyId: tenant.companyId,
      companyName: company?.name ?? null,
      departmentId: robot.departmentId,
      departmentName: robot.departmentName,
      accountId: robot.accountId,
      ...robot.executor,
      macAddress: robot.macAddress,
      hostname: robot.hostname,
      workflowId: flow.id,
      workflowName: flow.name,
      workflowVersion: run.version,
      executionStart: run.start,
      executionEnd: run.end,
      statusType: run.status,
      errorMessage: run.errorMessage,
      errorActivity: run.errorActivity,
      // The agent reports a run as it ends.
      receivedAt: run.end + 250,
    };
  };
  for (let from = 0; from < runs.length; from += BATCH) {
    const batch = runs.slice(from, from + BATCH);
    await insertMany(db, executionLogs, batch.map(log));
    await insertMany(
      db,
      queuedRuns,
      batch.map((run) => ({
        tenantId: tenant.tenantId,
        companyId: tenant.companyId,
        accountId: robots[run.robot]!.accountId,
        entryId: run.entryId,
        workflowId: flows[run.workflow]!.id,
        queuedAt: run.queuedAt,
        // The agent removed each entry from its queue when it ran it.
        open: false,
      })),
    );
  }
  return { runs: runs.length };
}

/**
 * Inserts rows in one statement, sent as one JSON parameter: on PGlite, the same logs bound as
 * `values` (22 parameters a row, 500 rows a statement) took two to three times as long.
 */
export async function insertMany<T extends PgTable>(db: Executor, table: T, rows: T['$inferInsert'][]) {
  const columns: Record<string, Column> = getTableColumns(table);
  const records = rows as Record<string, unknown>[];
  const keys = Object.keys(columns).filter((key) => records.some((row) => row[key] !== undefined));
  const names = keys.map((key) => columns[key]!.name);
  const json = JSON.stringify(
    records.map((row) => Object.fromEntries(keys.map((key, i) => [names[i], row[key] ?? null]))),
  );
  const list = sql.join(
    names.map((name) => sql.identifier(name)),
    sql`, `,
  );
  await db.execute(
    sql`insert into ${table} (${list}) select ${list} from json_populate_recordset(null::${table}, ${json}::json)`,
  );
}

/**
 * The company's keys with a machine, oldest first: who ran what where, copied as the execution
 * logs service does (the executor is the company's user with the key's e-mail, else the key's name).
 */
async function robotsOf(db: Executor, tenant: DemoTenant) {
  const keys = await db
    .select({
      accountId: accounts.id,
      fullName: accounts.fullName,
      emailAddress: accounts.emailAddress,
      macAddresses: accounts.macAddresses,
      hostname: accounts.hostname,
      departmentId: accounts.departmentId,
      departmentName: accounts.departmentName,
    })
    .from(accounts)
    .where(
      and(
        eq(accounts.tenantId, tenant.tenantId),
        isNull(accounts.invalidatedAt),
        sql`cardinality(${accounts.macAddresses}) > 0`,
      ),
    )
    .orderBy(asc(accounts.id));
  const staff = await db
    .select({ id: users.id, firstName: users.firstName, lastName: users.lastName, emailAddress: users.emailAddress })
    .from(users)
    .where(eq(users.tenantId, tenant.tenantId));
  const byEmail = new Map(staff.map((user) => [user.emailAddress.toLowerCase(), user]));
  return keys.map((key) => {
    const user = key.emailAddress ? byEmail.get(key.emailAddress.trim().toLowerCase()) : undefined;
    const name = user ?? splitFullName(key.fullName);
    return {
      ...key,
      // The machine the simulated agent connects as (apps/agent/src/fleet.ts: its first address).
      macAddress: key.macAddresses[0]!,
      executor: {
        executorUserId: user?.id ?? null,
        executorFirstName: name.firstName,
        executorLastName: name.lastName,
        emailAddress: user?.emailAddress ?? key.emailAddress,
      },
    };
  });
}

/** The company's demo workflows with their versions' dates and steps (from the demo's plans). */
async function workflowsOf(db: Executor, tenant: DemoTenant): Promise<(HistoryWorkflow & { id: number })[]> {
  const plans = demoWorkflowSteps();
  const rows = await db
    .select({ id: workflows.id, name: workflows.name })
    .from(workflows)
    .where(eq(workflows.tenantId, tenant.tenantId))
    .orderBy(asc(workflows.id));
  const versions = await db
    .select({
      workflowId: workflowVersions.workflowId,
      number: workflowVersions.number,
      createdAt: workflowVersions.createdAt,
    })
    .from(workflowVersions)
    .where(eq(workflowVersions.tenantId, tenant.tenantId))
    .orderBy(asc(workflowVersions.workflowId), asc(workflowVersions.number));
  return rows.flatMap((row) => {
    const plan = plans.get(row.name);
    if (!plan) return [];
    const own = versions.filter((version) => version.workflowId === row.id);
    return [
      {
        id: row.id,
        name: row.name,
        versions: own.flatMap((version, index) => {
          const steps = plan[index];
          if (!steps) return [];
          return [
            {
              number: version.number,
              createdAt: version.createdAt,
              steps: steps.map(([activity, name, expectedSeconds]) => ({ activity, name, expectedSeconds })),
            },
          ];
        }),
      },
    ];
  });
}
