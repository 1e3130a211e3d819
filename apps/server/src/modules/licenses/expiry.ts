import { and, gt, isNotNull, isNull, lte } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import { licenses } from '../../db/schema';
import { EVERY_TENANT } from '../../platform/tenancy';
import type { OutboxEvent, WebhookOutbox } from '../webhooks/service';
import { selectLicenses } from './queries';

const DAY = 86_400_000;

/**
 * `license.expiring` is told when a licence's expiry comes within 30, 7 and 1 days, and
 * `license.expired` when it has passed (docs/webhooks.md, "Events"). Each window is told once per
 * expiry: the event is named after the licence, the window and the expiry date, so every instance
 * may look (a second writes nothing) and a renewal (a new expiry) is told afresh. A licence that
 * expired more than a week ago is not told any more.
 */
const WINDOWS = [30, 7, 1] as const;
const EXPIRED_TOLD_FOR = 7 * DAY;

/** The window a licence with `left` ms to its expiry is in: its days, 0 for expired, null for none. */
export function expiryWindow(left: number): number | null {
  if (left <= 0) return left > -EXPIRED_TOLD_FOR ? 0 : null;
  const inside = WINDOWS.filter((days) => left <= days * DAY);
  return inside.length === 0 ? null : Math.min(...inside);
}

/** The events due at `now`, for the company licences in force whose expiry is near or just past. */
export async function licenseExpiryEvents(db: Db, now: number): Promise<OutboxEvent[]> {
  // A timer of the provider's: every company's licences.
  const rows = await selectLicenses(
    db,
    EVERY_TENANT,
    and(
      isNotNull(licenses.companyId),
      isNull(licenses.invalidatedAt),
      gt(licenses.expirationDate, now - EXPIRED_TOLD_FOR),
      lte(licenses.expirationDate, now + WINDOWS[0] * DAY),
    ),
  );
  return rows.flatMap((row): OutboxEvent[] => {
    const window = expiryWindow(row.expirationDate - now);
    if (window === null) return [];
    const license = { id: row.id, label: row.label, expiresAt: row.expirationDate };
    return window === 0
      ? [
          {
            id: `msg_license_${row.id}_expired_${row.expirationDate}`,
            type: 'license.expired',
            tenantId: row.companyTenantId ?? row.tenantId,
            data: { license },
          },
        ]
      : [
          {
            id: `msg_license_${row.id}_expiring_${window}_${row.expirationDate}`,
            type: 'license.expiring',
            tenantId: row.companyTenantId ?? row.tenantId,
            data: { license, daysLeft: window },
          },
        ];
  });
}

/** Looks every `everyMs` (an hour) and tells what is due; answers the function that stops it. */
export function startLicenseExpiryWatch(options: {
  db: Db;
  outbox: WebhookOutbox;
  log: FastifyBaseLogger;
  everyMs?: number;
  now?: () => number;
}) {
  const { db, outbox, log, everyMs = 3_600_000, now = Date.now } = options;
  async function look() {
    try {
      await outbox.emitAll(await licenseExpiryEvents(db, now()));
    } catch (error) {
      // The database is away: the next look tells what is still due.
      log.warn({ err: error }, 'licence expiry: looking for licences near their expiry failed');
    }
  }
  const first = setTimeout(look, 5_000);
  const timer = setInterval(look, everyMs);
  first.unref();
  timer.unref();
  return {
    look,
    stop() {
      clearTimeout(first);
      clearInterval(timer);
    },
  };
}
