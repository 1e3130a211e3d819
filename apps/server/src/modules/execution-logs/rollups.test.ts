import { randomUUID } from 'node:crypto';
import type { ExecutionReport, ExecutionStatus } from '@opsdeck/contract/live';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app';
import { createAgentKey, createCompany, createWorkflowRow, type TestCompany } from '../../../test/factories';
import { selectRows } from '../../db/client';
import { BUCKET_MS, DAY_MS, lastExecutions } from './queries';
import { applyRetention, logPartitions, rebuildRollups } from './rollups';
import { createExecutionLogsService, type ExecutionLogsService } from './service';

let t: TestApp;
let service: ExecutionLogsService;
const db = () => t.database.db;
const NOW = Date.now();

beforeAll(async () => {
  t = await startTestApp();
  // Ten years of retention, so that runs of last year are stored; the retention test cuts at 400 days.
  service = createExecutionLogsService({ db: db(), retentionDays: 3650 });
});

afterAll(async () => {
  await t.close();
});

/** A small deterministic generator, so that a failure can be replayed. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

const STATUSES: ExecutionStatus[] = ['success', 'faulted', 'unknown'];

type World = {
  companies: TestCompany[];
  agents: { tenantId: string; accountId: number; macAddress: string }[];
  workflows: Map<string, number[]>;
};

async function world(count: number): Promise<World> {
  const companies: TestCompany[] = [];
  const agents: World['agents'] = [];
  const workflows = new Map<string, number[]>();
  for (let i = 0; i < count; i += 1) {
    const company = await createCompany(db());
    companies.push(company);
    const key = await createAgentKey(db(), company);
    agents.push({ ...key.agent, tenantId: company.tenantId });
    workflows.set(company.tenantId, [
      await createWorkflowRow(db(), company, `Invoices ${i}`),
      await createWorkflowRow(db(), company, `Payroll ${i}`),
    ]);
  }
  return { companies, agents, workflows };
}

/** Rows of the three rollups, in one comparable form. */
async function rollupRows() {
  const counts = await selectRows<Record<string, unknown>>(
    db(),
    sql`select tenant_id, workflow_id, bucket_start::text as bucket, succeeded, faulted, unknown, queued
        from execution_rollups where succeeded + faulted + unknown + queued > 0 order by 1, 2, 3`,
  );
  const daily = await selectRows<Record<string, unknown>>(
    db(),
    sql`select tenant_id, workflow_id, day_start::text as day, succeeded, faulted, unknown, queued
        from execution_daily_rollups where succeeded + faulted + unknown + queued > 0 order by 1, 2, 3`,
  );
  const time = await selectRows<Record<string, unknown>>(
    db(),
    sql`select tenant_id, bucket_start::text as bucket, execution_ms::text as ms
        from execution_time_rollups where execution_ms > 0 order by 1, 2`,
  );
  const dailyTime = await selectRows<Record<string, unknown>>(
    db(),
    sql`select tenant_id, day_start::text as day, execution_ms::text as ms
        from execution_daily_time_rollups where execution_ms > 0 order by 1, 2`,
  );
  const lastRuns = await selectRows<Record<string, unknown>>(
    db(),
    sql`select account_id, workflow_id, last_end::text as last from execution_last_runs order by 1, 2`,
  );
  return { counts, daily, time, dailyTime, lastRuns };
}

/** The same rollups as a plain GROUP BY over the raw rows (and the executed time split in JavaScript). */
async function groupedFromRaw() {
  const grouped = (width: number, alias: string) => sql`
    select tenant_id, workflow_id, bucket::text as ${sql.raw(alias)},
      sum(s)::int as succeeded, sum(f)::int as faulted, sum(u)::int as unknown, sum(q)::int as queued
    from (
      select tenant_id, workflow_id, execution_start - mod(execution_start, ${width}::bigint) as bucket,
        case when status_type = 'success' then 1 else 0 end as s, case when status_type = 'faulted' then 1 else 0 end as f,
        case when status_type = 'unknown' then 1 else 0 end as u, 0 as q
      from execution_logs
      union all
      select tenant_id, workflow_id, queued_at - mod(queued_at, ${width}::bigint), 0, 0, 0, 1 from queued_runs
    ) as runs group by tenant_id, workflow_id, bucket order by 1, 2, 3`;
  const counts = await selectRows<Record<string, unknown>>(db(), grouped(BUCKET_MS, 'bucket'));
  const daily = await selectRows<Record<string, unknown>>(db(), grouped(DAY_MS, 'day'));
  const logs = await selectRows<{ tenant_id: string; s: string; e: string }>(
    db(),
    sql`select tenant_id, execution_start::text as s, execution_end::text as e from execution_logs`,
  );
  const spread = new Map<string, number>();
  for (const log of logs) {
    const start = Number(log.s);
    const end = Number(log.e);
    for (let bucket = start - (start % BUCKET_MS); bucket < end; bucket += BUCKET_MS) {
      const key = `${log.tenant_id}|${bucket}`;
      spread.set(key, (spread.get(key) ?? 0) + Math.min(end, bucket + BUCKET_MS) - Math.max(start, bucket));
    }
  }
  const time = [...spread.entries()]
    .filter(([, ms]) => ms > 0)
    .map(([key, ms]) => {
      const [tenant_id, bucket] = key.split('|');
      return { tenant_id, bucket, ms: String(ms) };
    })
    .sort((a, b) =>
      a.tenant_id! < b.tenant_id! ? -1 : a.tenant_id! > b.tenant_id! ? 1 : Number(a.bucket) - Number(b.bucket),
    );
  // Each UTC day's executed time: the part of every run inside it (cut at the days it ran in).
  const perDay = new Map<string, number>();
  for (const log of logs) {
    const start = Number(log.s);
    const end = Number(log.e);
    for (let day = start - (start % DAY_MS); day < end; day += DAY_MS) {
      const key = `${log.tenant_id}|${day}`;
      perDay.set(key, (perDay.get(key) ?? 0) + Math.min(end, day + DAY_MS) - Math.max(start, day));
    }
  }
  const dailyTime = [...perDay.entries()]
    .filter(([, ms]) => ms > 0)
    .map(([key, ms]) => {
      const [tenant_id, day] = key.split('|');
      return { tenant_id, day, ms: String(ms) };
    })
    .sort((a, b) =>
      a.tenant_id! < b.tenant_id! ? -1 : a.tenant_id! > b.tenant_id! ? 1 : Number(a.day) - Number(b.day),
    );
  const lastRuns = await selectRows<Record<string, unknown>>(
    db(),
    sql`select account_id, workflow_id, max(execution_end)::text as last from execution_logs
        where account_id is not null and workflow_id is not null group by 1, 2 order by 1, 2`,
  );
  return { counts, daily, time, dailyTime, lastRuns };
}

describe('report rollups', () => {
  it('equal a plain GROUP BY over random runs and queued runs, resends counted once, and are rebuilt the same', async () => {
    const { agents, workflows } = await world(3);
    const next = random(20261125);
    const sent: { agent: (typeof agents)[number]; report: ExecutionReport }[] = [];
    for (let i = 0; i < 400; i += 1) {
      const agent = agents[Math.floor(next() * agents.length)]!;
      const ids = workflows.get(agent.tenantId)!;
      // Within the last 60 days, at any millisecond; some runs cross buckets, days or several hours.
      const start = NOW - Math.floor(next() * 60 * DAY_MS);
      const length = next() < 0.1 ? Math.floor(next() * 6 * 3_600_000) : Math.floor(next() * 20 * 60_000);
      const report: ExecutionReport = {
        id: randomUUID(),
        workflowId: ids[Math.floor(next() * ids.length)]!,
        executionStart: start,
        executionEnd: start + length,
        statusType: STATUSES[Math.floor(next() * 3)]!,
        errorMessage: null,
        errorActivity: null,
      };
      sent.push({ agent, report });
    }
    for (const { agent, report } of sent) expect((await service.record(agent, report)).stored).toBe(true);
    // An agent that did not hear the receipt sends again: nothing is counted twice.
    for (const { agent, report } of sent.slice(0, 40)) expect((await service.record(agent, report)).stored).toBe(false);
    for (const [index, agent] of agents.entries()) {
      const ids = workflows.get(agent.tenantId)!;
      const added = ids.map((workflowId, n) => ({
        id: index * 10 + n + 1,
        workflowId,
        name: 'queued',
        status: 'QUEUED' as const,
        position: n + 1,
        executionStart: null,
      }));
      expect(await service.recordQueue(agent, { added, updated: [], removed: [] })).toEqual({ queued: 2 });
      // Announced again after a reconnection while still open: not counted again.
      expect(await service.recordQueue(agent, { added, updated: [], removed: [] })).toEqual({ queued: 0 });
    }

    const kept = await rollupRows();
    expect(kept.counts.length).toBeGreaterThan(100);
    expect(kept.dailyTime.length).toBeGreaterThan(30);
    expect(kept.lastRuns.length).toBe(6);
    expect(kept).toEqual(await groupedFromRaw());

    await db().execute(sql`delete from execution_rollups`);
    await db().execute(sql`delete from execution_daily_rollups`);
    await db().execute(sql`delete from execution_time_rollups`);
    await db().execute(sql`delete from execution_daily_time_rollups`);
    await db().execute(sql`delete from execution_last_runs`);
    const rebuilt = await rebuildRollups(db());
    expect(rebuilt.logs).toBeGreaterThanOrEqual(400);
    expect(await rollupRows()).toEqual(kept);
  });

  it('stay exact with many batches written at once over the same rollup rows (none waits on another for ever)', async () => {
    const { agents, workflows } = await world(2);
    const next = random(4242);
    // Six writers, as six servers would be: their batches run at once on the pool's connections.
    const writers = Array.from({ length: 6 }, () => createExecutionLogsService({ db: db(), retentionDays: 3650 }));
    for (let round = 0; round < 8; round += 1) {
      // Batches of different sizes: PostgreSQL's hash of each differs, and so would the order of
      // its rows were they not sorted.
      const sent = writers.flatMap((writer) =>
        Array.from({ length: 5 + Math.floor(next() * 150) }, () => {
          const agent = agents[Math.floor(next() * agents.length)]!;
          const ids = workflows.get(agent.tenantId)!;
          // All in the same two hours: every batch adds to the same buckets, days and last runs.
          const start = NOW - 3 * 3_600_000 + Math.floor(next() * 2 * 3_600_000) + round * 600_000;
          const report: ExecutionReport = {
            id: randomUUID(),
            workflowId: ids[Math.floor(next() * ids.length)]!,
            executionStart: start,
            executionEnd: start + Math.floor(next() * 40 * 60_000),
            statusType: STATUSES[Math.floor(next() * 3)]!,
            errorMessage: null,
            errorActivity: null,
          };
          return writer.record(agent, report);
        }),
      );
      expect((await Promise.all(sent)).every((outcome) => outcome.stored)).toBe(true);
    }
    expect(await rollupRows()).toEqual(await groupedFromRaw());
  });

  it('counts an entry queued again once the agent removed it', async () => {
    const { agents, workflows } = await world(1);
    const agent = agents[0]!;
    const workflowId = workflows.get(agent.tenantId)![0]!;
    const entry = { id: 1, workflowId, name: 'w', status: 'QUEUED' as const, position: 1, executionStart: null };
    expect(await service.recordQueue(agent, { added: [entry], updated: [], removed: [] })).toEqual({ queued: 1 });
    expect(await service.recordQueue(agent, { added: [], updated: [], removed: [1] })).toEqual({ queued: 0 });
    expect(await service.recordQueue(agent, { added: [entry], updated: [], removed: [] })).toEqual({ queued: 1 });
    // Another company's workflow is never counted for this agent.
    const [other] = (await world(1)).companies;
    const foreign = await createWorkflowRow(db(), other!, 'Not yours');
    expect(
      await service.recordQueue(agent, { added: [{ ...entry, id: 2, workflowId: foreign }], updated: [], removed: [] }),
    ).toEqual({ queued: 0 });
  });

  it('drops the months past the retention whole, keeps their rollups, and makes the month a late log needs', async () => {
    const { agents, workflows } = await world(1);
    const agent = agents[0]!;
    const workflowId = workflows.get(agent.tenantId)![0]!;
    const old = Date.UTC(new Date(NOW).getUTCFullYear() - 2, 3, 10, 9, 30);
    const run = (start: number): ExecutionReport => ({
      id: randomUUID(),
      workflowId,
      executionStart: start,
      executionEnd: start + 60_000,
      statusType: 'success',
      errorMessage: null,
      errorActivity: null,
    });
    expect((await service.record(agent, run(old))).stored).toBe(true);
    expect((await service.record(agent, run(NOW - 60_000))).stored).toBe(true);
    const otherWorkflowId = workflows.get(agent.tenantId)![1]!;
    expect((await service.record(agent, { ...run(old), workflowId: otherWorkflowId })).stored).toBe(true);
    const oldPartition = `execution_logs_p${new Date(old).getUTCFullYear()}_04`;
    expect((await logPartitions(db())).map((partition) => partition.name)).toContain(oldPartition);

    const rollupOf = async (at: number) =>
      selectRows<{ n: number }>(
        db(),
        sql`select coalesce(sum(succeeded), 0)::int as n from execution_daily_rollups
            where tenant_id = ${agent.tenantId} and workflow_id = ${workflowId} and day_start = ${at - (at % DAY_MS)}::bigint`,
      );
    expect(await rollupOf(old)).toEqual([{ n: 1 }]);

    const result = await applyRetention(db(), NOW, 400);
    expect(result.droppedPartitions).toContain(oldPartition);
    expect((await logPartitions(db())).map((partition) => partition.name)).not.toContain(oldPartition);
    const left = await selectRows<{ n: number }>(
      db(),
      sql`select count(*)::int as n from execution_logs where tenant_id = ${agent.tenantId}`,
    );
    expect(left).toEqual([{ n: 1 }]);
    // The month's report still answers from its rollups, and a rebuild keeps what it cannot recount.
    expect(await rollupOf(old)).toEqual([{ n: 1 }]);
    await rebuildRollups(db());
    expect(await rollupOf(old)).toEqual([{ n: 1 }]);
    expect(await rollupOf(NOW - 60_000)).toEqual([{ n: 1 }]);
    // The key's last run of the workflow is still known, and of the other workflow, whose only
    // log the retention dropped, too.
    expect(await lastExecutions(db(), agent.accountId)).toEqual(
      new Map([
        [workflowId, NOW],
        [otherWorkflowId, old + 60_000],
      ]),
    );

    // The service with the default retention acknowledges a run older than 400 days without storing it.
    const strict = createExecutionLogsService({ db: db() });
    expect(await strict.record(agent, run(old))).toEqual({ stored: false });
  });

  it('refuses a run longer than 7 days or ending a day ahead, and stores none of it', async () => {
    const { agents, workflows } = await world(1);
    const agent = agents[0]!;
    const workflowId = workflows.get(agent.tenantId)![0]!;
    const base = { workflowId, statusType: 'success' as const, errorMessage: null, errorActivity: null };
    await expect(
      service.record(agent, { ...base, id: randomUUID(), executionStart: 0, executionEnd: NOW }),
    ).rejects.toMatchObject({ statusCode: 400, key: 'ERROR_EXECUTION_REPORT_INVALID' });
    await expect(
      service.record(agent, {
        ...base,
        id: randomUUID(),
        executionStart: NOW + 2 * DAY_MS,
        executionEnd: NOW + 2 * DAY_MS,
      }),
    ).rejects.toMatchObject({ key: 'ERROR_EXECUTION_REPORT_INVALID' });
    const rows = await selectRows<{ n: number }>(
      db(),
      sql`select count(*)::int as n from execution_logs where tenant_id = ${agent.tenantId}`,
    );
    expect(rows).toEqual([{ n: 0 }]);
  });
});
