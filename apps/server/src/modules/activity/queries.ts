import type { ActivityKind } from '@opsdeck/contract/activity';
import { type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { type Executor, selectRows } from '../../db/client';
import { accounts, activitySpans, statuses, tasks } from '../../db/schema';
import { inScope, type TenantScope } from '../../platform/tenancy';

/** Rollup buckets (docs/monitor.md, "Storage"): 15 minutes, and UTC days. */
/** ` and <condition>` inside a raw WHERE, or nothing (a scope of every tenant adds none). */
const also = (condition: SQL | undefined) => (condition ? sql` and ${condition}` : sql``);

export const BUCKET_MS = 15 * 60_000;
export const DAY_MS = 86_400_000;

/** A span as stored (activity_spans), times as numbers. */
export type StoredSpan = {
  id: string;
  tenantId: string;
  accountId: number | null;
  kind: ActivityKind;
  startedAt: number;
  endedAt: number | null;
  application: string | null;
  statusId: number | null;
  taskId: number | null;
  endedByServer: boolean;
};

type SpanRow = {
  id: string;
  tenant_id: string;
  account_id: number | null;
  kind: ActivityKind;
  started_at: string | number;
  ended_at: string | number | null;
  application: string | null;
  status_id: number | null;
  task_id: number | null;
  ended_by_server: boolean;
};

const toSpan = (row: SpanRow): StoredSpan => ({
  id: row.id,
  tenantId: row.tenant_id,
  accountId: row.account_id === null ? null : Number(row.account_id),
  kind: row.kind,
  startedAt: Number(row.started_at),
  endedAt: row.ended_at === null ? null : Number(row.ended_at),
  application: row.application,
  statusId: row.status_id === null ? null : Number(row.status_id),
  taskId: row.task_id === null ? null : Number(row.task_id),
  endedByServer: row.ended_by_server,
});

const SPAN_COLUMNS = sql.raw(
  'id::text as id, tenant_id::text as tenant_id, account_id, kind, started_at, ended_at, application, status_id, task_id, ended_by_server',
);

/**
 * The spans stored under these ids that started since `since` (the last 8 days: a span older than
 * 7 days is refused, so a changed start is found within two partitions at most). Unlocked: to tell
 * a changed span from a resend before writing.
 */
export async function spansByIds(
  db: Executor,
  scope: TenantScope,
  ids: readonly string[],
  since: number,
): Promise<StoredSpan[]> {
  if (ids.length === 0) return [];
  const rows = await selectRows<SpanRow>(
    db,
    sql`select ${SPAN_COLUMNS} from activity_spans
        where id = any(${sql.param([...ids])}::uuid[]) and started_at >= ${since}::bigint${also(inScope(activitySpans.tenantId, scope))}`,
  );
  return rows.map(toSpan);
}

/**
 * Locks the stored spans of these keys (id, start), in key order (two batches naming the same spans
 * lock them in the same order, and never wait on each other in a cycle), and answers them.
 */
export async function lockSpans(
  db: Executor,
  scope: TenantScope,
  keys: readonly { id: string; startedAt: number }[],
): Promise<StoredSpan[]> {
  if (keys.length === 0) return [];
  const rows = await selectRows<SpanRow>(
    db,
    sql`select ${SPAN_COLUMNS} from activity_spans
        where (id, started_at) in (
          select * from unnest(${sql.param(keys.map((key) => key.id))}::uuid[], ${sql.param(keys.map((key) => key.startedAt))}::bigint[]))${also(inScope(activitySpans.tenantId, scope))}
        order by id, started_at
        for update`,
  );
  return rows.map(toSpan);
}

/** What a write does to one span: insert it, or move its end (and who set it). */
export type SpanWrite = StoredSpan & {
  op: 'insert' | 'update';
  companyId: number | null;
  userId: number | null;
  /** The span's time in the rollups before this write: its end then, or its start (none) for a new or open one. */
  rolledFrom: number;
};

/** The rollup item of a span: the application, the status or task id, '' for sessions and idle. */
export function itemOf(span: {
  kind: ActivityKind;
  application: string | null;
  statusId: number | null;
  taskId: number | null;
}): string {
  switch (span.kind) {
    case 'app':
      return span.application ?? '';
    case 'status':
      return String(span.statusId ?? '');
    case 'task':
      return String(span.taskId ?? '');
    default:
      return '';
  }
}

/**
 * The rollups' upserts from a CTE `delta` of (tenant_id, company_id, user_id, account_id, kind, item,
 * lo, hi, sign, counted_start): `sign` × the milliseconds of [lo, hi) spread over the 15-minute buckets and
 * the UTC days they cover, and one start in the bucket and day of `counted_start` when it is not
 * null; each added to the person's row (user_id) and the company's (person 0). And the person-days
 * of task productivity it changes marked stale (markTaskDaysStale). Each upsert in its conflict
 * key's order: batches in flight take their row locks in the same order.
 */
function rollupUpserts(): SQL {
  const pieces = (width: number) => sql`
      select tenant_id, company_id, person_id, kind, item,
        slot, sign * (least(hi, slot + ${sql.raw(String(width))}::bigint) - greatest(lo, slot)) as ms, 0 as starts
      from per_person, generate_series(lo - mod(lo, ${sql.raw(String(width))}::bigint), hi - 1, ${sql.raw(String(width))}::bigint) as slot
      where hi > lo
      union all
      select tenant_id, company_id, person_id, kind, item,
        counted_start - mod(counted_start, ${sql.raw(String(width))}::bigint), 0, 1
      from per_person where counted_start is not null`;
  const upsert = (table: string, column: string, width: number) => sql`
      insert into ${sql.raw(table)} (tenant_id, company_id, person_id, ${sql.raw(column)}, kind, item, duration_ms, starts)
      select tenant_id, max(company_id), person_id, slot, kind, item, sum(ms), sum(starts)::int
      from (${pieces(width)}) as piece
      group by tenant_id, person_id, slot, kind, item
      order by tenant_id, person_id, slot, kind, item
      on conflict (tenant_id, person_id, ${sql.raw(column)}, kind, item) do update set
        duration_ms = ${sql.raw(table)}.duration_ms + excluded.duration_ms,
        starts = ${sql.raw(table)}.starts + excluded.starts
      returning 1`;
  return sql`
    per_person as (
      select tenant_id, company_id, person.id as person_id, kind, item, lo, hi, sign, counted_start
      from delta cross join lateral (values (user_id), (0)) as person(id)
      where person.id is not null
    ),
    quarter as (${upsert('activity_rollups', 'bucket_start', BUCKET_MS)}),
    daily as (${upsert('activity_daily_rollups', 'day_start', DAY_MS)}),
    ${markTaskDaysStale()}`;
}

/**
 * The CTE `task_days_stale` marking stale the person-days a CTE `delta` (tenant_id, user_id,
 * account_id, kind, lo, hi) changes: the UTC days [lo, hi) reaches of its session, idle and task
 * spans. Part of the statement that changes the spans (writeSpans, closeOpenSpans, closeOrphanSpans; modules/activity/task-days.ts), in key order.
 */
export function markTaskDaysStale(): SQL {
  const day = sql.raw(`${DAY_MS}::bigint`);
  return sql`
    task_days_stale as (
      insert into activity_task_days_stale (tenant_id, person_id, day_start)
      select distinct tenant_id, coalesce(user_id, -account_id) as person_id, day
      from delta, generate_series(lo - mod(lo, ${day}), hi - 1, ${day}) as day
      where kind in ('session', 'idle', 'task') and hi > lo and coalesce(user_id, -account_id) is not null
      order by 1, 2, 3
      on conflict (tenant_id, person_id, day_start) do update set version = activity_task_days_stale.version + 1
      returning 1
    )`;
}

/** The columns of writeSpans's arrays, in order. */
const WRITE_COLUMNS = [
  ['op', 'text', (row) => row.op],
  ['id', 'uuid', (row) => row.id],
  ['tenant_id', 'uuid', (row) => row.tenantId],
  ['company_id', 'int', (row) => row.companyId],
  ['account_id', 'int', (row) => row.accountId],
  ['user_id', 'int', (row) => row.userId],
  ['kind', 'text', (row) => row.kind],
  ['started_at', 'bigint', (row) => row.startedAt],
  ['ended_at', 'bigint', (row) => row.endedAt],
  ['application', 'text', (row) => row.application],
  ['status_id', 'int', (row) => row.statusId],
  ['task_id', 'int', (row) => row.taskId],
  ['ended_by_server', 'boolean', (row) => row.endedByServer],
  ['rolled_from', 'bigint', (row) => row.rolledFrom],
  ['item', 'text', (row) => itemOf(row)],
] as const satisfies readonly (readonly [string, string, (row: SpanWrite) => unknown])[];

/**
 * Writes spans and their rollups in one statement (the caller's transaction holds the locks of the
 * spans updated, lockSpans): new spans inserted (`on conflict do nothing`: one a concurrent batch
 * stored first is left to it, and adds nothing here), ends moved, and each span's change of time,
 * [rolled_from, new end or start), added to (or, for an end the server set and the agent moved
 * earlier, taken from) both rollups; a new span counts one start. The text never changes with the
 * batch: one array parameter a column. Answers how many spans were inserted and updated.
 */
export async function writeSpans(
  db: Executor,
  rows: readonly SpanWrite[],
  receivedAt: number,
): Promise<{ inserted: number; updated: number }> {
  if (rows.length === 0) return { inserted: 0, updated: 0 };
  // Key order: the inserts and the updates lock rows in the order lockSpans did.
  const sorted = [...rows].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : a.startedAt - b.startedAt));
  const names = sql.raw(WRITE_COLUMNS.map(([name]) => name).join(', '));
  const arrays = sql.join(
    WRITE_COLUMNS.map(([, type, value]) => sql`${sql.param(sorted.map((row) => value(row)))}::${sql.raw(type)}[]`),
    sql`, `,
  );
  const [result] = await selectRows<{ inserted: number; updated: number }>(
    db,
    sql`
    with input as (select * from unnest(${arrays}) as input(${names})),
    inserted as (
      insert into activity_spans (id, tenant_id, company_id, account_id, user_id, kind, started_at, ended_at,
        application, status_id, task_id, ended_by_server, received_at)
      select id, tenant_id, company_id, account_id, user_id, kind, started_at, ended_at,
        application, status_id, task_id, ended_by_server, ${receivedAt}::bigint
      from input where op = 'insert'
      order by id, started_at
      on conflict do nothing
      returning id, started_at
    ),
    updated as (
      update activity_spans as span set ended_at = input.ended_at, ended_by_server = input.ended_by_server
      from input
      where input.op = 'update' and span.id = input.id and span.started_at = input.started_at
      returning span.id
    ),
    delta as (
      select input.tenant_id, input.company_id, input.user_id, input.account_id, input.kind, input.item,
        least(input.rolled_from, coalesce(input.ended_at, input.started_at)) as lo,
        greatest(input.rolled_from, coalesce(input.ended_at, input.started_at)) as hi,
        case when coalesce(input.ended_at, input.started_at) >= input.rolled_from then 1 else -1 end as sign,
        case when input.op = 'insert' then input.started_at end as counted_start
      from input
      where input.op = 'update'
        or exists (select 1 from inserted where inserted.id = input.id and inserted.started_at = input.started_at)
    ),
    ${rollupUpserts()}
    select (select count(*)::int from inserted) as inserted, (select count(*)::int from updated) as updated`,
  );
  return { inserted: Number(result?.inserted ?? 0), updated: Number(result?.updated ?? 0) };
}

/**
 * Ends the open spans of the keys given, each at its key's time (never before the span's start,
 * nor past its 24 hours), as set by the server (the agent may still say otherwise), and adds the
 * time to the rollups, in one statement: the spans locked first in key order. With `seenBefore`,
 * only the keys whose last word (activity_agents, else the span's receipt) is older.
 */
export async function closeOpenSpans(
  db: Executor,
  ends: readonly { accountId: number; at: number }[],
): Promise<number> {
  if (ends.length === 0) return 0;
  const accounts = sql.param(ends.map((end) => end.accountId));
  const times = sql.param(ends.map((end) => end.at));
  const [row] = await selectRows<{ closed: number }>(
    db,
    sql`
    with ending as (select * from unnest(${accounts}::int[], ${times}::bigint[]) as ending(account_id, at)),
    locked as (
      select span.id, span.started_at, ending.at from activity_spans as span
      join ending on ending.account_id = span.account_id
      where span.ended_at is null
      order by span.id, span.started_at
      for update of span
    ),
    ${closeLocked()}`,
  );
  return Number(row?.closed ?? 0);
}

/**
 * Ends the open spans no connected agent can end any more: those of a key that is not connected
 * (`connected`, every instance's) whose last word is older than `seenBefore`, at that last word
 * (docs/monitor.md): the heart-beat or frame noted in activity_agents, else the span's receipt.
 */
export async function closeOrphanSpans(
  db: Executor,
  connected: readonly number[],
  seenBefore: number,
): Promise<number> {
  const [row] = await selectRows<{ closed: number }>(
    db,
    sql`
    with locked as (
      select span.id, span.started_at, coalesce(agent.last_seen, span.received_at) as at
      from activity_spans as span
      left join activity_agents as agent on agent.account_id = span.account_id
      where span.ended_at is null
        and (span.account_id is null or not (span.account_id = any(${sql.param([...connected])}::int[])))
        and coalesce(agent.last_seen, span.received_at) < ${seenBefore}::bigint
      order by span.id, span.started_at
      for update of span
    ),
    ${closeLocked()}`,
  );
  return Number(row?.closed ?? 0);
}

/** The end of a CTE `locked` (id, started_at, at): the spans closed and rolled up. */
function closeLocked(): SQL {
  return sql`
    closed as (
      update activity_spans as span
      set ended_at = greatest(span.started_at, least(locked.at, span.started_at + ${DAY_MS}::bigint)), ended_by_server = true
      from locked
      where span.id = locked.id and span.started_at = locked.started_at and span.ended_at is null
      returning span.tenant_id, span.company_id, span.user_id, span.account_id, span.kind, span.started_at, span.ended_at,
        case span.kind when 'app' then coalesce(span.application, '')
          when 'status' then coalesce(span.status_id::text, '')
          when 'task' then coalesce(span.task_id::text, '') else '' end as item
    ),
    delta as (
      select tenant_id, company_id, user_id, account_id, kind, item, started_at as lo, ended_at as hi, 1 as sign,
        null::bigint as counted_start
      from closed
    ),
    ${rollupUpserts()}
    select count(*)::int as closed from closed`;
}

/** Notes when the server last heard from these keys' agents (only ever later), in key order. */
export async function touchAgents(db: Executor, seen: readonly { accountId: number; at: number }[]) {
  if (seen.length === 0) return;
  const latest = new Map<number, number>();
  for (const { accountId, at } of seen) latest.set(accountId, Math.max(at, latest.get(accountId) ?? 0));
  const ids = [...latest.keys()].sort((a, b) => a - b);
  await db.execute(sql`
    insert into activity_agents (account_id, last_seen)
    select account_id, at from unnest(${sql.param(ids)}::int[], ${sql.param(ids.map((id) => latest.get(id)!))}::bigint[]) as seen(account_id, at)
    where exists (select 1 from accounts where accounts.id = seen.account_id)
    order by account_id
    on conflict (account_id) do update set last_seen = greatest(activity_agents.last_seen, excluded.last_seen)`);
}

const account = alias(accounts, 'account');

/** Each key (of the scope)'s company and person: the company's user whose e-mail is the key's (archived ones too). */
export async function peopleOfAccounts(db: Executor, scope: TenantScope, accountIds: readonly number[]) {
  if (accountIds.length === 0) return new Map<number, { companyId: number | null; userId: number | null }>();
  const rows = await selectRows<{ account_id: number; company_id: number | null; user_id: number | null }>(
    db,
    sql`select account.id as account_id, license.company_id,
          (select min(person.id) from users as person
            where person.tenant_id = account.tenant_id
              and lower(person.email_address) = lower(regexp_replace(account.email_address, '^\\s+|\\s+$', '', 'g'))) as user_id
        from accounts as account join licenses as license on license.id = account.license_id
        where account.id = any(${sql.param([...accountIds])}::int[])${also(inScope(account.tenantId, scope))}`,
  );
  return new Map(
    rows.map((row) => [
      Number(row.account_id),
      {
        companyId: row.company_id === null ? null : Number(row.company_id),
        userId: row.user_id === null ? null : Number(row.user_id),
      },
    ]),
  );
}

/** The tenant of each of these statuses (or tasks) of the scope: which company's they are. */
export async function tenantsOf(db: Executor, scope: TenantScope, table: 'statuses' | 'tasks', ids: readonly number[]) {
  if (ids.length === 0) return new Map<number, string>();
  const owner = inScope((table === 'statuses' ? statuses : tasks).tenantId, scope);
  const rows = await selectRows<{ id: number; tenant_id: string }>(
    db,
    sql`select id, tenant_id::text as tenant_id from ${sql.raw(table)} where id = any(${sql.param([...ids])}::int[])${also(owner)}`,
  );
  return new Map(rows.map((row) => [Number(row.id), row.tenant_id]));
}
