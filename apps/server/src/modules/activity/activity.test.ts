import { randomUUID } from 'node:crypto';
import type { Activity, ActivityRefusal } from '@opsdeck/contract/activity';
import { DESTINATIONS, type LiveRefusal } from '@opsdeck/contract/live';
import { eq, inArray, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createStatus, createTask, expectedTaskTimes, rollupsAndExpected } from '../../../test/activity';
import type { TestApp } from '../../../test/app';
import { createAgentKey, createUser } from '../../../test/factories';
import { agentHeaders, type LivePeer } from '../../../test/live';
import { type LiveTenant, liveSuite, newMac } from '../../../test/live-tenants';
import { selectRows } from '../../db/client';
import { accounts, activityAgents, activitySpans, activityTaskDaysStale } from '../../db/schema';
import { ensureMonthPartition, monthOf, monthPartitions } from '../../platform/partitions';
import { oneTenant } from '../../platform/tenancy';
import { taskTimes } from '../monitor/task-productivity';
import { BUCKET_MS, DAY_MS, writeSpans } from './queries';
import { applyActivityRetention, rebuildActivityRollups } from './rollups';
import type { ActivityService } from './service';
import { refreshAllTaskDays } from './task-days';

let t: TestApp;
let acme: LiveTenant;
let globex: LiveTenant;
const { open, newKey } = liveSuite((suite) => {
  ({ t, acme, globex } = suite);
});
const db = () => t.database.db;
const service = () => t.app.services.activity as ActivityService;

const AGENT_SUBSCRIPTIONS = [DESTINATIONS.agentWorkflows, DESTINATIONS.agentCommands, DESTINATIONS.errors];
const MINUTE = 60_000;
const HOUR = 3_600_000;

/** The tenant's department, where its statuses and tasks are made. */
const departmentOf = (of: LiveTenant) => ({ tenantId: of.company.tenantId, departmentId: of.departmentId });
const statusOf = (of: LiveTenant, name = 'Break', threshold = 15) =>
  createStatus(db(), departmentOf(of), name, { threshold });
const taskOf = (of: LiveTenant, statusId: number, name = 'Invoices') =>
  createTask(db(), departmentOf(of), statusId, name);

/** An agent of the company on the live channel, its key naming a user of the company (unless `person` is false). */
async function agentOf(of: LiveTenant, person = true) {
  const key = await newKey(of);
  let userId: number | null = null;
  if (person) {
    const user = await createUser(db(), { company: of.company });
    await db().update(accounts).set({ emailAddress: user.email.toUpperCase() }).where(eq(accounts.id, key.id));
    userId = user.id;
  }
  const mac = newMac();
  const peer = await open(agentHeaders(key.key, mac), AGENT_SUBSCRIPTIONS, { confirmed: true });
  return { key, mac, peer, userId };
}

const sendActivity = (peer: LivePeer, events: unknown[]) => peer.send(DESTINATIONS.agentActivity, { events }, true);

const spansOf = (ids: string[]) => db().select().from(activitySpans).where(inArray(activitySpans.id, ids));
const spanOf = async (id: string) => (await spansOf([id]))[0];

/** A rollup row's duration and starts (0 and 0 when missing). */
async function rollup(
  tenantId: string,
  personId: number,
  kind: string,
  item: string,
  at: number,
  daily = false,
): Promise<{ ms: number; starts: number }> {
  const width = daily ? DAY_MS : BUCKET_MS;
  const table = sql.raw(daily ? 'activity_daily_rollups' : 'activity_rollups');
  const column = sql.raw(daily ? 'day_start' : 'bucket_start');
  const [row] = await selectRows<{ ms: string; starts: number }>(
    db(),
    sql`select duration_ms::text as ms, starts from ${table}
        where tenant_id = ${tenantId} and person_id = ${personId} and kind = ${kind} and item = ${item}
          and ${column} = ${at - (at % width)}::bigint`,
  );
  return { ms: Number(row?.ms ?? 0), starts: Number(row?.starts ?? 0) };
}

async function expectRollupsExact() {
  const { quarter, expectedQuarter, daily, expectedDaily } = await rollupsAndExpected(db());
  expect(quarter).toEqual(expectedQuarter);
  expect(daily).toEqual(expectedDaily);
}

/** A bucket's start a while ago, so that a test's spans fall in known buckets. */
const aligned = (ago: number) => {
  const at = Date.now() - ago;
  return at - (at % BUCKET_MS);
};

/** As `aligned`, moved two hours earlier when the two hours after it would pass a UTC midnight (a test of daily rows). */
const alignedInDay = (ago: number) => {
  const at = aligned(ago);
  return at % DAY_MS > DAY_MS - 2 * HOUR ? at - 2 * HOUR : at;
};

describe('/agent/activity', () => {
  it('stores every kind with its person, receipts the frame, and rolls up the closed time', async () => {
    const { peer, key, userId } = await agentOf(acme);
    const statusId = await statusOf(acme);
    const taskId = await taskOf(acme, statusId);
    const base = alignedInDay(3 * HOUR);
    const events: Activity[] = [
      { id: randomUUID(), kind: 'session', start: base, end: null },
      { id: randomUUID(), kind: 'app', start: base + MINUTE, end: base + 21 * MINUTE, application: 'Excel' },
      { id: randomUUID(), kind: 'status', start: base + 2 * MINUTE, end: null, statusId },
      { id: randomUUID(), kind: 'task', start: base + 3 * MINUTE, end: base + 4 * MINUTE, taskId },
      { id: randomUUID(), kind: 'idle', start: base + 5 * MINUTE, end: base + 10 * MINUTE },
    ];
    await sendActivity(peer, events);
    expect(peer.received.get(DESTINATIONS.errors) ?? []).toEqual([]);

    const rows = await spansOf(events.map((event) => event.id));
    expect(rows).toHaveLength(5);
    for (const event of events) {
      const row = rows.find((candidate) => candidate.id === event.id)!;
      expect(row).toMatchObject({
        tenantId: acme.company.tenantId,
        companyId: acme.company.id,
        accountId: key.id,
        userId,
        kind: event.kind,
        startedAt: event.start,
        endedAt: event.end,
        application: event.kind === 'app' ? 'Excel' : null,
        statusId: event.kind === 'status' ? statusId : null,
        taskId: event.kind === 'task' ? taskId : null,
        endedByServer: false,
      });
    }
    const tenantId = acme.company.tenantId;
    // Excel from base+1 to base+21 min: 14 minutes in the first bucket, 6 in the second.
    for (const person of [userId!, 0]) {
      expect(await rollup(tenantId, person, 'app', 'Excel', base)).toEqual({ ms: 14 * MINUTE, starts: 1 });
      expect(await rollup(tenantId, person, 'app', 'Excel', base + BUCKET_MS)).toEqual({ ms: 6 * MINUTE, starts: 0 });
      expect(await rollup(tenantId, person, 'app', 'Excel', base, true)).toEqual({ ms: 20 * MINUTE, starts: 1 });
      expect(await rollup(tenantId, person, 'task', String(taskId), base)).toEqual({ ms: MINUTE, starts: 1 });
      expect(await rollup(tenantId, person, 'idle', '', base)).toEqual({ ms: 5 * MINUTE, starts: 1 });
      // Open spans count their start, and no time.
      expect(await rollup(tenantId, person, 'session', '', base)).toEqual({ ms: 0, starts: 1 });
      expect(await rollup(tenantId, person, 'status', String(statusId), base)).toEqual({ ms: 0, starts: 1 });
    }
    await expectRollupsExact();
  });

  it('replaces a span sent again: only its end moves, and only later; the rollups add only the extension', async () => {
    const { peer, userId } = await agentOf(acme);
    const tenantId = acme.company.tenantId;
    const start = alignedInDay(5 * HOUR) + 10 * MINUTE;
    const span = { id: randomUUID(), kind: 'app', start, end: null, application: 'Outlook' } as const;
    await sendActivity(peer, [span]);
    await sendActivity(peer, [{ ...span, end: start + 10 * MINUTE }]);
    expect((await spanOf(span.id))?.endedAt).toBe(start + 10 * MINUTE);
    expect(await rollup(tenantId, userId!, 'app', 'Outlook', start, true)).toEqual({ ms: 10 * MINUTE, starts: 1 });
    // Earlier, open again, or the same: accepted, nothing changes.
    await sendActivity(peer, [{ ...span, end: start + 5 * MINUTE }]);
    await sendActivity(peer, [span]);
    await sendActivity(peer, [{ ...span, end: start + 10 * MINUTE }]);
    expect((await spanOf(span.id))?.endedAt).toBe(start + 10 * MINUTE);
    expect(await rollup(tenantId, userId!, 'app', 'Outlook', start, true)).toEqual({ ms: 10 * MINUTE, starts: 1 });
    // Later: the extension only, across the next bucket.
    await sendActivity(peer, [{ ...span, end: start + 40 * MINUTE }]);
    expect(await rollup(tenantId, 0, 'app', 'Outlook', start, true)).toEqual({ ms: 40 * MINUTE, starts: 1 });
    expect(await rollup(tenantId, userId!, 'app', 'Outlook', start)).toEqual({ ms: 5 * MINUTE, starts: 1 });
    expect(await rollup(tenantId, userId!, 'app', 'Outlook', start + BUCKET_MS)).toEqual({
      ms: 15 * MINUTE,
      starts: 0,
    });
    expect(await rollup(tenantId, userId!, 'app', 'Outlook', start + 2 * BUCKET_MS)).toEqual({
      ms: 15 * MINUTE,
      starts: 0,
    });
    expect(await rollup(tenantId, userId!, 'app', 'Outlook', start + 3 * BUCKET_MS)).toEqual({
      ms: 5 * MINUTE,
      starts: 0,
    });
    // The same id twice in one frame: the later end wins.
    const twice = { id: randomUUID(), kind: 'idle', start, end: start + MINUTE } as const;
    await sendActivity(peer, [twice, { ...twice, end: start + 3 * MINUTE }, { ...twice, end: null }]);
    expect((await spanOf(twice.id))?.endedAt).toBe(start + 3 * MINUTE);
    expect(peer.received.get(DESTINATIONS.errors) ?? []).toEqual([]);
    await expectRollupsExact();
  });

  it('refuses each bad span with its key and id, stores the others, receipts the frame and stays connected', async () => {
    const { peer } = await agentOf(acme);
    const ownStatus = await statusOf(acme);
    const ownTask = await taskOf(acme, ownStatus);
    const otherStatus = await statusOf(globex);
    const otherTask = await taskOf(globex, otherStatus);
    const now = Date.now();
    const stored = { id: randomUUID(), kind: 'app', start: now - HOUR, end: null, application: 'Word' } as const;
    await sendActivity(peer, [stored]);

    const good = { id: randomUUID(), kind: 'task', start: now - HOUR, end: now - HOUR + MINUTE, taskId: ownTask };
    const cases: [Record<string, unknown>, string][] = [
      [{ id: randomUUID(), kind: 'idle', start: now - 8 * DAY_MS, end: null }, 'ERROR_ACTIVITY_SPAN_OUT_OF_RANGE'],
      [{ id: randomUUID(), kind: 'idle', start: now + 10 * MINUTE, end: null }, 'ERROR_ACTIVITY_SPAN_OUT_OF_RANGE'],
      [{ id: randomUUID(), kind: 'idle', start: now - HOUR, end: now - 2 * HOUR }, 'ERROR_ACTIVITY_SPAN_INVALID'],
      [
        { id: randomUUID(), kind: 'session', start: now - 3 * DAY_MS, end: now - DAY_MS },
        'ERROR_ACTIVITY_SPAN_INVALID',
      ],
      [
        { id: randomUUID(), kind: 'status', start: now - HOUR, end: null, statusId: otherStatus },
        'ERROR_STATUS_NOT_EXIST',
      ],
      [
        { id: randomUUID(), kind: 'status', start: now - HOUR, end: null, statusId: 2_000_000_000 },
        'ERROR_STATUS_NOT_EXIST',
      ],
      [{ id: randomUUID(), kind: 'task', start: now - HOUR, end: null, taskId: otherTask }, 'ERROR_TASK_NOT_EXIST'],
      [{ ...stored, application: 'Excel' }, 'ERROR_ACTIVITY_SPAN_CHANGED'],
      [{ ...stored, start: stored.start + 1 }, 'ERROR_ACTIVITY_SPAN_CHANGED'],
      [{ id: stored.id, kind: 'idle', start: stored.start, end: null }, 'ERROR_ACTIVITY_SPAN_CHANGED'],
    ];
    await sendActivity(peer, [good, ...cases.map(([span]) => span)]);
    const refusals = (peer.received.get(DESTINATIONS.errors) ?? []) as ActivityRefusal[];
    expect(refusals).toEqual(
      cases.map(([span, key]) => ({
        destination: DESTINATIONS.agentActivity,
        key,
        message: expect.any(String),
        id: span.id,
      })),
    );
    expect(await spanOf(good.id)).toMatchObject({ taskId: ownTask, endedAt: good.end });
    expect(await spanOf(stored.id)).toMatchObject({ application: 'Word', startedAt: stored.start, kind: 'app' });
    expect((await spansOf(cases.map(([span]) => span.id as string))).map((row) => row.id)).toEqual([stored.id]);

    // Another key naming this key's span: changed too.
    const other = await agentOf(acme);
    await sendActivity(other.peer, [stored]);
    expect(await other.peer.next<ActivityRefusal>(DESTINATIONS.errors)).toMatchObject({
      key: 'ERROR_ACTIVITY_SPAN_CHANGED',
      id: stored.id,
    });
    // A frame that is not one is refused whole, without a receipt; the connection stays.
    for (const body of [
      { events: [] },
      { events: Array.from({ length: 501 }, () => ({ ...good, id: randomUUID() })) },
      { events: [{ ...good, kind: 'coffee' }] },
      { events: [{ ...good, id: 'not-a-uuid' }] },
      { events: [{ id: randomUUID(), kind: 'app', start: now, end: null, application: '' }] },
      { events: [{ id: randomUUID(), kind: 'app', start: now, end: null, application: 'x'.repeat(256) }] },
      { events: [{ id: randomUUID(), kind: 'status', start: now, end: null }] },
      { events: [{ id: randomUUID(), kind: 'idle', start: -1, end: null }] },
    ]) {
      const before = (peer.received.get(DESTINATIONS.errors) ?? []).length;
      await peer.send(DESTINATIONS.agentActivity, body);
      await peer.next<LiveRefusal>(
        DESTINATIONS.errors,
        (refusal) => (peer.received.get(DESTINATIONS.errors) ?? []).indexOf(refusal) >= before,
      );
      expect((peer.received.get(DESTINATIONS.errors) ?? []).at(-1)).toMatchObject({
        destination: DESTINATIONS.agentActivity,
        key: 'ERROR_GENERAL_INVALID_INPUT',
      });
    }
    await sendActivity(peer, [{ id: randomUUID(), kind: 'idle', start: now - MINUTE, end: now }]);
    await expectRollupsExact();
  });

  it("counts a key with no person for the company only; a solo licence's activity is receipted and not stored", async () => {
    const { peer } = await agentOf(acme, false);
    const start = aligned(6 * HOUR);
    const span = { id: randomUUID(), kind: 'idle', start, end: start + 2 * MINUTE } as const;
    await sendActivity(peer, [span]);
    expect(await spanOf(span.id)).toMatchObject({ userId: null });
    const rows = await selectRows<{ person_id: number }>(
      db(),
      sql`select person_id from activity_rollups where tenant_id = ${acme.company.tenantId} and kind = 'idle'
          and bucket_start = ${start}::bigint`,
    );
    expect(rows.map((row) => Number(row.person_id))).toEqual([0]);

    const solo = await createAgentKey(db(), null);
    const soloSpan = { id: randomUUID(), kind: 'idle', start, end: start + MINUTE } as const;
    expect(await service().record({ accountId: solo.accountId, tenantId: null }, { events: [soloSpan] })).toEqual({
      refusals: [],
    });
    expect(await spanOf(soloSpan.id)).toBeUndefined();
  });

  it('ends the open spans of an agent that goes away at its last word, rolled up; the agent may reopen them', async () => {
    const { peer, key, mac, userId } = await agentOf(acme);
    const tenantId = acme.company.tenantId;
    const start = aligned(HOUR);
    const session = { id: randomUUID(), kind: 'session', start, end: null } as const;
    const app = { id: randomUUID(), kind: 'app', start: start + MINUTE, end: null, application: 'Teams' } as const;
    const closed = { id: randomUUID(), kind: 'idle', start, end: start + MINUTE } as const;
    await sendActivity(peer, [session, app, closed]);
    const lastWord = Date.now();
    await peer.close();
    await expect.poll(async () => (await spanOf(session.id))?.endedAt ?? null).not.toBeNull();
    const [ended, endedApp, untouched] = [await spanOf(session.id), await spanOf(app.id), await spanOf(closed.id)];
    expect(ended!.endedByServer).toBe(true);
    expect(ended!.endedAt).toBeGreaterThanOrEqual(lastWord - 1000);
    expect(ended!.endedAt).toBeLessThanOrEqual(Date.now());
    expect(endedApp).toMatchObject({ endedAt: ended!.endedAt, endedByServer: true });
    expect(untouched).toMatchObject({ endedAt: start + MINUTE, endedByServer: false });
    const day = await rollup(tenantId, userId!, 'session', '', start, true);
    expect(day.starts).toBe(1);
    await expectRollupsExact();
    const [seen] = await db().select().from(activityAgents).where(eq(activityAgents.accountId, key.id));
    expect(seen!.lastSeen).toBeGreaterThanOrEqual(ended!.endedAt!);

    // Back again, the agent says the session goes on: open again, its time taken back out.
    const again = await open(agentHeaders(key.key, mac), AGENT_SUBSCRIPTIONS, { confirmed: true });
    await sendActivity(again, [session, { ...app, end: start + 2 * MINUTE }]);
    expect(await spanOf(session.id)).toMatchObject({ endedAt: null, endedByServer: false });
    expect(await spanOf(app.id)).toMatchObject({ endedAt: start + 2 * MINUTE, endedByServer: false });
    expect(await rollup(tenantId, userId!, 'session', '', start, true)).toEqual({ ms: 0, starts: 1 });
    expect(await rollup(tenantId, 0, 'app', 'Teams', start, true)).toMatchObject({ ms: MINUTE });
    await expectRollupsExact();
  });

  it('closes at their last word the spans of agents gone without a goodbye (a crash), not those of connected ones', async () => {
    const gone = await createAgentKey(db(), acme.company);
    const here = await createAgentKey(db(), acme.company);
    const start = aligned(2 * HOUR);
    const lost = { id: randomUUID(), kind: 'session', start, end: null } as const;
    const kept = { id: randomUUID(), kind: 'session', start, end: null } as const;
    await service().record({ accountId: gone.accountId, tenantId: acme.company.tenantId }, { events: [lost] });
    await service().record({ accountId: here.accountId, tenantId: acme.company.tenantId }, { events: [kept] });
    await db()
      .update(activityAgents)
      .set({ lastSeen: start + 30 * MINUTE })
      .where(inArray(activityAgents.accountId, [gone.accountId, here.accountId]));
    expect(await service().closeOrphans([here.accountId])).toBe(1);
    expect(await spanOf(lost.id)).toMatchObject({ endedAt: start + 30 * MINUTE, endedByServer: true });
    expect(await spanOf(kept.id)).toMatchObject({ endedAt: null });
    // Recently heard from: left alone.
    await db().update(activityAgents).set({ lastSeen: Date.now() }).where(eq(activityAgents.accountId, here.accountId));
    expect(await service().closeOrphans([])).toBe(0);
    await expectRollupsExact();
  });
});

describe('the activity rollups', () => {
  it('equal a computation from the raw spans on random data, and their rebuild (task productivity too)', async () => {
    // Three people and a key with none, in two companies; spans across buckets and midnights,
    // resent, extended, closed by the server and reopened, sent in frames of random sizes at once.
    let seed = 17;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed / 2_147_483_648;
    };
    const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
    const owners = [acme, acme, globex, globex];
    const agents = [];
    for (const [index, owner] of owners.entries()) {
      const key = await createAgentKey(db(), owner.company);
      if (index !== 3) {
        const user = await createUser(db(), { company: owner.company });
        await db().update(accounts).set({ emailAddress: user.email }).where(eq(accounts.id, key.accountId));
      }
      const statusId = await statusOf(owner, `S${index}`);
      agents.push({
        agent: { accountId: key.accountId, tenantId: owner.company.tenantId },
        statusId,
        taskId: await taskOf(owner, statusId, `T${index}`),
      });
    }
    const now = Date.now();
    const known: { agent: (typeof agents)[number]; span: Activity }[] = [];
    for (let round = 0; round < 12; round += 1) {
      const sends: Promise<unknown>[] = [];
      for (const entry of agents) {
        const events: Activity[] = [];
        for (let n = Math.floor(random() * 30); n > 0; n -= 1) {
          const mine = known.filter((item) => item.agent === entry);
          if (mine.length > 0 && random() < 0.4) {
            // A resend: the same, open again, earlier, or later.
            const item = pick(mine);
            const base = item.span.end ?? item.span.start;
            const end = pick([item.span.end, null, base - 60_000, base + Math.floor(random() * 3 * HOUR)]);
            const clipped = end === null ? null : Math.min(Math.max(end, item.span.start), item.span.start + DAY_MS);
            events.push({ ...item.span, end: clipped } as Activity);
            continue;
          }
          const start = now - Math.floor(random() * 6 * DAY_MS);
          const end = random() < 0.3 ? null : start + Math.floor(random() * (random() < 0.2 ? 20 * HOUR : HOUR));
          const id = randomUUID();
          const kind = pick(['session', 'app', 'status', 'task', 'idle'] as const);
          const span: Activity =
            kind === 'app'
              ? { id, kind, start, end, application: pick(['Excel', 'Word', 'SAP GUI', 'O\'Brien, "Q"']) }
              : kind === 'status'
                ? { id, kind, start, end, statusId: entry.statusId }
                : kind === 'task'
                  ? { id, kind, start, end, taskId: entry.taskId }
                  : { id, kind, start, end };
          known.push({ agent: entry, span });
          events.push(span);
        }
        if (events.length > 0) sends.push(service().record(entry.agent, { events }));
        // Now and then the agent goes away (its open spans end), to come back next round.
        if (random() < 0.2) sends.push(service().agentGone(entry.agent, now - Math.floor(random() * HOUR)));
      }
      const results = await Promise.all(sends);
      for (const result of results) {
        if (result && typeof result === 'object' && 'refusals' in result)
          expect((result as { refusals: unknown[] }).refusals).toEqual([]);
      }
    }
    const [kinds] = await selectRows<{ by_server: number; open: number; across: number }>(
      db(),
      sql`select count(*) filter (where ended_by_server)::int as by_server, count(*) filter (where ended_at is null)::int as open,
            count(*) filter (where ended_at / ${DAY_MS}::bigint > started_at / ${DAY_MS}::bigint)::int as across
          from activity_spans`,
    );
    expect(kinds).toMatchObject({
      by_server: expect.any(Number),
      open: expect.any(Number),
      across: expect.any(Number),
    });
    expect(Math.min(kinds!.by_server, kinds!.open, kinds!.across)).toBeGreaterThan(0);
    const before = await rollupsAndExpected(db());
    expect(before.quarter).toEqual(before.expectedQuarter);
    expect(before.daily).toEqual(before.expectedDaily);
    expect(before.quarter.size).toBeGreaterThan(100);

    // Task productivity: stale person-days (the ingest marked them; the refresher may not have run),
    // then every one recomputed, then rebuilt; ranges with ends anywhere, whole days between.
    const answeredAt = Date.now();
    // The first agent's person (a filter of one person).
    const people = (
      await selectRows<{ user_id: number }>(
        db(),
        sql`select distinct user_id from activity_spans where account_id = ${agents[0]!.agent.accountId}`,
      )
    ).map((row) => Number(row.user_id));
    expect(people).toHaveLength(1);
    const ranges = [
      [answeredAt - 7 * DAY_MS, answeredAt],
      [answeredAt - 3 * DAY_MS - 5 * HOUR, answeredAt - DAY_MS - 7 * HOUR],
      [answeredAt - 2 * HOUR, answeredAt],
      [Math.floor(answeredAt / DAY_MS) * DAY_MS - 4 * DAY_MS, Math.floor(answeredAt / DAY_MS) * DAY_MS - DAY_MS - 1],
    ] as const;
    const taskAnswers = async () => {
      for (const owner of [acme, globex]) {
        for (const who of [null, people]) {
          for (const [from, to] of ranges) {
            const input = {
              db: db(),
              scope: oneTenant(owner.company.tenantId),
              people: who,
              from,
              to,
              tz: 'UTC',
              now: answeredAt,
            };
            const expected = await expectedTaskTimes(db(), owner.company.tenantId, who, from, to, answeredAt);
            expect(await taskTimes(input), `${owner.company.name} ${who} ${from}–${to}`).toEqual(expected);
          }
        }
      }
    };
    await taskAnswers();
    await refreshAllTaskDays(db());
    expect(await db().select().from(activityTaskDaysStale)).toEqual([]);
    const [stored] = await selectRows<{ people: number; days: number }>(
      db(),
      sql`select count(*) filter (where person_id <> 0)::int as people, count(*) filter (where person_id = 0)::int as days
          from activity_task_days`,
    );
    expect(Math.min(stored!.people, stored!.days)).toBeGreaterThan(0);
    await taskAnswers();

    const rebuilt = await rebuildActivityRollups(db());
    expect(rebuilt.spans).toBeGreaterThan(100);
    const after = await rollupsAndExpected(db());
    expect(after.quarter).toEqual(before.expectedQuarter);
    expect(after.daily).toEqual(before.expectedDaily);
    expect(await db().select().from(activityTaskDaysStale)).toEqual([]);
    await taskAnswers();
  });

  it('are rebuilt exactly over a month boundary, with open, server-closed, empty and personless spans', async () => {
    const boundary = monthOf(Date.now());
    await ensureMonthPartition(db(), 'activity_spans', boundary - HOUR);
    const user = await createUser(db(), { company: acme.company });
    const statusId = await statusOf(acme, 'Across');
    const span = (kind: 'session' | 'app' | 'status' | 'idle', startedAt: number, endedAt: number | null) => ({
      op: 'insert' as const,
      id: randomUUID(),
      tenantId: acme.company.tenantId,
      companyId: acme.company.id,
      accountId: null,
      userId: user.id as number | null,
      kind,
      startedAt,
      endedAt,
      application: kind === 'app' ? 'Month end' : null,
      statusId: kind === 'status' ? statusId : null,
      taskId: null,
      endedByServer: false,
      rolledFrom: startedAt,
    });
    await writeSpans(
      db(),
      [
        // Across the month's first midnight: buckets, a day and a partition each side.
        span('app', boundary - 10 * MINUTE - 1_234, boundary + 20 * MINUTE + 567),
        span('session', boundary - DAY_MS + 7 * MINUTE, boundary + 3 * HOUR),
        // Open: a start, no time.
        span('status', boundary - 7 * MINUTE, null),
        // Ending exactly on the boundary, and empty.
        span('session', boundary - BUCKET_MS, boundary),
        span('app', boundary + MINUTE, boundary + MINUTE),
        // No person (the company's total only), closed by the server.
        { ...span('idle', boundary - 2 * MINUTE, boundary + 40 * MINUTE), userId: null, endedByServer: true },
      ],
      Date.now(),
    );
    const before = await rollupsAndExpected(db());
    expect(before.quarter).toEqual(before.expectedQuarter);
    expect(before.daily).toEqual(before.expectedDaily);
    expect(before.quarter.get(`${acme.company.tenantId}|${user.id}|${boundary - BUCKET_MS}|status|${statusId}`)).toBe(
      '0ms 1 starts',
    );

    // Rebuilt from nothing: the same rows.
    await db().execute(sql`delete from activity_rollups`);
    await db().execute(sql`delete from activity_daily_rollups`);
    const rebuilt = await rebuildActivityRollups(db());
    expect(rebuilt.from).toBeLessThanOrEqual(monthOf(boundary - HOUR));
    const after = await rollupsAndExpected(db());
    expect(after.quarter).toEqual(before.expectedQuarter);
    expect(after.daily).toEqual(before.expectedDaily);
  });
});

describe('the retention', () => {
  it('drops whole months of spans past ACTIVITY_RETENTION_DAYS and keeps their rollups', async () => {
    const old = Date.UTC(2020, 0, 15, 9);
    await ensureMonthPartition(db(), 'activity_spans', old);
    const id = randomUUID();
    await writeSpans(
      db(),
      [
        {
          op: 'insert',
          id,
          tenantId: acme.company.tenantId,
          companyId: acme.company.id,
          accountId: null,
          userId: null,
          kind: 'idle',
          startedAt: old,
          endedAt: old + HOUR,
          application: null,
          statusId: null,
          taskId: null,
          endedByServer: false,
          rolledFrom: old,
        },
      ],
      Date.now(),
    );
    expect(await rollup(acme.company.tenantId, 0, 'idle', '', old, true)).toEqual({ ms: HOUR, starts: 1 });
    const result = await applyActivityRetention(db(), Date.now(), 400);
    expect(result.droppedPartitions).toContain('activity_spans_p2020_01');
    expect(await spanOf(id)).toBeUndefined();
    expect(await rollup(acme.company.tenantId, 0, 'idle', '', old, true)).toEqual({ ms: HOUR, starts: 1 });
    const months = (await monthPartitions(db(), 'activity_spans')).map((partition) => partition.from);
    expect(months).toContain(monthOf(Date.now()));
    expect(months.every((from) => from >= Date.now() - 400 * DAY_MS - 31 * DAY_MS)).toBe(true);
  });
});
