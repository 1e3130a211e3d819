import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import { EVERY_TENANT } from '../../platform/tenancy';
import { applyActivityRetention } from '../activity/rollups';
import { deleteAuditBefore } from '../audit/queries';
import { applyRetention, ensureCurrentPartitions, rebuildRollups, rollupsMissing } from './rollups';

export type LogMaintenance = { run: () => Promise<void>; stop: () => Promise<void> };

/**
 * Keeps the execution logs' months in order while the server runs (docs/reports.md): at start and
 * then hourly, this month's and next month's partitions are made and the months past
 * EXECUTION_LOG_RETENTION_DAYS dropped. At start, a database whose logs predate the rollups has
 * them built. A failure (the database away) is logged and tried again at the next round.
 */
export function startLogMaintenance(options: {
  db: Db;
  retentionDays: number;
  log: FastifyBaseLogger;
  everyMs?: number;
  now?: () => number;
  /**
   * The activity spans' share of each round (docs/monitor.md): their months made and dropped past
   * ACTIVITY_RETENTION_DAYS, and the spans agents left open closed (`closeOrphans`).
   */
  activity?: { retentionDays: number; closeOrphans?: (now: number) => Promise<number> };
  /** The audit log's share (docs/audit.md): records past AUDIT_RETENTION_DAYS deleted. */
  audit?: { retentionDays: number };
}): LogMaintenance {
  const { db, retentionDays, log, everyMs = 3_600_000, now = Date.now, activity, audit } = options;
  let first = true;
  let running: Promise<void> | undefined;

  async function round() {
    if (first && (await rollupsMissing(db))) {
      const rebuilt = await rebuildRollups(db);
      log.info(rebuilt, 'execution log rollups built from the logs');
    }
    first = false;
    await ensureCurrentPartitions(db, now());
    const result = await applyRetention(db, now(), retentionDays);
    if (result.droppedPartitions.length > 0 || result.deletedQueuedRuns > 0)
      log.info({ ...result, retentionDays }, 'execution logs past their retention dropped');
    if (activity) {
      const spans = await applyActivityRetention(db, now(), activity.retentionDays);
      if (spans.droppedPartitions.length > 0)
        log.info({ ...spans, retentionDays: activity.retentionDays }, 'activity spans past their retention dropped');
      const closed = (await activity.closeOrphans?.(now())) ?? 0;
      if (closed > 0) log.info({ closed }, 'activity spans left open by agents gone closed');
    }
    if (audit) {
      const deleted = await deleteAuditBefore(db, EVERY_TENANT, now() - audit.retentionDays * 86_400_000);
      if (deleted > 0)
        log.info({ deleted, retentionDays: audit.retentionDays }, 'audit records past their retention deleted');
    }
  }

  /** One round at a time; a round asked for while one runs waits for it. */
  const run = () => {
    running ??= round()
      .catch((err: unknown) => log.warn({ err }, 'execution log maintenance failed; trying again later'))
      .finally(() => {
        running = undefined;
      });
    return running;
  };
  void run();
  const timer = setInterval(() => void run(), everyMs);
  timer.unref();
  return {
    run,
    // The round under way finishes first: the database closes after the app.
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
