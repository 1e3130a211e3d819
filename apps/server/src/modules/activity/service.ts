import {
  ACTIVITY_MAX_AGE_MS,
  ACTIVITY_MAX_AHEAD_MS,
  ACTIVITY_MAX_SPAN_MS,
  type Activity,
  type ActivityFrame,
  type ActivityRefusalKey,
} from '@opsdeck/contract/activity';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import { retryDeadlocks } from '../../platform/database-errors';
import { groupCommit } from '../../platform/group-commit';
import { ensureMonthPartition, monthOf } from '../../platform/partitions';
import { EVERY_TENANT } from '../../platform/tenancy';
import * as q from './queries';
import { refreshTaskDays } from './task-days';

/** The agent a frame came from: its key (account) and that key's tenant (null: a solo licence). */
export type ActivityAgent = { accountId: number; tenantId: string | null };

/** A span refused, told to the agent on `/user/topic/errors` with the span's id. */
export type SpanRefusal = { id: string; key: ActivityRefusalKey };

/** A changed start is looked for this far back: the oldest span accepted, and a day. */
const LOOKBACK_MS = ACTIVITY_MAX_AGE_MS + 86_400_000;
/** How often the connected agents' last heart-beats are noted (activity_agents). */
export const HEARD_EVERY_MS = 60_000;
/** An agent not heard from for this long, and held by no instance, has its open spans closed. */
export const ORPHAN_AFTER_MS = 5 * 60_000;
/** How often the stale person-days of task productivity are recomputed (task-days.ts). */
export const TASK_DAYS_EVERY_MS = 5_000;
/** How long a key's company and person are kept in memory before they are read again. */
const PEOPLE_TTL_MS = 60_000;

type Pending =
  | { type: 'frame'; agent: ActivityAgent; frame: ActivityFrame; at: number }
  | { type: 'gone'; agent: ActivityAgent; at: number };
type Outcome = { refusals: SpanRefusal[]; closed?: number };

const subjectOf = (span: Activity) => ({
  application: span.kind === 'app' ? span.application : null,
  statusId: span.kind === 'status' ? span.statusId : null,
  taskId: span.kind === 'task' ? span.taskId : null,
});

/** Whether a stored span is the same span as one sent (only its end may differ). */
const sameSpan = (stored: q.StoredSpan, span: Activity) => {
  const subject = subjectOf(span);
  return (
    stored.kind === span.kind &&
    stored.startedAt === span.start &&
    stored.application === subject.application &&
    stored.statusId === subject.statusId &&
    stored.taskId === subject.taskId
  );
};

/** The later of two ends, an open end (null) the earliest. */
const laterEnd = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.max(a, b));

export type ActivityService = ReturnType<typeof createActivityService>;

/**
 * Activity from the agents (`/agent/activity`; docs/monitor.md): every span checked, stored
 * idempotently by its id and start, and added to the rollups in the same transaction. Frames
 * arriving together are written together (platform/group-commit.ts): a batch reads the keys'
 * people, the statuses and tasks named and the spans already stored in four queries at once, then
 * locks the spans it changes, and writes them and their rollups in one statement.
 */
export function createActivityService(deps: { db: Db; log?: FastifyBaseLogger; now?: () => number }) {
  const { db, now = Date.now } = deps;
  /** Each key's company and person, read at most once a minute. */
  const people = new Map<number, { at: number; companyId: number | null; userId: number | null }>();
  /** The months whose partition is known to exist. */
  const months = new Set<number>();
  /** Closes under way (an agent gone), awaited before the database closes. */
  const closing = new Set<Promise<unknown>>();
  let heardTimer: NodeJS.Timeout | undefined;
  let taskDaysTimer: NodeJS.Timeout | undefined;
  let refreshing = false;

  async function peopleOf(accountIds: number[]) {
    const at = now();
    const missing = accountIds.filter((id) => (people.get(id)?.at ?? -Infinity) < at - PEOPLE_TTL_MS);
    if (missing.length > 0) {
      // Agents of every company report through one batch: each span is checked against its agent's tenant.
      const found = await q.peopleOfAccounts(db, EVERY_TENANT, missing);
      for (const id of missing) {
        const row = found.get(id);
        if (row) people.set(id, { at, ...row });
        else people.delete(id);
      }
    }
    return people;
  }

  async function ensureMonths(starts: Iterable<number>) {
    for (const month of new Set([...starts].map(monthOf))) {
      if (months.has(month)) continue;
      await ensureMonthPartition(db, 'activity_spans', month);
      months.add(month);
    }
  }

  /**
   * A batch in arrival order: the frames before an agent's going, then the closes of the agents
   * gone, then the frames after (a replaced agent's frames, then its successor's).
   */
  async function writeBatch(batch: Pending[]): Promise<Outcome[]> {
    const outcomes: Outcome[] = [];
    let frames: Extract<Pending, { type: 'frame' }>[] = [];
    let gone: Extract<Pending, { type: 'gone' }>[] = [];
    const flush = async () => {
      if (frames.length > 0) outcomes.push(...(await writeFrames(frames)));
      frames = [];
      if (gone.length > 0) {
        const ends = new Map<number, number>();
        for (const { agent, at } of gone) ends.set(agent.accountId, Math.max(at, ends.get(agent.accountId) ?? 0));
        const list = [...ends].map(([accountId, at]) => ({ accountId, at }));
        await q.touchAgents(db, list);
        const closed = await retryDeadlocks(() => q.closeOpenSpans(db, list));
        outcomes.push(...gone.map(() => ({ refusals: [], closed })));
      }
      gone = [];
    };
    for (const item of batch) {
      if (item.type === 'gone') {
        if (item.agent.tenantId !== null) gone.push(item);
        else outcomes.push({ refusals: [] });
        continue;
      }
      if (gone.length > 0) await flush();
      frames.push(item);
    }
    await flush();
    return outcomes;
  }

  async function writeFrames(batch: Extract<Pending, { type: 'frame' }>[]): Promise<Outcome[]> {
    const outcomes: Outcome[] = batch.map(() => ({ refusals: [] }));
    const at = now();
    // The spans to check, in arrival order; a solo licence's are receipted and not stored.
    const sent: { index: number; agent: ActivityAgent & { tenantId: string }; span: Activity }[] = [];
    for (const [index, { agent, frame }] of batch.entries()) {
      if (agent.tenantId === null) continue;
      for (const span of frame.events) {
        const refuse = (key: ActivityRefusalKey) => outcomes[index]!.refusals.push({ id: span.id, key });
        if (span.start < at - ACTIVITY_MAX_AGE_MS || span.start > at + ACTIVITY_MAX_AHEAD_MS)
          refuse('ERROR_ACTIVITY_SPAN_OUT_OF_RANGE');
        else if (span.end !== null && (span.end < span.start || span.end - span.start > ACTIVITY_MAX_SPAN_MS))
          refuse('ERROR_ACTIVITY_SPAN_INVALID');
        else sent.push({ index, agent: { ...agent, tenantId: agent.tenantId }, span });
      }
    }
    if (sent.length === 0) return outcomes;

    const statusIds = new Set<number>();
    const taskIds = new Set<number>();
    for (const { span } of sent) {
      if (span.kind === 'status') statusIds.add(span.statusId);
      if (span.kind === 'task') taskIds.add(span.taskId);
    }
    const heard = sent.map(({ agent }) => ({ accountId: agent.accountId, at }));
    const [known, statuses, tasks, stored] = await Promise.all([
      peopleOf([...new Set(sent.map(({ agent }) => agent.accountId))]),
      q.tenantsOf(db, EVERY_TENANT, 'statuses', [...statusIds]),
      q.tenantsOf(db, EVERY_TENANT, 'tasks', [...taskIds]),
      q.spansByIds(db, EVERY_TENANT, [...new Set(sent.map(({ span }) => span.id))], at - LOOKBACK_MS),
      // When each agent was last heard from (its last frame): the end of what a crash leaves open.
      q.touchAgents(db, heard),
    ]);
    const storedById = new Map<string, q.StoredSpan[]>();
    for (const span of stored) storedById.set(span.id, [...(storedById.get(span.id) ?? []), span]);

    // One entry a span id: the first sent defines it, a later one of the batch may only move its end.
    const wanted = new Map<string, { agent: ActivityAgent & { tenantId: string }; span: Activity }>();
    for (const { index, agent, span } of sent) {
      const refuse = (key: ActivityRefusalKey) => outcomes[index]!.refusals.push({ id: span.id, key });
      if (span.kind === 'status' && statuses.get(span.statusId) !== agent.tenantId) {
        refuse('ERROR_STATUS_NOT_EXIST');
        continue;
      }
      if (span.kind === 'task' && tasks.get(span.taskId) !== agent.tenantId) {
        refuse('ERROR_TASK_NOT_EXIST');
        continue;
      }
      // Another kind, start or subject under a stored id, or an id another key sent: changed.
      const before = storedById.get(span.id) ?? [];
      if (
        before.some(
          (row) => !sameSpan(row, span) || row.tenantId !== agent.tenantId || row.accountId !== agent.accountId,
        )
      ) {
        refuse('ERROR_ACTIVITY_SPAN_CHANGED');
        continue;
      }
      const earlier = wanted.get(span.id);
      if (!earlier) {
        wanted.set(span.id, { agent, span });
        continue;
      }
      const { agent: first, span: firstSpan } = earlier;
      if (
        !sameSpan({ ...toStored(firstSpan, first), endedByServer: false }, span) ||
        first.accountId !== agent.accountId
      ) {
        refuse('ERROR_ACTIVITY_SPAN_CHANGED');
        continue;
      }
      earlier.span = { ...firstSpan, end: laterEnd(firstSpan.end, span.end) } as Activity;
    }
    if (wanted.size === 0) return outcomes;

    await ensureMonths([...wanted.values()].map(({ span }) => span.start));
    // The spans, their rollups and the stale marks of task productivity lock rows in key order,
    // but a refresh of those marks, or another batch, may still meet this one the other way round.
    await retryDeadlocks(() =>
      db.transaction(async (tx) => {
        const locked = await q.lockSpans(
          tx,
          EVERY_TENANT,
          [...wanted.values()].map(({ span }) => ({ id: span.id, startedAt: span.start })),
        );
        const current = new Map(locked.map((row) => [row.id, row]));
        const writes: q.SpanWrite[] = [];
        for (const { agent, span } of wanted.values()) {
          const person = known.get(agent.accountId);
          const base = {
            ...toStored(span, agent),
            companyId: person?.companyId ?? null,
            userId: person?.userId ?? null,
          };
          const row = current.get(span.id);
          if (!row) {
            writes.push({ ...base, op: 'insert', endedByServer: false, rolledFrom: span.start });
            continue;
          }
          // Stored meanwhile as another span (a race between two keys): left as it is.
          if (!sameSpan(row, span)) continue;
          // An end the agent set moves only later; one the server set, the agent replaces.
          const end = row.endedByServer ? span.end : laterEnd(row.endedAt, span.end);
          if (end === row.endedAt && !row.endedByServer) continue;
          writes.push({
            ...base,
            op: 'update',
            endedAt: end,
            endedByServer: false,
            rolledFrom: row.endedAt ?? row.startedAt,
          });
        }
        await q.writeSpans(tx, writes, at);
      }),
    );
    return outcomes;
  }

  const write = groupCommit(writeBatch, { maxBatch: 200, maxInFlight: 2 });

  function track<T>(work: Promise<T>): Promise<T> {
    closing.add(work);
    // Only the bookkeeping's branch: whoever awaits `work` gets its failure and logs it.
    void work
      .catch((err: unknown) => deps.log?.debug({ err }, 'tracked activity write failed (its caller is told)'))
      .finally(() => closing.delete(work));
    return work;
  }

  return {
    /**
     * Stores a frame's spans (docs/monitor.md): answers the spans refused, each with its key; the
     * others are stored. A solo licence's frame stores nothing and refuses nothing.
     */
    async record(agent: ActivityAgent, frame: ActivityFrame): Promise<{ refusals: SpanRefusal[] }> {
      return write({ type: 'frame', agent, frame, at: now() });
    },

    /**
     * An agent went away: its spans still open end at `lastHeard` (its last frame or heart-beat),
     * as set by the server, and are rolled up.
     */
    async agentGone(agent: ActivityAgent, lastHeard: number): Promise<void> {
      if (agent.tenantId === null) return;
      // In the frames' queue: after the agent's own frames, before those of the agent replacing it.
      await track(write({ type: 'gone', agent, at: lastHeard }));
    },

    /**
     * Notes every minute when this instance last heard from each of its agents (`agents`: their
     * keys and last heart-beats), for the spans a crash would leave open.
     */
    noteHeartBeats(agents: () => { accountId: number; tenantId: string | null; at: number }[]) {
      heardTimer = setInterval(() => {
        const seen = agents().filter((agent) => agent.tenantId !== null);
        void q.touchAgents(db, seen).catch((err: unknown) => deps.log?.warn({ err }, 'agents heard not noted'));
      }, HEARD_EVERY_MS);
      heardTimer.unref();
    },

    /**
     * Recomputes the stale person-days of task productivity every few seconds (task-days.ts), one
     * refresh at a time; a failure (the database away) is logged and the next tick tries again.
     */
    keepTaskDays() {
      taskDaysTimer = setInterval(() => {
        if (refreshing) return;
        refreshing = true;
        void track(refreshTaskDays(db))
          .catch((err: unknown) => deps.log?.warn({ err }, 'task productivity days not refreshed'))
          .finally(() => {
            refreshing = false;
          });
      }, TASK_DAYS_EVERY_MS);
      taskDaysTimer.unref();
    },

    /**
     * Closes the spans left open by agents no instance holds (`connected`: every instance's keys)
     * and not heard from for ORPHAN_AFTER_MS, at their last word (a crash; docs/monitor.md).
     */
    closeOrphans: (connected: readonly number[], at = now()) =>
      track(retryDeadlocks(() => q.closeOrphanSpans(db, connected, at - ORPHAN_AFTER_MS))),

    /** Waits for the closes under way (the server stopping: before its database closes). */
    async stop() {
      if (heardTimer) clearInterval(heardTimer);
      if (taskDaysTimer) clearInterval(taskDaysTimer);
      while (closing.size > 0) await Promise.allSettled([...closing]);
    },
  };
}

/** A sent span as a row of activity_spans (without its person). */
function toStored(span: Activity, agent: ActivityAgent & { tenantId: string }) {
  return {
    id: span.id,
    tenantId: agent.tenantId,
    accountId: agent.accountId,
    kind: span.kind,
    startedAt: span.start,
    endedAt: span.end,
    ...subjectOf(span),
  };
}
