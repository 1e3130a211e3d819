import { shiftOn } from '@opsdeck/contract/schedules';
import type { Executor } from '../db/client';
import { schedules } from '../db/schema';
import type { DemoTenant } from './demo-tenant';

/** Day, late and early shifts, and one night shift that runs past midnight. */
const SHIFTS = [
  ['08:00', '17:00'],
  ['09:00', '18:00'],
  ['07:30', '16:30'],
  ['13:00', '22:00'],
  ['10:00', '19:00'],
  ['22:00', '06:00'],
] as const;

/** How many days back the demo's schedules (and the activity acted out on them) go. */
export const DEMO_SCHEDULE_PAST_DAYS = 30;

/**
 * Weekday shifts for one demo company, from 30 days ago to 21 days ahead, so the schedule screen
 * shows past rows, rows inside the 14-day edit lock and rows that can still change, and the monitor
 * has a month of schedules to measure attendance against (demo-activity.ts).
 */
export async function seedDemoSchedules(db: Executor, tenant: DemoTenant) {
  const today = new Date(tenant.now);
  const rows: (typeof schedules.$inferInsert)[] = [];
  for (let offset = -DEMO_SCHEDULE_PAST_DAYS; offset < 21; offset += 1) {
    const day = new Date(today.getFullYear(), today.getMonth(), today.getDate() + offset);
    if (day.getDay() === 0 || day.getDay() === 6) continue;
    const date = { year: day.getFullYear(), month: day.getMonth() + 1, day: day.getDate() };
    tenant.staffIds.forEach((userId, index) => {
      // Most people keep one shift; every third one rotates weekly.
      // (Weeks before the last one count down: the rows from 7 days back on are as they always were.)
      const week = Math.floor((offset + 7) / 7);
      const shift = (index + (index % 3 === 2 ? week : 0)) % SHIFTS.length;
      const [start, end] = SHIFTS[(shift + SHIFTS.length) % SHIFTS.length]!;
      rows.push({ tenantId: tenant.tenantId, userId, ...shiftOn(date, start, end), archived: false });
    });
  }
  if (rows.length) await db.insert(schedules).values(rows);
}
