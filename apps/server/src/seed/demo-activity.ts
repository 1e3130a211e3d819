import { departmentChain, type PlannedSpan, personSeed, planWorkdays, statusesFor } from '@opsdeck/agent/workday';
import { and, eq, inArray, isNotNull, lt } from 'drizzle-orm';
import type { Executor } from '../db/client';
import { accounts, activitySpans, schedules, statuses, tasks, users } from '../db/schema';
import { ensureCurrentMonths, ensureMonthPartition, monthOf, nextMonthOf } from '../platform/partitions';
import { insertMany } from './demo-history';
import type { DemoTenant } from './demo-tenant';

/** Spans per INSERT: a JSON parameter of about a megabyte. */
const BATCH = 5_000;

/**
 * The activity of one demo company's staff over their past schedules (docs/monitor.md, "The
 * simulator and the demo"): each person's days as the agent simulator's planner acts them out
 * (`@opsdeck/agent/workday`, seeded by the key's e-mail and the schedule, so the live agent of that
 * key goes on with the same spans), stored straight into activity_spans under the person's key.
 * Spans start before `now`; one still going on at `now` is closed there as the server closes a
 * departed agent's spans (`ended_by_server`): the live agent sending it open again reopens it.
 * Heads have no schedule and no activity. The rollups are not touched: the caller rebuilds them once.
 */
export async function seedDemoActivity(db: Executor, tenant: DemoTenant) {
  const now = tenant.now;
  if (tenant.staffIds.length === 0) return { spans: 0 };
  const people = await db
    .select({ id: users.id, emailAddress: users.emailAddress, departmentId: users.departmentId })
    .from(users)
    .where(inArray(users.id, tenant.staffIds));
  const keys = await db
    .select({ id: accounts.id, emailAddress: accounts.emailAddress })
    .from(accounts)
    .where(and(eq(accounts.tenantId, tenant.tenantId), isNotNull(accounts.emailAddress)));
  const keyOf = new Map(keys.map((key) => [personSeed(key.emailAddress!), key.id]));
  const companyStatuses = await db
    .select({
      id: statuses.id,
      name: statuses.name,
      threshold: statuses.threshold,
      trackIdle: statuses.trackIdle,
      departmentId: statuses.departmentId,
      builtIn: statuses.builtIn,
    })
    .from(statuses)
    .where(eq(statuses.tenantId, tenant.tenantId));
  const companyTasks = await db
    .select({ id: tasks.id, name: tasks.name, statusId: tasks.statusId })
    .from(tasks)
    .where(eq(tasks.tenantId, tenant.tenantId));
  const shifts = await db
    .select({ userId: schedules.userId, start: schedules.scheduleStart, end: schedules.scheduleEnd })
    .from(schedules)
    .where(
      and(eq(schedules.tenantId, tenant.tenantId), eq(schedules.archived, false), lt(schedules.scheduleStart, now)),
    );

  const rows: (typeof activitySpans.$inferInsert)[] = [];
  for (const person of people) {
    const seed = personSeed(person.emailAddress);
    const own = shifts.filter((shift) => shift.userId === person.id);
    if (own.length === 0) continue;
    const spans = planWorkdays({
      seed,
      schedules: own,
      statuses: statusesFor(companyStatuses, departmentChain(tenant.departments, person.departmentId)),
      tasks: companyTasks,
    });
    const accountId = keyOf.get(seed) ?? null;
    for (const span of spans) {
      if (span.start >= now) continue;
      rows.push(row(tenant, person.id, accountId, span, now));
    }
  }
  if (rows.length === 0) return { spans: 0 };

  // The months' partitions (UTC months), this month's and the next included.
  const oldest = Math.min(...rows.map((item) => item.startedAt));
  for (let month = monthOf(oldest); month <= now; month = nextMonthOf(month)) {
    await ensureMonthPartition(db, 'activity_spans', month);
  }
  await ensureCurrentMonths(db, 'activity_spans', now);
  for (let from = 0; from < rows.length; from += BATCH) {
    await insertMany(db, activitySpans, rows.slice(from, from + BATCH));
  }
  return { spans: rows.length };
}

function row(
  tenant: DemoTenant,
  userId: number,
  accountId: number | null,
  span: PlannedSpan,
  now: number,
): typeof activitySpans.$inferInsert {
  const ongoing = span.end > now;
  const end = ongoing ? now : span.end;
  return {
    id: span.id,
    tenantId: tenant.tenantId,
    companyId: tenant.companyId,
    accountId,
    userId,
    kind: span.kind,
    startedAt: span.start,
    endedAt: end,
    application: span.kind === 'app' ? span.application : null,
    statusId: span.kind === 'status' ? span.statusId : null,
    taskId: span.kind === 'task' ? span.taskId : null,
    endedByServer: ongoing,
    // The agent reports a span as it ends (a few seconds later).
    receivedAt: end + 2_000,
  };
}
